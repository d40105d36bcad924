//! Writing the files cspace makes (traces, sweep lines, trees, reports, plots) whole or not at
//! all: the bytes go to a temporary file beside the target, which is renamed over the target only
//! once everything is written and flushed. An error on the way (a full disk) leaves the previous
//! file as it was and no temporary file behind (issue 36).
//!
//! A target that exists and is not a regular file (`/dev/stdout`, a named pipe, a device) is
//! written in place: it cannot be replaced, and renaming over it would replace the device's node.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written whole: write into it, then [`WholeFile::finish`] puts it in place.
/// Dropped without `finish`, it leaves the target untouched and removes what it wrote.
#[derive(Debug)]
pub struct WholeFile {
    target: PathBuf,
    out: Out,
}

#[derive(Debug)]
enum Out {
    /// A temporary file beside the target, renamed over it at the end.
    Temporary(BufWriter<tempfile::NamedTempFile>),
    /// The target itself, which is not a regular file.
    InPlace(BufWriter<File>),
}

impl WholeFile {
    /// Starts writing `path`. The temporary file is made in `path`'s folder (a rename is atomic
    /// only within one file system), with the permissions the target has, or those a new file
    /// gets.
    pub fn create(path: &Path) -> io::Result<WholeFile> {
        let existing = std::fs::metadata(path).ok();
        if existing
            .as_ref()
            .is_some_and(|m| !m.is_file() && !m.is_dir())
        {
            return Ok(WholeFile {
                target: path.to_path_buf(),
                out: Out::InPlace(BufWriter::new(File::create(path)?)),
            });
        }
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".partial");
        match existing {
            Some(m) if m.is_file() => builder.permissions(m.permissions()),
            _ => new_file(&mut builder),
        };
        let temp = builder.tempfile_in(folder)?;
        Ok(WholeFile {
            target: path.to_path_buf(),
            out: Out::Temporary(BufWriter::new(temp)),
        })
    }

    /// Flushes what was written and puts it in place of the target.
    pub fn finish(self) -> io::Result<()> {
        match self.out {
            Out::InPlace(mut file) => file.flush(),
            Out::Temporary(file) => {
                let temp = file.into_inner().map_err(io::IntoInnerError::into_error)?;
                temp.as_file().sync_all()?;
                temp.persist(&self.target).map_err(|e| e.error)?;
                Ok(())
            }
        }
    }
}

impl Write for WholeFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.out {
            Out::Temporary(file) => file.write(bytes),
            Out::InPlace(file) => file.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Out::Temporary(file) => file.flush(),
            Out::InPlace(file) => file.flush(),
        }
    }
}

/// Writes `bytes` to `path` whole or not at all ([`WholeFile`]).
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = WholeFile::create(path)?;
    file.write_all(bytes)?;
    file.finish()
}

/// Gives the temporary file the permissions `std::fs::write` gives a new file: read and write for
/// everyone, less the process's umask (which the system applies when the file is made).
#[cfg(unix)]
fn new_file<'b, 'p, 's>(
    builder: &'b mut tempfile::Builder<'p, 's>,
) -> &'b mut tempfile::Builder<'p, 's> {
    use std::os::unix::fs::PermissionsExt as _;
    builder.permissions(std::fs::Permissions::from_mode(0o666))
}

/// Elsewhere a new file's permissions are the system's.
#[cfg(not(unix))]
fn new_file<'b, 'p, 's>(
    builder: &'b mut tempfile::Builder<'p, 's>,
) -> &'b mut tempfile::Builder<'p, 's> {
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unfinished_file_leaves_the_previous_one_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.trace");
        std::fs::write(&target, "precious").unwrap();
        {
            let mut file = WholeFile::create(&target).unwrap();
            file.write_all(b"half of a new").unwrap();
            // Dropped: an error stopped the writer here.
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        write_whole(&target, b"whole").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "whole");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_usual_permissions_and_an_old_one_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, "x").unwrap();
        let ours = dir.path().join("ours.txt");
        write_whole(&ours, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&ours), mode(&plain));
        std::fs::set_permissions(&ours, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_whole(&ours, b"y").unwrap();
        assert_eq!(mode(&ours), 0o640);
    }

    #[test]
    fn a_folder_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_whole(dir.path(), b"x").is_err());
        assert!(dir.path().is_dir());
    }
}

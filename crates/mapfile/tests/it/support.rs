//! Access to the shared map corpus through the `CSPACE_MAPS` environment variable.
//!
//! The corpus (`shared/maps/*.map`) is never copied into the repository. A test that needs it
//! calls [`corpus`]: when `CSPACE_MAPS` is unset it prints `skipped <test>: CSPACE_MAPS is not
//! set` to stderr and the test returns; when it is set, a missing or unreadable directory or file
//! fails the test loudly. (Also used by `benches/load.rs`.)

use std::path::PathBuf;

/// The corpus directory named by `CSPACE_MAPS`.
pub struct Corpus {
    dir: PathBuf,
}

/// The corpus, or `None` after printing the skip line for `test` when `CSPACE_MAPS` is unset.
pub fn corpus(test: &str) -> Option<Corpus> {
    Some(Corpus {
        dir: cspace_corpus::dir(test)?,
    })
}

impl Corpus {
    /// The bytes of one corpus map; panics (failing the test) when it cannot be read.
    pub fn read(&self, name: &str) -> Vec<u8> {
        let path = self.dir.join(name);
        std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "CSPACE_MAPS corpus file {} cannot be read: {e}",
                path.display()
            )
        })
    }
}

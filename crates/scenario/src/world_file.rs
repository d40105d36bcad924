//! Worlds from files: `.map` files (through `cspace-mapfile`) and TOML worlds of inline brushes.
//!
//! A TOML world is the `[world]` table of a scenario written at the top level of a file:
//!
//! ```toml
//! # A floor and a wall.
//! [[brush]]
//! box = { min = [-512, -512, -16], max = [512, 512, 0] }
//!
//! [[brush]]
//! contents = "clip"       # "solid" (the default) or "clip": both block agents
//! planes = [              # n . x <= dist for every plane; normals need not be unit
//!   { normal = [1, 0, 0], dist = 80 },
//!   { normal = [-1, 0, 0], dist = -64 },
//!   { normal = [0, 1, 0], dist = 512 },
//!   { normal = [0, -1, 0], dist = 512 },
//!   { normal = [0, 0, 1], dist = 128 },
//!   { normal = [0, 0, -1], dist = 0 },
//! ]
//! ```
//!
//! `map = "file.map"` (relative to the TOML file; `${CSPACE_MAPS}` expands to that environment
//! variable) loads a `.map` world; inline brushes, when also given, are added to it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cspace_geom::{Aabb, Brush, BrushSource, Contents, DVec3, Plane, World, WorldBrush};
use serde::Deserialize;
use toml::Spanned;

use crate::error::Error;
use crate::location::LocatedError;
use crate::numbers::Numbers;

/// The world part of a scenario, or a whole TOML world file.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct WorldSpec {
    /// A `.map` file, relative to the file that names it.
    #[serde(default)]
    pub map: Option<Spanned<String>>,
    /// Inline brushes.
    #[serde(default, rename = "brush")]
    pub brushes: Vec<Spanned<BrushSpec>>,
    /// The map's movers move and push (issue 32, `docs/entities.md`): their brushes leave the
    /// static world and become brush models of their own. Default `false`: frozen, solid where
    /// the file draws them (every scenario before issue 32).
    #[serde(default)]
    pub living: bool,
    /// The rules the map's entities are read with, `"quake1"` or `"quake3"`; default: the
    /// dialect the map's format names.
    #[serde(default)]
    pub entities: Option<Spanned<String>>,
    /// A folder of Quake III shader scripts (`*.shader`), relative to the file that names it:
    /// their `surfaceparm`s decide what the map's faces are (`cspace_mapfile::shader`).
    #[serde(default)]
    pub shaders: Option<Spanned<String>>,
}

/// One inline brush: a box or a list of planes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrushSpec {
    /// An axis-aligned box.
    #[serde(default, rename = "box")]
    pub aabb: Option<BoxSpec>,
    /// Bounding planes `normal . x <= dist`.
    #[serde(default)]
    pub planes: Option<Vec<Spanned<PlaneSpec>>>,
    /// What the brush blocks.
    #[serde(default)]
    pub contents: ContentsSpec,
}

/// An axis-aligned box brush.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSpec {
    /// The smallest corner.
    pub min: Spanned<Numbers<3>>,
    /// The largest corner.
    pub max: Spanned<Numbers<3>>,
}

/// A plane `normal . x = dist`; the brush is behind it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaneSpec {
    /// The outward normal (any length but zero).
    pub normal: Spanned<Numbers<3>>,
    /// The distance along the normal, in units of the normal's length.
    pub dist: f64,
}

/// `contents = "solid" | "clip"`.
#[derive(Debug, Clone, Copy, Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ContentsSpec {
    /// Ordinary solid.
    #[default]
    Solid,
    /// Invisible clip (blocks agents).
    Clip,
}

/// A loaded world and what came with it.
#[derive(Debug, Clone)]
pub struct LoadedWorld {
    /// The brushes.
    pub world: Arc<World>,
    /// Agent start points found in a `.map` (empty for inline worlds).
    pub spawns: Vec<DVec3>,
    /// The living entities when the world lives (`living = true`): the movers whose brushes
    /// were taken out of `world`, the triggers that set them going.
    pub living: Option<Arc<cspace_entities::Entities>>,
}

/// Expands `${NAME}` references to environment variables in a path written in a file.
pub fn expand_env(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("unterminated `${{` in {text:?}"))?;
        let name = &after[..end];
        let value = std::env::var(name).map_err(|_| {
            let hint = if name == "CSPACE_MAPS" {
                format!(
                    ": it names the folder of the map corpus ({})",
                    cspace_mapfile::CORPUS_HINT
                )
            } else {
                String::new()
            };
            format!("environment variable {name} (used in {text:?}) is not set{hint}")
        })?;
        out.push_str(&value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Builds the inline brushes of `spec` (read from `file`, whose text is `text`), with errors
/// located at the brush or field at fault.
pub fn inline_brushes(
    spec: &WorldSpec,
    file: &Path,
    text: &str,
) -> Result<Vec<WorldBrush>, LocatedError> {
    let file_name: Arc<str> = Arc::from(cspace_mapfile::normalised(file).display().to_string());
    let mut brushes = Vec::with_capacity(spec.brushes.len());
    for (index, spanned) in spec.brushes.iter().enumerate() {
        let at = |offset: usize, message: String| LocatedError::at(file, text, offset, message);
        // A fixed list's numbers, refused where the list is written when there are not 3.
        let numbers = |list: &Spanned<Numbers<3>>, field: String| {
            list.get_ref()
                .exactly(&field)
                .map(DVec3::from_array)
                .map_err(|e| at(list.span().start, e))
        };
        let brush_spec = spanned.get_ref();
        let start = spanned.span().start;
        let brush = match (&brush_spec.aabb, &brush_spec.planes) {
            (Some(b), None) => {
                let (min, max) = (
                    numbers(&b.min, format!("brush {index}: box.min"))?,
                    numbers(&b.max, format!("brush {index}: box.max"))?,
                );
                if !min.is_finite() || !max.is_finite() {
                    return Err(at(
                        b.min.span().start,
                        format!("brush {index}: box has a non-finite number"),
                    ));
                }
                if min.cmpge(max).any() {
                    return Err(at(
                        b.max.span().start,
                        format!(
                            "brush {index}: box max {} must exceed min {} on every axis",
                            cspace_geom::domain::vector(max),
                            cspace_geom::domain::vector(min)
                        ),
                    ));
                }
                Brush::from_aabb(Aabb::new(min, max))
                    .map_err(|e| at(start, format!("brush {index}: {e}")))?
            }
            (None, Some(planes)) => {
                let mut built = Vec::with_capacity(planes.len());
                for (i, p) in planes.iter().enumerate() {
                    let spec = p.get_ref();
                    let normal = numbers(&spec.normal, format!("brush {index} plane {i}: normal"))?;
                    let plane = Plane::new(normal, spec.dist)
                        .map_err(|e| at(p.span().start, format!("brush {index} plane {i}: {e}")))?;
                    built.push(plane);
                }
                Brush::from_written_planes(&built)
                    .map_err(|e| at(start, format!("brush {index}: {e}")))?
            }
            (Some(_), Some(_)) => {
                return Err(at(
                    start,
                    format!("brush {index}: give either `box` or `planes`, not both"),
                ));
            }
            (None, None) => {
                return Err(at(start, format!("brush {index}: needs `box` or `planes`")));
            }
        };
        brush
            .check_domain()
            .map_err(|e| at(start, format!("brush {index}: {e}")))?;
        let (line, _) = crate::location::line_column(text, start);
        brushes.push(WorldBrush {
            brush,
            contents: match brush_spec.contents {
                ContentsSpec::Solid => Contents::Solid,
                ContentsSpec::Clip => Contents::Clip,
            },
            source: BrushSource {
                file: Some(file_name.clone()),
                line: line as u32,
                entity: 0,
                brush: index as u32,
                facet: None,
            },
        });
    }
    Ok(brushes)
}

/// Resolves a path written in `file`, with `${VAR}` expanded: a relative path is a path from the
/// file's folder, except one that begins with a variable whose value is relative, which is a path
/// from the folder the command was typed in ([`cspace_mapfile::invocation_dir`]). So
/// `map = "${CSPACE_MAPS}/quake_e1m1.map"` with `CSPACE_MAPS=../shared/maps` names the same file
/// for `sim run`, `cargo test` and the tools, wherever the scenario lies.
pub fn resolve_path(file: &Path, written: &str) -> Result<PathBuf, String> {
    let expanded = expand_env(written)?;
    let leading_variable = written
        .strip_prefix("${")
        .and_then(|rest| rest.find('}').map(|end| &rest[..end]))
        .and_then(std::env::var_os);
    let path = PathBuf::from(expanded);
    Ok(if path.is_absolute() {
        path
    } else if leading_variable.is_some_and(|v| Path::new(&v).is_relative()) {
        cspace_mapfile::invocation_dir().join(path)
    } else {
        file.parent().unwrap_or(Path::new(".")).join(path)
    })
}

/// Loads a world file: a `.map` or a TOML world of inline brushes.
pub fn load_world(path: &Path) -> Result<LoadedWorld, Error> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("map") => {
            let bytes = std::fs::read(path).map_err(|e| Error::io(path, "read the world", e))?;
            load_map_bytes(path, &bytes)
        }
        Some("toml") => {
            let text = crate::read::read_text(path, "read the world")?;
            parse_world(path, &text)
        }
        _ => Err(LocatedError {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            message: "unknown world format: expected a .map file or a .toml world".to_string(),
        }
        .into()),
    }
}

/// Loads a `.map` file as a living world (`[world] living = true` with the map's own dialect):
/// the static world without its movers, and its entities (`sim bench --living`).
pub fn load_living_map(path: &Path) -> Result<LoadedWorld, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, "read the world", e))?;
    let options = cspace_mapfile::BuildOptions {
        living: true,
        ..cspace_mapfile::BuildOptions::default()
    };
    load_map_with(path, &bytes, &options)
}

/// Builds the world of a TOML world file's `text` (`path` locates errors and resolves `map`).
pub fn parse_world(path: &Path, text: &str) -> Result<LoadedWorld, Error> {
    let spec: WorldSpec =
        toml::from_str(text).map_err(|e| LocatedError::from_toml(path, text, &e))?;
    load_spec(&spec, path, text)
}

/// Builds the world a [`WorldSpec`] describes (`file` and `text` locate errors and resolve the
/// map path). An empty world is an error.
pub fn load_spec(spec: &WorldSpec, file: &Path, text: &str) -> Result<LoadedWorld, Error> {
    load_spec_with(spec, file, text, None)
}

/// Reads every `*.shader` script of `dir`, in file name order (a shader defined twice: the first
/// read wins), into one set. A malformed script is an error at its line and column.
pub fn load_shaders(dir: &Path) -> Result<cspace_mapfile::shader::Shaders, Error> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Error::io(dir, "read the shader folder", e))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| Error::io(dir, "read the shader folder", e))?
            .path();
        if path.extension().is_some_and(|e| e == "shader") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    let mut shaders = cspace_mapfile::shader::Shaders::new();
    for path in files {
        let text = crate::read::read_text(&path, "read the shader script")?;
        let name = cspace_mapfile::normalised(&path).display().to_string();
        shaders.add_script(&text, &name).map_err(|e| LocatedError {
            file: path.clone(),
            line: e.line as usize,
            column: e.column as usize,
            message: e.message,
        })?;
    }
    Ok(shaders)
}

/// [`load_spec`], with `shaders` (a folder of shader scripts, as `sim run --shaders` gives it)
/// in the place of the spec's own `shaders`.
pub fn load_spec_with(
    spec: &WorldSpec,
    file: &Path,
    text: &str,
    shaders: Option<&Path>,
) -> Result<LoadedWorld, Error> {
    let mut brushes = Vec::new();
    let mut spawns = Vec::new();
    let mut living = None;
    let dialect = match &spec.entities {
        None => None,
        Some(d) => Some(match d.get_ref().as_str() {
            "quake1" => cspace_entities::Dialect::Quake1,
            "quake3" => cspace_entities::Dialect::Quake3,
            other => {
                return Err(LocatedError::at(
                    file,
                    text,
                    d.span().start,
                    format!("entities: {other:?} is not \"quake1\" or \"quake3\""),
                )
                .into());
            }
        }),
    };
    if (spec.living || dialect.is_some()) && spec.map.is_none() {
        return Err(LocatedError::at(
            file,
            text,
            0,
            "living and entities need a `map`: inline brushes have no entities",
        )
        .into());
    }
    if let Some(map) = &spec.map {
        let path = resolve_path(file, map.get_ref())
            .map_err(|e| LocatedError::at(file, text, map.span().start, format!("map: {e}")))?;
        let map_bytes = std::fs::read(&path).map_err(|e| {
            LocatedError::at(
                file,
                text,
                map.span().start,
                format!(
                    "map: cannot read {}: {e}",
                    cspace_mapfile::normalised(&path).display()
                ),
            )
        })?;
        let folder = match (shaders, &spec.shaders) {
            (Some(dir), _) => Some(dir.to_path_buf()),
            (None, Some(written)) => Some(resolve_path(file, written.get_ref()).map_err(|e| {
                LocatedError::at(file, text, written.span().start, format!("shaders: {e}"))
            })?),
            (None, None) => None,
        };
        let shaders = folder
            .map(|dir| load_shaders(&dir).map(Arc::new))
            .transpose()?;
        let options = cspace_mapfile::BuildOptions {
            living: spec.living,
            dialect,
            shaders,
            ..cspace_mapfile::BuildOptions::default()
        };
        let loaded = load_map_with(&path, &map_bytes, &options)?;
        brushes.extend(loaded.world.brushes().iter().cloned());
        spawns = loaded.spawns;
        living = loaded.living;
    }
    brushes.extend(inline_brushes(spec, file, text)?);
    if brushes.is_empty() {
        return Err(LocatedError::at(
            file,
            text,
            0,
            "world has no brushes: give `map` or `[[brush]]` tables",
        )
        .into());
    }
    Ok(LoadedWorld {
        world: Arc::new(World::new(brushes)),
        spawns,
        living,
    })
}

/// Loads the world of a `.map` file's bytes (with `cspace-mapfile`'s solidity rules). Bytes, not
/// text: the map reader locates a byte that is not UTF-8 by line and column.
fn load_map_bytes(path: &Path, bytes: &[u8]) -> Result<LoadedWorld, Error> {
    load_map_with(path, bytes, &cspace_mapfile::BuildOptions::default())
}

/// [`load_map_bytes`] with `options`: a living world keeps its entities.
fn load_map_with(
    path: &Path,
    bytes: &[u8],
    options: &cspace_mapfile::BuildOptions,
) -> Result<LoadedWorld, Error> {
    let name = cspace_mapfile::normalised(path).display().to_string();
    let map = cspace_mapfile::load_world(bytes, &name, options)?;
    Ok(LoadedWorld {
        spawns: map.spawn_points.iter().map(|s| s.origin).collect(),
        world: Arc::new(map.world),
        living: options.living.then(|| Arc::new(map.living)),
    })
}

/// Parses and builds a `.map` file's bytes, keeping the full import report.
pub fn load_map(path: &Path, bytes: &[u8]) -> Result<cspace_mapfile::MapWorld, Error> {
    let name = cspace_mapfile::normalised(path).display().to_string();
    Ok(cspace_mapfile::load_world(
        bytes,
        &name,
        &cspace_mapfile::BuildOptions::default(),
    )?)
}

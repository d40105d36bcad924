//! Quake-family `.map` import for cspace: from the text of a map to a collision
//! [`World`](cspace_geom::World) with its spawn points.
//!
//! What it pursues, in order: never misread a map (a broken structure is an error that names
//! file, line and column; no input panics), never lose a good map to one bad brush (an invalid
//! brush is reported and skipped), then speed.
//!
//! - [`MapFile::parse`] reads the text into [`MapFile`]: [`Entity`]s with their key/value pairs,
//!   [`MapBrush`]es of [`MapFace`]s (three plane points, a texture, a [`TextureProjection`] and
//!   the Quake 2 / Quake III [`SurfaceFlags`]) and Quake III [`Patch`]es. It reads Quake standard,
//!   Valve 220 and Quake 2 / Quake III legacy face lines, telling them apart line by line
//!   ([`FaceFormat`]), and refuses Quake III brush primitives and Doom 3 maps. Errors are
//!   [`MapError`]s.
//! - [`build_world`] decides what blocks agents (entity classes and texture names, see its
//!   documentation for the exact rules), builds the solid and clip brushes with
//!   [`Brush::from_map_points`](cspace_geom::Brush::from_map_points), tessellates the collidable
//!   patches into facets ([`cspace_geom::patch`], within
//!   [`BuildOptions::tessellation`]'s error bound, neighbours sharing their borders) that enter
//!   the world as flat brushes after the brushes, and returns a [`MapWorld`]: the world, the
//!   [`SpawnPoint`]s, a [`BrushRecord`] for every brush saying what became of it ([`BrushFate`])
//!   and a [`PatchRecord`] for every patch ([`PatchFate`]), with totals ([`BrushTally`],
//!   [`PatchTally`]) and per-entity counts ([`EntityReport`]).
//! - [`load_world`] does both.
//!
//! The formats and the corpus this is tested on are described in `shared/maps/SOURCES.md`.
//!
//! ```
//! use cspace_geom::Contents;
//! use cspace_mapfile::{BrushFate, BuildOptions, FaceFormat, MapFile, build_world};
//!
//! let text = r#"
//! // A 64-unit cube of floor, a water volume and a player start.
//! {
//! "classname" "worldspawn"
//! {
//! ( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) floor 0 0 0 1 1
//! ( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) floor 0 0 0 1 1
//! ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) floor 0 0 0 1 1
//! ( 64 64 64 ) ( 64 65 64 ) ( 65 64 64 ) floor 0 0 0 1 1
//! ( 64 64 64 ) ( 65 64 64 ) ( 64 64 65 ) floor 0 0 0 1 1
//! ( 64 64 64 ) ( 64 64 65 ) ( 64 65 64 ) floor 0 0 0 1 1
//! }
//! {
//! ( 0 0 64 ) ( 0 1 64 ) ( 0 0 65 ) *water0 0 0 0 1 1
//! ( 0 0 64 ) ( 0 0 65 ) ( 1 0 64 ) *water0 0 0 0 1 1
//! ( 0 0 64 ) ( 1 0 64 ) ( 0 1 64 ) *water0 0 0 0 1 1
//! ( 64 64 96 ) ( 64 65 96 ) ( 65 64 96 ) *water0 0 0 0 1 1
//! ( 64 64 96 ) ( 65 64 96 ) ( 64 64 97 ) *water0 0 0 0 1 1
//! ( 64 64 96 ) ( 64 64 97 ) ( 64 65 96 ) *water0 0 0 0 1 1
//! }
//! }
//! {
//! "classname" "info_player_start"
//! "origin" "32 32 88"
//! "angle" "90"
//! }
//! "#;
//! let map = MapFile::parse(text, "tiny.map")?;
//! assert_eq!(map.formats(), [FaceFormat::Quake]);
//! assert_eq!((map.entities.len(), map.brush_count()), (2, 2));
//!
//! let loaded = build_world(&map, &BuildOptions::default())?;
//! assert_eq!(loaded.world.len(), 1);
//! assert_eq!(loaded.world.brushes()[0].contents, Contents::Solid);
//! assert_eq!(loaded.world.brushes()[0].source.to_string(), "tiny.map:5: entity 0 brush 0");
//! assert!(matches!(loaded.brushes[1].fate, BrushFate::NonSolid(_)));
//! assert_eq!(loaded.tally.liquid, 1);
//! assert_eq!(loaded.spawn_points[0].origin.z, 88.0);
//! assert_eq!(loaded.bounds.max.x, 64.0);
//!
//! // Errors name the place.
//! let error = MapFile::parse("{\n\"classname\" \"worldspawn\"\n{\n( 0 0 nan ) ", "bad.map").unwrap_err();
//! assert_eq!(error.to_string(), "bad.map:4:7: 'nan' is not a finite number");
//! # Ok::<(), cspace_mapfile::MapError>(())
//! ```

mod build;
mod error;
mod lex;
mod map;
pub mod map_text;
mod parse;
mod paths;
pub mod shader;

pub use build::{
    BrushFate, BrushRecord, BrushTally, BuildOptions, ClassCount, ClassSolidity, DropReason,
    EntityReport, FaceContents, MapWarning, MapWorld, NonSolidReason, PatchFate, PatchRecord,
    PatchTally, SpawnPoint, build_world, class_solidity, collidable_patch_grids, dialect_of,
    face_contents, face_contents_in, is_spawn_class, liquid_kind, load_world,
};
pub use error::{Location, MapError};
pub use map::{
    Entity, FaceFormat, FormatCounts, MapBrush, MapFace, MapFile, Patch, PatchPoint, SurfaceFlags,
    TextureProjection,
};
pub use paths::{CORPUS_HINT, invocation_dir, normalised};

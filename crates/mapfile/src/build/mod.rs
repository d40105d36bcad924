//! From a parsed map to a collision [`World`]: solidity, brush building, spawn points and the
//! report of what happened to every brush.

mod entities;
mod patch;
mod solidity;
mod spawn;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use cspace_geom::brush::DroppedPlanes;
use cspace_geom::patch::TessellationOptions;
use cspace_geom::tolerance::MAX_BRUSH_FACES;
use cspace_geom::{
    Aabb, Brush, BrushError, BrushId, BrushSource, Contents, Plane, PlaneError, World, WorldBrush,
};

pub use entities::{dialect_of, liquid_kind};
pub use patch::{PatchFate, PatchRecord, PatchTally, collidable_patch_grids};
pub use solidity::{
    ClassSolidity, FaceContents, class_solidity, face_contents, face_contents_in, is_spawn_class,
};
pub use spawn::SpawnPoint;

use cspace_entities::{Dialect, Entities};

use crate::error::MapError;
use crate::map::{FaceFormat, FormatCounts, MapBrush, MapFile};
use crate::shader::Shaders;

/// Choices [`build_world`] leaves to the caller.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BuildOptions {
    /// How finely patches are tessellated into facets: the largest distance between a curved
    /// surface and its facets. Default [`PATCH_ERROR`](cspace_geom::tolerance::PATCH_ERROR).
    pub tessellation: TessellationOptions,
    /// Whether the brushes of entities whose class is unknown ([`ClassSolidity::Unknown`]) block
    /// agents. Default `false`: an unknown brush entity is more often a trigger or an effect
    /// volume (Hipnotic's `rotate_object`, Unvanquished's `sensor_player`, a Quake `info_notnull`
    /// hack) than a wall, and a game that spawns nothing for it leaves it non-solid. Either way
    /// they are counted in [`MapWorld::unknown_classes`].
    pub unknown_classes_solid: bool,
    /// The rules the map's entities are read with; `None` (the default): the dialect its format
    /// names ([`dialect_of`]).
    pub dialect: Option<Dialect>,
    /// Whether movers live: `true` takes their brushes out of [`MapWorld::world`] (they are brush
    /// models of their own, [`MapWorld::entities`]'s movers, which a simulation moves); `false`
    /// (the default) leaves them frozen, solid where the file draws them.
    pub living: bool,
    /// Quake III's shader scripts (`crate::shader`): a face whose shader they define gets the
    /// contents of its `surfaceparm`s (water, slime, lava, nonsolid, playerclip, ...); `None`
    /// (the default): shaders are known by name only, and the rest are taken as solid
    /// ([`MapWorld::assumed_solid`] lists them).
    pub shaders: Option<Arc<Shaders>>,
}

/// What became of one brush of the file.
#[derive(Debug, Clone, PartialEq)]
pub enum BrushFate {
    /// In the world as [`Contents::Solid`], with this id.
    Solid(BrushId),
    /// In the world as [`Contents::Clip`], with this id.
    Clip(BrushId),
    /// Left out of the world: it does not block agents.
    NonSolid(NonSolidReason),
    /// Dropped: a compiler marker, not geometry.
    Dropped(DropReason),
    /// A brush of a living mover ([`BuildOptions::living`]): in that mover's model, not in the
    /// world; the index is the mover's in [`MapWorld::living`].
    Mover(usize),
    /// Skipped: it should block agents but is not a valid convex volume.
    Invalid {
        /// What is wrong with it.
        error: BrushError,
        /// The 1-based line of the faulty face for [`BrushError::DegeneratePlane`], else of the
        /// brush's opening `{`.
        line: u32,
    },
}

/// Why a brush does not block agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NonSolidReason {
    /// Its entity's class is non-solid (`trigger_*`, `func_illusionary`, ...).
    EntityClass,
    /// Its entity's class is unknown and [`BuildOptions::unknown_classes_solid`] is off.
    UnknownEntityClass,
    /// It is a liquid ([`FaceContents::Liquid`]).
    Liquid,
    /// Its faces are non-solid shaders ([`FaceContents::NonSolid`]).
    NonSolidTexture,
}

/// Why a brush was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// A face is an origin marker ([`FaceContents::Origin`]).
    Origin,
    /// Every face is a `skip`/`hint` marker ([`FaceContents::Marker`]).
    Marker,
}

impl fmt::Display for BrushFate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BrushFate::Solid(id) => write!(f, "solid (brush {id})"),
            BrushFate::Clip(id) => write!(f, "clip (brush {id})"),
            BrushFate::NonSolid(NonSolidReason::EntityClass) => f.write_str("non-solid entity"),
            BrushFate::NonSolid(NonSolidReason::UnknownEntityClass) => {
                f.write_str("unknown entity class, taken as non-solid")
            }
            BrushFate::NonSolid(NonSolidReason::Liquid) => f.write_str("liquid"),
            BrushFate::NonSolid(NonSolidReason::NonSolidTexture) => {
                f.write_str("non-solid texture")
            }
            BrushFate::Dropped(DropReason::Origin) => f.write_str("origin brush, dropped"),
            BrushFate::Dropped(DropReason::Marker) => f.write_str("skip/hint brush, dropped"),
            BrushFate::Mover(m) => write!(f, "mover {m} (a brush model that moves)"),
            BrushFate::Invalid { error, .. } => write!(f, "invalid, skipped: {error}"),
        }
    }
}

/// One brush of the file: where it is and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct BrushRecord {
    /// File, line, entity index and brush index within the entity.
    pub source: BrushSource,
    /// What became of it.
    pub fate: BrushFate,
    /// True when its faces (markers and origin aside) disagree on contents; the strongest won.
    pub mixed_contents: bool,
}

impl fmt::Display for BrushRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = match &self.fate {
            BrushFate::Invalid { line, .. } => *line,
            _ => self.source.line,
        };
        let file = self.source.file.as_deref().unwrap_or("<map>");
        write!(
            f,
            "{file}:{line}: entity {} brush {}: {}",
            self.source.entity, self.source.brush, self.fate
        )
    }
}

/// Brushes counted by fate. `total` is the sum of all the other fields but `mixed_contents`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BrushTally {
    /// Every brush of the file (patches not included).
    pub total: usize,
    /// In the world as solid.
    pub solid: usize,
    /// In the world as clip.
    pub clip: usize,
    /// In a living mover's model ([`BuildOptions::living`]).
    pub mover: usize,
    /// Non-solid by entity class.
    pub non_solid_class: usize,
    /// Non-solid because the entity class is unknown.
    pub unknown_class: usize,
    /// Liquids.
    pub liquid: usize,
    /// Non-solid by texture.
    pub non_solid_texture: usize,
    /// Dropped skip/hint brushes.
    pub marker: usize,
    /// Dropped origin brushes.
    pub origin: usize,
    /// Invalid brushes, skipped.
    pub invalid: usize,
    /// Brushes whose faces disagreed on contents (counted in their fate too).
    pub mixed_contents: usize,
}

impl BrushTally {
    /// Brushes that do not block agents, whatever the reason.
    pub fn non_solid(&self) -> usize {
        self.non_solid_class + self.unknown_class + self.liquid + self.non_solid_texture
    }

    /// Brushes dropped as markers.
    pub fn dropped(&self) -> usize {
        self.marker + self.origin
    }

    fn add(&mut self, fate: &BrushFate, mixed_contents: bool) {
        self.total += 1;
        self.mixed_contents += usize::from(mixed_contents);
        *match fate {
            BrushFate::Solid(_) => &mut self.solid,
            BrushFate::Clip(_) => &mut self.clip,
            BrushFate::Mover(_) => &mut self.mover,
            BrushFate::NonSolid(NonSolidReason::EntityClass) => &mut self.non_solid_class,
            BrushFate::NonSolid(NonSolidReason::UnknownEntityClass) => &mut self.unknown_class,
            BrushFate::NonSolid(NonSolidReason::Liquid) => &mut self.liquid,
            BrushFate::NonSolid(NonSolidReason::NonSolidTexture) => &mut self.non_solid_texture,
            BrushFate::Dropped(DropReason::Marker) => &mut self.marker,
            BrushFate::Dropped(DropReason::Origin) => &mut self.origin,
            BrushFate::Invalid { .. } => &mut self.invalid,
        } += 1;
    }
}

/// Counts for one entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityReport {
    /// The `classname`, empty when there is none.
    pub classname: String,
    /// The 1-based line of the entity's opening `{`.
    pub line: u32,
    /// What its class makes of its brushes.
    pub solidity: ClassSolidity,
    /// Its brushes by fate.
    pub brushes: BrushTally,
    /// Its patches.
    pub patches: usize,
}

/// A class these rules do not know, with brushes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassCount {
    /// The class name (empty for entities without one).
    pub classname: String,
    /// Entities of this class with at least one brush.
    pub entities: usize,
    /// Their brushes.
    pub brushes: usize,
}

/// Something odd that did not stop the import (a spawn point without a usable origin, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapWarning {
    /// The index of the entity concerned.
    pub entity: u32,
    /// The 1-based line of its opening `{`.
    pub line: u32,
    /// What is odd.
    pub message: String,
}

impl fmt::Display for MapWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "entity {} (line {}): {}",
            self.entity, self.line, self.message
        )
    }
}

/// A map made ready for collision, with a report of what the import found.
///
/// All fields are plain data meant to be printed (as JSON by `sim map`, for one).
#[derive(Debug, Clone)]
pub struct MapWorld {
    /// The solid and clip brushes, in file order (a brush's [`BrushId`] is in its
    /// [`BrushRecord::fate`]).
    pub world: World,
    /// The display name of the file.
    pub file: Arc<str>,
    /// Face lines counted by format (see [`MapWorld::formats`]).
    pub face_formats: FormatCounts,
    /// Every brush of the file, in file order.
    pub brushes: Vec<BrushRecord>,
    /// The brushes counted by fate.
    pub tally: BrushTally,
    /// Counts per entity, in file order.
    pub entities: Vec<EntityReport>,
    /// Unknown classes with brushes, sorted by name.
    pub unknown_classes: Vec<ClassCount>,
    /// Agent starts, in file order.
    pub spawn_points: Vec<SpawnPoint>,
    /// The number of `patchDef2` patches (all of them; see [`MapWorld::patch_tally`]).
    pub patches: usize,
    /// Every patch of the file, in file order, with what became of it.
    pub patch_records: Vec<PatchRecord>,
    /// The patches counted by fate, with their facets and the largest error bound.
    pub patch_tally: PatchTally,
    /// The bounds of the world's brushes, in world units (empty when there is none).
    pub bounds: Aabb,
    /// Duplicate and redundant planes dropped while building the world's brushes, in total.
    pub dropped_planes: DroppedPlanes,
    /// Oddities that did not stop the import (the entities' own are [`MapWorld::living`]'s).
    pub warnings: Vec<MapWarning>,
    /// The living entities: movers, triggers, teleporters, push pads, liquids, read with
    /// [`BuildOptions::dialect`] (or the format's).
    pub living: Entities,
    /// A Quake III map's textures (faces and patches) taken as solid only because nothing says
    /// otherwise: no special flag, no shader script defining them ([`BuildOptions::shaders`]), no
    /// known name. Sorted, each once (empty for a Quake 1 map, whose names decide).
    pub assumed_solid: Vec<String>,
}

impl MapWorld {
    /// The formats of the face lines, in [`FaceFormat`] order, each listed once.
    pub fn formats(&self) -> Vec<FaceFormat> {
        self.face_formats.formats()
    }

    /// The brushes skipped as invalid.
    pub fn invalid_brushes(&self) -> impl Iterator<Item = &BrushRecord> {
        self.brushes
            .iter()
            .filter(|b| matches!(b.fate, BrushFate::Invalid { .. }))
    }

    /// The patches skipped as invalid.
    pub fn invalid_patches(&self) -> impl Iterator<Item = &PatchRecord> {
        self.patch_records
            .iter()
            .filter(|p| matches!(p.fate, PatchFate::Invalid { .. }))
    }
}

/// Parses a `.map` file and builds its world ([`MapFile::parse`] then [`build_world`]).
pub fn load_world(
    source: impl AsRef<[u8]>,
    file: &str,
    options: &BuildOptions,
) -> Result<MapWorld, MapError> {
    build_world(&MapFile::parse(source, file)?, options)
}

/// What a brush's faces say, before its entity's class is considered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FaceVerdict {
    /// The strongest contents among the faces that are not markers (`Origin` if any face is an
    /// origin, `Marker` if all faces are markers).
    contents: FaceContents,
    /// Whether the non-marker faces disagreed.
    mixed: bool,
}

fn face_verdict(brush: &MapBrush, shaders: Option<&Shaders>) -> FaceVerdict {
    let mut strongest: Option<FaceContents> = None;
    let mut mixed = false;
    for face in &brush.faces {
        match face_contents_in(&face.texture, face.flags, shaders) {
            FaceContents::Origin => {
                return FaceVerdict {
                    contents: FaceContents::Origin,
                    mixed: false,
                };
            }
            FaceContents::Marker => {}
            contents => {
                if let Some(s) = strongest {
                    mixed |= s != contents;
                    strongest = Some(s.max(contents));
                } else {
                    strongest = Some(contents);
                }
            }
        }
    }
    let contents = match strongest {
        Some(contents) => contents,
        None if brush.faces.is_empty() => FaceContents::Solid,
        None => FaceContents::Marker,
    };
    FaceVerdict { contents, mixed }
}

/// The contents a brush enters the world with, or its fate when it does not enter it (steps 1 to
/// 4 of [`build_world`]).
fn world_contents(
    faces: FaceContents,
    solidity: ClassSolidity,
    options: &BuildOptions,
) -> Result<Contents, BrushFate> {
    match faces {
        FaceContents::Origin => Err(BrushFate::Dropped(DropReason::Origin)),
        FaceContents::Marker => Err(BrushFate::Dropped(DropReason::Marker)),
        _ if solidity == ClassSolidity::NonSolid => {
            Err(BrushFate::NonSolid(NonSolidReason::EntityClass))
        }
        _ if solidity == ClassSolidity::Unknown && !options.unknown_classes_solid => {
            Err(BrushFate::NonSolid(NonSolidReason::UnknownEntityClass))
        }
        FaceContents::Liquid => Err(BrushFate::NonSolid(NonSolidReason::Liquid)),
        FaceContents::NonSolid => Err(BrushFate::NonSolid(NonSolidReason::NonSolidTexture)),
        FaceContents::Clip => Ok(Contents::Clip),
        FaceContents::Solid => Ok(Contents::Solid),
    }
}

/// The brushes of the world being built (step 5 of [`build_world`]).
#[derive(Default)]
struct WorldBuilder {
    brushes: Vec<WorldBrush>,
    dropped_planes: DroppedPlanes,
    /// Scratch space for one brush's planes.
    planes: Vec<Plane>,
}

impl WorldBuilder {
    /// Builds `brush` and adds it to the world, or reports why it is invalid.
    fn add(&mut self, brush: &MapBrush, contents: Contents, source: &BrushSource) -> BrushFate {
        self.planes.clear();
        let built = face_planes(brush, &mut self.planes).and_then(|()| {
            let built = Brush::from_written_planes(&self.planes)?;
            built.check_domain()?;
            Ok(built)
        });
        match built {
            Ok(built) => {
                let dropped = built.dropped();
                self.dropped_planes.duplicate += dropped.duplicate;
                self.dropped_planes.redundant += dropped.redundant;
                let id = BrushId(self.brushes.len() as u32);
                self.brushes.push(WorldBrush {
                    brush: built,
                    contents,
                    source: source.clone(),
                });
                match contents {
                    Contents::Clip => BrushFate::Clip(id),
                    Contents::Solid => BrushFate::Solid(id),
                }
            }
            Err(error) => {
                let line = match &error {
                    BrushError::DegeneratePlane { face, .. } => {
                        brush.faces.get(*face).map_or(brush.line, |f| f.line)
                    }
                    _ => brush.line,
                };
                BrushFate::Invalid { error, line }
            }
        }
    }
}

/// The face planes of a brush, as [`Brush::from_map_points`] makes them, but refusing a plane
/// with a non-finite normal or distance: `Plane::from_map_points` returns a NaN plane for finite
/// points whose difference overflows `f64` (coordinates near `1e308`), where it should report
/// [`PlaneError::NonFinite`].
fn face_planes(brush: &MapBrush, planes: &mut Vec<Plane>) -> Result<(), BrushError> {
    if brush.faces.len() > MAX_BRUSH_FACES {
        // Refused before its planes are made (Brush::from_written_planes would refuse them).
        return Err(BrushError::TooManyFaces {
            count: brush.faces.len(),
            limit: MAX_BRUSH_FACES,
        });
    }
    for (face, f) in brush.faces.iter().enumerate() {
        let [p0, p1, p2] = f.points;
        let plane = Plane::from_map_points(p0, p1, p2)
            .and_then(|p| {
                if p.normal().is_finite() && p.dist().is_finite() {
                    Ok(p)
                } else {
                    Err(PlaneError::NonFinite)
                }
            })
            .map_err(|error| BrushError::DegeneratePlane { face, error })?;
        planes.push(plane);
    }
    Ok(())
}

/// Builds the collision world of a parsed map.
///
/// Each brush's fate is decided in this order:
///
/// 1. A brush with an origin face ([`FaceContents::Origin`]) is dropped: it only marks a rotation
///    centre (qbsp and q3map2 OR the face contents together, so one origin face makes an origin
///    brush).
/// 2. Marker faces (`skip`, `hint`, ...) take no part in the contents, as in ericw-tools and
///    q3map2 (whose hint and skip shaders are non-solid and add nothing); a brush made only of
///    markers is dropped.
/// 3. A brush of a non-solid entity class is non-solid; one of an unknown class follows
///    [`BuildOptions::unknown_classes_solid`] ([`class_solidity`]).
/// 4. Otherwise the remaining faces decide, and **when they disagree the strongest wins**:
///    solid over clip over liquid over non-solid ([`FaceContents`] order). Quake's compilers
///    differ here: id's qbsp and older ericw-tools take the first face's texture, q3map2 ORs the
///    contents of all faces (so a single solid face makes the brush solid for players). The
///    first-face rule depends on face order, which editors do not preserve; the OR rule is
///    order-free and errs towards blocking, which is the safe side for collision: an agent
///    stopped by a half-textured water brush is a visible oddity, an agent falling through a wall
///    is a broken world. Such brushes are flagged [`BrushRecord::mixed_contents`] and counted.
/// 5. Solid and clip brushes are built from their planes (as [`Brush::from_map_points`] does); one that is
///    not a valid convex volume (open, empty, degenerate face, beyond
///    [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE)) is reported as
///    [`BrushFate::Invalid`] with its source and skipped, and the rest of the map still loads.
///    Brushes that do not enter the world are not built, hence not validated.
/// 6. Patches follow steps 1 to 4 with their shader for texture (a `*_nonsolid` or other
///    non-solid shader, a liquid, a trigger entity: no collision; a clip shader: clip). The
///    collidable ones are tessellated together into convex facets within
///    [`BuildOptions::tessellation`]'s error bound (patches sharing a border get the same
///    vertices on it; see [`cspace_geom::patch`]); each facet enters the world as a flat brush
///    ([`Brush::from_polygon`]) after all the brushes, so the ids of brushes do not depend on the
///    patches. A patch whose grid is not one (a side even or below 3) is reported as
///    [`PatchFate::Invalid`] with the place of its size header, and skipped.
///
/// The one error: patches whose subdivision within the error bound would make more facets
/// than a world may hold ([`MapError::PatchBudget`], the limit
/// [`MAX_PATCH_FACETS`](cspace_geom::tolerance::MAX_PATCH_FACETS)), counted before any facet
/// is made, so a hostile patch costs neither unbounded memory nor unbounded time.
///
/// Sky is solid. Movers are taken at the position written in the file (closed doors, plats at
/// their start). Brush sources carry the file name, the brush's line, the entity index and the
/// brush index within the entity; a facet's carries its patch's line, the patch index within the
/// entity and the facet's index within the patch ([`BrushSource::facet`]).
pub fn build_world(map: &MapFile, options: &BuildOptions) -> Result<MapWorld, MapError> {
    let mut builder = WorldBuilder::default();
    let mut records: Vec<BrushRecord> = Vec::with_capacity(map.brush_count());
    let mut tally = BrushTally::default();
    let mut entities = Vec::with_capacity(map.entities.len());
    let mut unknown: BTreeMap<String, ClassCount> = BTreeMap::new();
    let mut spawn_points = Vec::new();
    let mut warnings = Vec::new();
    let mut patches = patch::PatchBuilder::default();
    let mut inputs = entities::Inputs::default();

    for (e, entity) in map.entities.iter().enumerate() {
        let index = e as u32;
        let classname = entity.classname();
        let solidity = class_solidity(classname, e);
        let mut entity_tally = BrushTally::default();
        inputs.begin(map, e);
        for (b, brush) in entity.brushes.iter().enumerate() {
            let source = BrushSource {
                file: Some(map.file.clone()),
                line: brush.line,
                entity: index,
                brush: b as u32,
                facet: None,
            };
            let verdict = face_verdict(brush, options.shaders.as_deref());
            let fate = match world_contents(verdict.contents, solidity, options) {
                Ok(contents) => builder.add(brush, contents, &source),
                Err(fate) => fate,
            };
            inputs.add(
                brush,
                &fate,
                &source,
                &builder.brushes,
                options.shaders.as_deref(),
            );
            tally.add(&fate, verdict.mixed);
            entity_tally.add(&fate, verdict.mixed);
            records.push(BrushRecord {
                source,
                fate,
                mixed_contents: verdict.mixed,
            });
        }
        if solidity == ClassSolidity::Unknown && !entity.brushes.is_empty() {
            let name = classname.unwrap_or_default();
            let count = unknown
                .entry(name.to_owned())
                .or_insert_with(|| ClassCount {
                    classname: name.to_owned(),
                    entities: 0,
                    brushes: 0,
                });
            count.entities += 1;
            count.brushes += entity.brushes.len();
        }
        patches.add_entity(&map.file, entity, index, solidity, options);
        if let Some(name) = classname.filter(|c| is_spawn_class(c)) {
            spawn_points.extend(spawn::spawn_point(entity, index, name, &mut warnings));
        }
        entities.push(EntityReport {
            classname: classname.unwrap_or_default().to_owned(),
            line: entity.line,
            solidity,
            brushes: entity_tally,
            patches: entity.patches.len(),
        });
    }

    let dialect = options.dialect.unwrap_or_else(|| dialect_of(map));
    let assumed_solid = assumed_solid_textures(map, options.shaders.as_deref());
    for &(entity, brush) in &inputs.invalid {
        let line = map.entities[entity as usize].brushes[brush as usize].line;
        warnings.push(MapWarning {
            entity,
            line,
            message: format!(
                "brush {brush} (line {line}) of a trigger or liquid is not a valid convex volume; \
                 left out"
            ),
        });
    }
    let living = cspace_entities::spawn(&inputs.inputs, dialect);
    if options.living {
        entities::remove_movers(
            &living,
            &mut builder.brushes,
            &mut records,
            &mut tally,
            &mut entities,
        );
    }
    let (patch_records, patch_tally, pieces) =
        patches.finish(&map.file, &mut builder.brushes, options)?;
    let world = World::new(builder.brushes)
        .with_patch_pieces(pieces)
        .expect("the pieces name the facets just made");
    Ok(MapWorld {
        bounds: world.bounds(),
        world,
        file: map.file.clone(),
        face_formats: map.face_formats,
        brushes: records,
        tally,
        entities,
        unknown_classes: unknown.into_values().collect(),
        spawn_points,
        patches: map.patch_count(),
        patch_records,
        patch_tally,
        dropped_planes: builder.dropped_planes,
        warnings,
        living,
        assumed_solid,
    })
}

/// The textures of a Quake III-format map (Quake 2 / Quake III face lines, or patches) that only
/// the default rule makes solid ([`solidity::assumed_solid`]), sorted and each once.
fn assumed_solid_textures(map: &MapFile, shaders: Option<&Shaders>) -> Vec<String> {
    if dialect_of(map) != Dialect::Quake3 {
        return Vec::new();
    }
    let mut names = std::collections::BTreeSet::new();
    for entity in &map.entities {
        for face in entity.brushes.iter().flat_map(|b| &b.faces) {
            if solidity::assumed_solid(&face.texture, face.flags, shaders) {
                names.insert(face.texture.clone());
            }
        }
        for patch in &entity.patches {
            if solidity::assumed_solid(&patch.texture, None, shaders) {
                names.insert(patch.texture.clone());
            }
        }
    }
    names.into_iter().collect()
}

//! The map's entities for `cspace-entities`: every entity's keys and the brushes its class needs
//! (solid and clip brushes as the world builder made them, triggers' and liquids' brushes built
//! here, the centre of an origin brush), the dialect from the map's format, and the removal of
//! movers from the static world when they live.

use crate::shader::Shaders;
use cspace_entities::{Dialect, Entities, EntityInput, InputBrush, InputContents, LiquidKind};
use cspace_geom::{Brush, BrushId, BrushSource, Contents, WorldBrush};

use super::{BrushFate, BrushRecord, BrushTally, NonSolidReason, face_planes};
use crate::SurfaceFlags;
use crate::map::{FaceFormat, MapBrush, MapFile};

/// The dialect a map's format names: Quake 2 / Quake III face lines or patches mean Quake III,
/// Quake and Valve 220 face lines Quake 1.
pub fn dialect_of(map: &MapFile) -> Dialect {
    let quake3 = map.face_formats.get(FaceFormat::Quake2) > 0
        || map.face_formats.get(FaceFormat::Valve220Quake2) > 0
        || map.patch_count() > 0;
    if quake3 {
        Dialect::Quake3
    } else {
        Dialect::Quake1
    }
}

/// The liquid a face names: Quake 2 / Quake III content bits (lava 8, slime 16, water 32), else a
/// Quake texture beginning with `*`: `*lava...` lava, `*slime...` slime, any other (`*water`,
/// `*04mwat1`, `*teleport`) water, as id's `qbsp` reads them.
pub fn liquid_kind(texture: &str, flags: Option<SurfaceFlags>) -> Option<LiquidKind> {
    if let Some(f) = flags {
        if f.contents & 8 != 0 {
            return Some(LiquidKind::Lava);
        }
        if f.contents & 16 != 0 {
            return Some(LiquidKind::Slime);
        }
        if f.contents & 32 != 0 {
            return Some(LiquidKind::Water);
        }
    }
    let name = texture.strip_prefix('*')?;
    let starts = |p: &str| {
        name.get(..p.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(p))
    };
    Some(if starts("lava") {
        LiquidKind::Lava
    } else if starts("slime") {
        LiquidKind::Slime
    } else {
        LiquidKind::Water
    })
}

/// The strongest liquid among a brush's faces (lava over slime over water: the content bits
/// are OR'ed, and the engines test lava first), each face's from its flags, its shader's
/// `surfaceparm`s when the scripts define it, or its Quake name.
fn brush_liquid(brush: &MapBrush, shaders: Option<&Shaders>) -> LiquidKind {
    brush
        .faces
        .iter()
        .filter_map(|f| {
            let flagged = f.flags.and_then(|flags| liquid_kind("", Some(flags)));
            flagged
                .or_else(|| {
                    shaders
                        .and_then(|s| s.get(&f.texture))
                        .and_then(|s| s.liquid())
                })
                .or_else(|| liquid_kind(&f.texture, f.flags))
        })
        .max()
        .unwrap_or(LiquidKind::Water)
}

/// Builds a brush that does not enter the world (a trigger's, a liquid, an origin brush);
/// `None` when it is not a valid convex volume inside the world.
fn build(brush: &MapBrush) -> Option<Brush> {
    let mut planes = Vec::new();
    face_planes(brush, &mut planes).ok()?;
    let built = Brush::from_planes(&planes).ok()?;
    built.check_domain().ok()?;
    Some(built)
}

/// Collects the entity inputs while the world is built: per brush, what the entity needs of it.
#[derive(Default)]
pub(super) struct Inputs {
    pub(super) inputs: Vec<EntityInput>,
    /// Brushes that should have been built for an entity but are not valid volumes: (entity,
    /// brush index within it).
    pub(super) invalid: Vec<(u32, u32)>,
}

impl Inputs {
    /// Starts the input of entity `index`.
    pub(super) fn begin(&mut self, map: &MapFile, index: usize) {
        let entity = &map.entities[index];
        self.inputs.push(EntityInput {
            index: index as u32,
            line: entity.line,
            properties: entity.properties.clone(),
            brushes: Vec::new(),
            origin_brush: None,
        });
    }

    /// Adds what the current entity needs of brush `b` (`brush`), whose fate is `fate`, given
    /// the world's brushes so far.
    pub(super) fn add(
        &mut self,
        brush: &MapBrush,
        fate: &BrushFate,
        source: &BrushSource,
        world: &[WorldBrush],
        shaders: Option<&Shaders>,
    ) {
        let input = self.inputs.last_mut().expect("begin was called");
        let contents = match fate {
            BrushFate::Solid(id) | BrushFate::Clip(id) => {
                let built = &world[id.0 as usize];
                input.brushes.push(InputBrush {
                    brush: built.brush.clone(),
                    contents: match built.contents {
                        Contents::Solid => InputContents::Solid,
                        Contents::Clip => InputContents::Clip,
                    },
                    source: source.clone(),
                });
                return;
            }
            BrushFate::NonSolid(NonSolidReason::Liquid) => {
                InputContents::Liquid(brush_liquid(brush, shaders))
            }
            // A trigger's volume (and its non-solid shaders).
            BrushFate::NonSolid(NonSolidReason::EntityClass | NonSolidReason::NonSolidTexture) => {
                InputContents::NonSolid
            }
            BrushFate::Dropped(super::DropReason::Origin) => {
                if let Some(built) = build(brush) {
                    input.origin_brush = Some(built.bounds().centre());
                }
                return;
            }
            _ => return,
        };
        // Only triggers need non-solid brushes, and anyone its liquids.
        let class = input.classname().to_ascii_lowercase();
        let wanted = matches!(contents, InputContents::Liquid(_)) || class.starts_with("trigger_");
        if !wanted {
            return;
        }
        match build(brush) {
            Some(built) => input.brushes.push(InputBrush {
                brush: built,
                contents,
                source: source.clone(),
            }),
            None => self.invalid.push((input.index, source.brush)),
        }
    }
}

/// Takes the movers' brushes out of the world (`brushes`), renumbering the others: every
/// record's fate follows (a mover's brush becomes [`BrushFate::Mover`]), as do the tallies.
pub(super) fn remove_movers(
    entities: &Entities,
    brushes: &mut Vec<WorldBrush>,
    records: &mut [BrushRecord],
    tally: &mut BrushTally,
    per_entity: &mut [super::EntityReport],
) {
    let mover_of = |entity: u32| entities.mover_of_entity(entity);
    let mut new_id = vec![None; brushes.len()];
    let mut kept = Vec::with_capacity(brushes.len());
    for (i, b) in std::mem::take(brushes).into_iter().enumerate() {
        if mover_of(b.source.entity).is_none() {
            new_id[i] = Some(BrushId(kept.len() as u32));
            kept.push(b);
        }
    }
    *brushes = kept;
    for record in records.iter_mut() {
        let (BrushFate::Solid(id) | BrushFate::Clip(id)) = record.fate else {
            continue;
        };
        let report = &mut per_entity[record.source.entity as usize].brushes;
        match new_id[id.0 as usize] {
            Some(new) => {
                record.fate = match record.fate {
                    BrushFate::Solid(_) => BrushFate::Solid(new),
                    _ => BrushFate::Clip(new),
                }
            }
            None => {
                for t in [&mut *tally, &mut *report] {
                    match record.fate {
                        BrushFate::Solid(_) => t.solid -= 1,
                        _ => t.clip -= 1,
                    }
                    t.mover += 1;
                }
                record.fate = BrushFate::Mover(
                    mover_of(record.source.entity).expect("a removed brush belongs to a mover"),
                );
            }
        }
    }
}

//! Patches into the world: their solidity, their tessellation into facets, and the report of
//! what became of each.
//!
//! A patch's shader decides as a brush face's texture does ([`face_contents`]), and its entity's
//! class as for brushes ([`class_solidity`](super::class_solidity)): a non-solid shader
//! (`common/nodrawnonsolid`, `*_nonsolid`, ...) or a trigger entity gives no collision. The
//! collidable patches of the whole map are tessellated together
//! ([`cspace_geom::patch::tessellate`], with [`BuildOptions::tessellation`]) so that patches
//! sharing an edge share its vertices, and every facet enters the world as a flat brush
//! ([`Brush::from_polygon`]) after all the map's brushes, in patch order.

use std::fmt;
use std::sync::Arc;

use cspace_geom::patch::{ControlGrid, PatchError, PatchPiece, tessellate};
use cspace_geom::{Brush, BrushId, BrushSource, Contents, WorldBrush};

use super::{BuildOptions, DropReason, NonSolidReason, world_contents};
use super::{ClassSolidity, face_contents_in};
use crate::error::{Location, MapError};
use crate::map::Entity;

/// What became of one patch of the file.
#[derive(Debug, Clone, PartialEq)]
pub enum PatchFate {
    /// In the world: its facets are the brushes `first .. first + facets`, all with `contents`.
    Collidable {
        /// [`Contents::Solid`] or [`Contents::Clip`], from its shader.
        contents: Contents,
        /// The id of its first facet.
        first: BrushId,
        /// How many facets (0 when every cell was degenerate).
        facets: u32,
        /// The largest error bound of its facets, in units (see
        /// [`Facet::error_bound`](cspace_geom::patch::Facet::error_bound)).
        error_bound: f64,
        /// Cells of its tessellation grid left without a facet (no area: collapsed rows or
        /// columns, coincident control points).
        degenerate_cells: usize,
    },
    /// Left out of the world: it does not block agents.
    NonSolid(NonSolidReason),
    /// Dropped: a compiler marker shader.
    Dropped(DropReason),
    /// Skipped: it should block agents but its grid is not a patch (a side even or below 3).
    Invalid {
        /// What is wrong with it.
        error: PatchError,
        /// Where: the size header `( W H 0 0 0 )`.
        at: Location,
    },
}

impl fmt::Display for PatchFate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchFate::Collidable {
                contents,
                facets,
                error_bound,
                degenerate_cells,
                ..
            } => {
                let kind = match contents {
                    Contents::Solid => "solid",
                    Contents::Clip => "clip",
                };
                write!(
                    f,
                    "{kind}, {facets} facets within {error_bound:.3} units \
                     ({degenerate_cells} degenerate cells)"
                )
            }
            PatchFate::NonSolid(NonSolidReason::EntityClass) => f.write_str("non-solid entity"),
            PatchFate::NonSolid(NonSolidReason::UnknownEntityClass) => {
                f.write_str("unknown entity class, taken as non-solid")
            }
            PatchFate::NonSolid(NonSolidReason::Liquid) => f.write_str("liquid"),
            PatchFate::NonSolid(NonSolidReason::NonSolidTexture) => f.write_str("non-solid shader"),
            PatchFate::Dropped(DropReason::Marker) => f.write_str("marker shader, dropped"),
            PatchFate::Dropped(DropReason::Origin) => f.write_str("origin shader, dropped"),
            PatchFate::Invalid { error, .. } => write!(f, "invalid, skipped: {error}"),
        }
    }
}

/// One patch of the file: where it is, its shader and size, and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct PatchRecord {
    /// The file's display name.
    pub file: Arc<str>,
    /// The 1-based line of the patch's opening `{`.
    pub line: u32,
    /// The index of its entity in the file.
    pub entity: u32,
    /// The index of the patch within its entity.
    pub patch: u32,
    /// The shader, as written.
    pub shader: String,
    /// Its size as written: `[rows, columns]` of control points.
    pub size: [usize; 2],
    /// What became of it.
    pub fate: PatchFate,
}

impl fmt::Display for PatchRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = match &self.fate {
            PatchFate::Invalid { at, .. } => at.to_string(),
            _ => format!("{}:{}", self.file, self.line),
        };
        write!(
            f,
            "{at}: entity {} patch {} ({}, {} x {}): {}",
            self.entity, self.patch, self.shader, self.size[0], self.size[1], self.fate
        )
    }
}

/// Patches counted by fate. `total` is the sum of `solid`, `clip`, `non_solid`, `dropped` and
/// `invalid`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PatchTally {
    /// Every patch of the file.
    pub total: usize,
    /// In the world as solid facets.
    pub solid: usize,
    /// In the world as clip facets.
    pub clip: usize,
    /// Non-solid (entity class, shader, liquid).
    pub non_solid: usize,
    /// Dropped marker shaders.
    pub dropped: usize,
    /// Invalid, skipped.
    pub invalid: usize,
    /// Facets in the world, over all patches.
    pub facets: usize,
    /// Degenerate cells, over all patches.
    pub degenerate_cells: usize,
    /// The largest error bound of any facet, in units (0 without facets).
    pub error_bound: f64,
}

/// A patch waiting for tessellation: its record's index, its grid and its contents.
struct Pending {
    record: usize,
    grid: ControlGrid,
    contents: Contents,
    entity: u32,
    patch: u32,
    line: u32,
    /// Where its size header `( W H 0 0 0 )` is.
    size_at: [u32; 2],
}

/// A record whose fate waits for the tessellation when it is collidable.
struct Draft {
    record: PatchRecord,
    fate: Option<PatchFate>,
}

/// The patches of a map: decided one by one, then tessellated together.
#[derive(Default)]
pub(super) struct PatchBuilder {
    drafts: Vec<Draft>,
    pending: Vec<Pending>,
}

impl PatchBuilder {
    /// Decides what becomes of the patches of one entity (tessellation waits for
    /// [`PatchBuilder::finish`]).
    pub fn add_entity(
        &mut self,
        file: &Arc<str>,
        entity: &Entity,
        index: u32,
        solidity: ClassSolidity,
        options: &BuildOptions,
    ) {
        for (p, patch) in entity.patches.iter().enumerate() {
            let record = self.drafts.len();
            let fate = match world_contents(
                face_contents_in(&patch.texture, None, options.shaders.as_deref()),
                solidity,
                options,
            ) {
                Err(super::BrushFate::NonSolid(reason)) => Some(PatchFate::NonSolid(reason)),
                Err(super::BrushFate::Dropped(reason)) => Some(PatchFate::Dropped(reason)),
                Err(_) => unreachable!("world_contents only refuses as non-solid or dropped"),
                Ok(contents) => match patch.control_grid() {
                    Ok(grid) => {
                        self.pending.push(Pending {
                            record,
                            grid,
                            contents,
                            entity: index,
                            patch: p as u32,
                            line: patch.line,
                            size_at: patch.size_at,
                        });
                        None
                    }
                    Err(error) => Some(PatchFate::Invalid {
                        error,
                        at: Location {
                            file: file.clone(),
                            line: patch.size_at[0],
                            column: patch.size_at[1],
                        },
                    }),
                },
            };
            self.drafts.push(Draft {
                record: PatchRecord {
                    file: file.clone(),
                    line: patch.line,
                    entity: index,
                    patch: p as u32,
                    shader: patch.texture.clone(),
                    size: [patch.width, patch.height],
                    fate: PatchFate::Dropped(DropReason::Marker),
                },
                fate,
            });
        }
    }

    /// Tessellates the collidable patches together and appends their facets to `brushes`;
    /// returns the records, their tally and the pieces the facets come from. Patches that would
    /// make more facets than the budget ([`MapError::PatchBudget`]) are refused before any is
    /// made, at the size header of the patch with the most cells.
    pub fn finish(
        self,
        file: &Arc<str>,
        brushes: &mut Vec<WorldBrush>,
        options: &BuildOptions,
    ) -> Result<(Vec<PatchRecord>, PatchTally, Vec<PatchPiece>), MapError> {
        let PatchBuilder {
            mut drafts,
            pending,
        } = self;
        let grids: Vec<ControlGrid> = pending.iter().map(|p| p.grid.clone()).collect();
        let tessellations = tessellate(&grids, &options.tessellation).map_err(|over| {
            let worst = &pending[over.patch];
            MapError::PatchBudget {
                at: Location {
                    file: file.clone(),
                    line: worst.size_at[0],
                    column: worst.size_at[1],
                },
                facets: over.facets,
                bound: options.tessellation.max_error().to_string(),
                limit: over.limit,
            }
        })?;
        let mut pieces = Vec::new();
        for (pending, tessellation) in pending.iter().zip(tessellations) {
            let first = BrushId(brushes.len() as u32);
            let mut degenerate_cells = tessellation.degenerate_cells;
            let mut facets = 0u32;
            let mut error_bound: f64 = 0.0;
            let mut made = Vec::with_capacity(tessellation.facets.len());
            for facet in &tessellation.facets {
                // The tessellation only makes facets `from_polygon` takes; should one still be
                // refused, it is counted as degenerate rather than lost silently.
                let Ok(brush) = Brush::from_polygon(&facet.vertices) else {
                    degenerate_cells += 1;
                    continue;
                };
                made.push((BrushId(brushes.len() as u32), facet));
                brushes.push(WorldBrush {
                    brush,
                    contents: pending.contents,
                    source: BrushSource {
                        file: Some(file.clone()),
                        line: pending.line,
                        entity: pending.entity,
                        brush: pending.patch,
                        facet: Some(facets),
                    },
                });
                facets += 1;
                error_bound = error_bound.max(facet.error_bound);
            }
            pieces.extend(PatchPiece::of_patch(&pending.grid, made));
            drafts[pending.record].fate = Some(PatchFate::Collidable {
                contents: pending.contents,
                first,
                facets,
                error_bound,
                degenerate_cells,
            });
        }
        let records: Vec<PatchRecord> = drafts
            .into_iter()
            .map(|draft| PatchRecord {
                fate: draft
                    .fate
                    .expect("every collidable patch was tessellated above"),
                ..draft.record
            })
            .collect();
        let mut tally = PatchTally::default();
        for record in &records {
            tally.total += 1;
            match &record.fate {
                PatchFate::Collidable {
                    contents,
                    facets,
                    error_bound,
                    degenerate_cells,
                    ..
                } => {
                    match contents {
                        Contents::Solid => tally.solid += 1,
                        Contents::Clip => tally.clip += 1,
                    }
                    tally.facets += *facets as usize;
                    tally.degenerate_cells += degenerate_cells;
                    tally.error_bound = tally.error_bound.max(*error_bound);
                }
                PatchFate::NonSolid(_) => tally.non_solid += 1,
                PatchFate::Dropped(_) => tally.dropped += 1,
                PatchFate::Invalid { .. } => tally.invalid += 1,
            }
        }
        Ok((records, tally, pieces))
    }
}

/// The control grids of the patches of `map` that collide in `built` (its
/// [`build_world`](super::build_world)), in the order they were tessellated: what
/// [`tessellate`] was given, for measuring or re-tessellating them.
pub fn collidable_patch_grids(map: &crate::MapFile, built: &super::MapWorld) -> Vec<ControlGrid> {
    built
        .patch_records
        .iter()
        .filter(|r| matches!(r.fate, PatchFate::Collidable { .. }))
        .filter_map(|r| {
            map.entities
                .get(r.entity as usize)?
                .patches
                .get(r.patch as usize)?
                .control_grid()
                .ok()
        })
        .collect()
}

//! One mover's view of the world during its move: the backend for brushes, and the other agents
//! (behind Blow's filter stack) with their exact shapes.

use cspace_contact::filter::Sweep;
use cspace_contact::{Contact, ContactTarget, FilterStack, Slot};
use cspace_geom::collider::{lerp, skin_fraction};
use cspace_geom::{Aabb, Collider, DVec3, QueryContext};

use super::liquids::{self, Liquids};
use crate::agent::{AgentId, Pose, PoseSet};
use crate::movement::{MoveHit, Surroundings};
use crate::movers::Scene;
use crate::params::WaterParams;

/// Traces for one mover.
pub(crate) struct Tracer<'a> {
    pub collider: &'a dyn Collider,
    pub queries: &'a mut QueryContext,
    /// The other agents of the mover's interaction group, by their index in the group; `None`
    /// when it moves alone (no agent can reach it this step).
    pub filters: Option<&'a mut FilterStack>,
    /// The mover's slot in its group's filter stack (its index in the group).
    pub me: Slot,
    /// The agent ids of the group, by index (ascending).
    pub ids: &'a [AgentId],
    pub poses: &'a PoseSet,
    pub step: u64,
    pub candidates: &'a mut Vec<Slot>,
    pub traces: &'a mut u64,
    /// The living world's liquids, if it has any.
    pub liquids: Option<&'a Liquids>,
    /// In a living world, a box around the mover's reach that meets no mover's place: moves
    /// within it ask the static world alone ([`Scene::trace_in_quiet`]).
    pub quiet: Option<Aabb>,
    /// In a world with liquids, a box around the mover's reach that no liquid brush's bounds
    /// meet ([`Liquids::is_dry`]): a point in it is in no liquid, without the look-up.
    pub dry: Option<Aabb>,
    /// The living world's scene (the static world and the movers where they stand), which
    /// `collider` answers for: the water jump's solid tests look at its movers too.
    pub scene: Option<&'a Scene>,
}

impl Surroundings for Tracer<'_> {
    fn poses(&self) -> &PoseSet {
        self.poses
    }

    fn water(&self) -> Option<&WaterParams> {
        self.liquids.map(Liquids::params)
    }

    fn liquid(&mut self, point: DVec3) -> Option<cspace_entities::LiquidKind> {
        if self.dry.is_some_and(|d| d.contains_point(point)) {
            return None;
        }
        self.liquids.and_then(|l| l.contents(point))
    }

    fn solid(&mut self, point: DVec3) -> Option<bool> {
        match self.scene {
            Some(scene) => liquids::solid_in_scene(scene, point),
            None => liquids::solid_at(self.collider.world(), point),
        }
    }

    fn line(&mut self, start: DVec3, end: DVec3) -> Option<DVec3> {
        match self.scene {
            Some(scene) => liquids::line_hit_in_scene(scene, start, end),
            None => liquids::line_hit(self.collider.world(), start, end),
        }
    }

    /// Sweeps the mover in `pose` from `start` to `end`.
    fn trace(&mut self, pose: Pose, start: DVec3, end: DVec3) -> MoveHit {
        *self.traces += 1;
        let prepared = self.poses.traced(pose);
        let hit = match (self.scene, &self.quiet) {
            (Some(scene), Some(quiet)) => {
                scene.trace_in_quiet(self.queries, prepared, start, end, quiet)
            }
            _ => self.collider.trace(self.queries, prepared, start, end),
        };
        let mut best = MoveHit::of_world(&hit, self.step, self.ids[self.me.0 as usize]);
        let mut best_time = hit.surface().map_or(f64::INFINITY, |s| s.time_of_impact);
        if hit.all_solid() {
            return best;
        }
        let Some(filters) = self.filters.as_deref_mut() else {
            return best;
        };
        let shape = prepared.shape();
        let motion = end - start;
        let swept = prepared.swept_bounds(start, end);
        filters.candidates(self.me, &swept, self.candidates);
        if self.candidates.is_empty() {
            return best;
        }
        let sweep = Sweep::new(shape, start, motion);
        filters.cull(&sweep, self.candidates);
        for &id in self.candidates.iter() {
            let impact = filters
                .test_close(&sweep, id)
                .expect("agent shapes are checked when the simulation is built");
            let Some(impact) = impact else { continue };
            // Agents overlapping at the start may separate; moving deeper is blocked at once.
            if impact.depth > 0.0 && motion.dot(impact.normal) >= 0.0 {
                continue;
            }
            if impact.time >= best_time {
                continue;
            }
            // The configuration-space plane through the contact, as for world hits.
            let contact_origin = start + motion * impact.time;
            let d_start = impact.normal.dot(start - contact_origin);
            let d_end = impact.normal.dot(end - contact_origin);
            let fraction = if impact.depth > 0.0 {
                0.0
            } else {
                skin_fraction(d_start, d_end, prepared.skin()).min(impact.time)
            };
            best_time = impact.time;
            best = MoveHit {
                fraction,
                end: lerp(start, end, fraction),
                normal: Some(impact.normal),
                start_solid: hit.start_solid(),
                all_solid: false,
                contact: Some(Contact {
                    step: self.step,
                    agent: self.ids[self.me.0 as usize],
                    other: ContactTarget::Agent(self.ids[id.0 as usize]),
                    point: impact.point,
                    normal: impact.normal,
                    time_of_impact: impact.time,
                    depth: impact.depth,
                }),
            };
        }
        best
    }

    /// True when the mover in `pose` at `position` overlaps neither solid nor another agent.
    fn is_free(&mut self, pose: Pose, position: DVec3) -> bool {
        let prepared = self.poses.get(pose);
        let solid = match (self.scene, &self.quiet) {
            (Some(scene), Some(quiet)) => {
                scene.is_solid_in_quiet(self.queries, prepared, position, quiet)
            }
            _ => self.collider.is_solid(self.queries, prepared, position),
        };
        if solid {
            return false;
        }
        let Some(filters) = self.filters.as_deref_mut() else {
            return true;
        };
        let shape = prepared.shape();
        let bounds = shape.bounds().translated(position);
        filters.candidates(self.me, &bounds, self.candidates);
        let mut free = true;
        for &id in self.candidates.iter() {
            let other = filters.body(id);
            let overlap = cspace_contact::time_of_impact(
                shape,
                position,
                DVec3::ZERO,
                other.shape(),
                other.position(),
                DVec3::ZERO,
            )
            .expect("agent shapes are checked when the simulation is built");
            if overlap.is_some() {
                free = false;
                break;
            }
        }
        free
    }
}

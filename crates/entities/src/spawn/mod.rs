//! From a map's entities to typed values: the games' spawn functions.

mod keys;
mod movers;
mod teams;
mod triggers;

use cspace_geom::Aabb;

use crate::defs::{Entities, Kept, KeptReason, Liquid, Spot};
use crate::dialect::Dialect;
use crate::input::{EntityInput, InputContents};
use crate::rules;
use crate::warning::EntityWarning;
use keys::Keys;

/// Reads `inputs` (a map's entities, in file order) with `dialect`'s rules.
///
/// In order: named points ([`Spot`]: teleport destinations, path corners, targets), the liquids
/// of the world model (a liquid brush elsewhere is reported and ignored: Quake reads liquids only
/// in the world model), movers and the brush entities kept where drawn, the triggers and relays
/// written in the file, then the teams of linked doors and the fields generated for door teams,
/// plats and buttons; last, every `target` is checked against the names it may fire.
///
/// Nothing here panics on any input: a key that is not a number is reported and its default
/// used, a `target` naming nothing is reported (firing it does nothing), a broken `path_corner`
/// chain ends the train's path where it breaks (the train stops at the last corner found), a
/// train with no corner at all stays where drawn, and a teleporter without a destination does
/// nothing.
pub fn spawn(inputs: &[EntityInput], dialect: Dialect) -> Entities {
    let mut s = Spawner {
        dialect,
        out: Entities::empty(dialect),
    };
    for input in inputs {
        s.spot(input);
    }
    for input in inputs {
        s.liquids(input);
    }
    for input in inputs {
        s.brush_entity(input, inputs);
    }
    for input in inputs {
        triggers::written(&mut s, input);
    }
    triggers::random_choices(&mut s, inputs);
    teams::link(&mut s);
    teams::fields(&mut s);
    triggers::check_targets(&mut s, inputs);
    s.out
}

/// The spawner's state: the dialect and what it made so far.
pub(crate) struct Spawner {
    pub(crate) dialect: Dialect,
    pub(crate) out: Entities,
}

impl Spawner {
    /// Reports `message` about `input`.
    pub(crate) fn warn(&mut self, input: &EntityInput, message: impl Into<String>) {
        self.out.warnings.push(EntityWarning {
            entity: input.index,
            line: input.line,
            classname: input.classname().to_string(),
            message: message.into(),
        });
    }

    /// Keeps a point entity with an `origin` and a `targetname` (or a path corner) as a named
    /// point.
    fn spot(&mut self, input: &EntityInput) {
        if !input.brushes.is_empty() {
            return;
        }
        let class = input.classname();
        let mut k = Keys::new(self, input);
        let targetname = k.string("targetname");
        let corner = class.eq_ignore_ascii_case("path_corner");
        if targetname.is_none() {
            if corner {
                k.warn("path_corner without a targetname: no train can reach it");
            }
            return;
        }
        let Some(origin) = k.origin() else {
            if is_destination_class(class) {
                k.warn("destination without a usable origin: nothing can go to it");
            }
            return;
        };
        let angles = k.angles();
        let wait = k.float("wait", 0.0);
        let speed = k.float("speed", 0.0);
        let target = k.string("target");
        self.out.spots.push(Spot {
            entity: input.index,
            line: input.line,
            classname: class.to_string(),
            targetname,
            target,
            origin,
            yaw: angles.y,
            pitch: angles.x,
            wait,
            speed,
        });
    }

    /// The liquid brushes of the world model; a liquid elsewhere is reported and ignored.
    fn liquids(&mut self, input: &EntityInput) {
        let world_model = is_world_model(input.classname(), input.index);
        let mut ignored = 0;
        for b in &input.brushes {
            let InputContents::Liquid(kind) = b.contents else {
                continue;
            };
            if world_model {
                self.out.liquids.push(Liquid {
                    kind,
                    brush: b.brush.clone(),
                    source: b.source.clone(),
                });
            } else {
                ignored += 1;
            }
        }
        if ignored > 0 {
            self.warn(
                input,
                format!(
                    "{ignored} liquid brush(es) inside a brush entity: Quake reads liquids only in \
                     the world model; ignored (neither liquid nor solid)"
                ),
            );
        }
    }

    /// Movers, and brush entities kept where drawn.
    fn brush_entity(&mut self, input: &EntityInput, all: &[EntityInput]) {
        let class = input.classname();
        let is = |names: &[&str]| names.iter().any(|n| n.eq_ignore_ascii_case(class));
        if is(&rules::MOVER_CLASSES) {
            // A train without a solid brush still runs its path (librequake's e3m4 has one made
            // of a `skip` brush); any other mover without one has nothing to move.
            if input.solid_bounds().is_empty() && !class.eq_ignore_ascii_case("func_train") {
                self.warn(
                    input,
                    "mover without a solid brush: nothing to move; ignored",
                );
                return;
            }
            movers::spawn_mover(self, input, all);
        } else if is(&rules::ROTATING_CLASSES) {
            if !input.solid_bounds().is_empty() {
                self.warn(
                    input,
                    "rotating movers are not simulated: kept solid where the file draws it",
                );
                self.keep(input, KeptReason::Rotating);
            }
        } else if is(&rules::UNSIMULATED_CLASSES) {
            if !input.solid_bounds().is_empty() {
                self.warn(
                    input,
                    "movers on a sine are not simulated: kept solid where the file draws it",
                );
                self.keep(input, KeptReason::NotSimulated);
            }
        } else if !is_world_model(class, input.index) && !input.solid_bounds().is_empty() {
            self.keep(input, KeptReason::Static);
        }
    }

    /// Lists `input` as kept where drawn.
    pub(crate) fn keep(&mut self, input: &EntityInput, reason: KeptReason) {
        self.out.kept.push(Kept {
            entity: input.index,
            line: input.line,
            classname: input.classname().to_string(),
            reason,
        });
    }
}

/// The classes whose brushes the compilers merge into the world model: `worldspawn` (or the
/// first entity, whatever it says), `func_group` and ericw-tools' `func_detail*` (and Quake III's
/// `func_group`, merged by `q3map`).
pub(crate) fn is_world_model(classname: &str, index: u32) -> bool {
    index == 0
        || ["worldspawn", "func_group"]
            .iter()
            .any(|c| c.eq_ignore_ascii_case(classname))
        || classname
            .get(..11)
            .is_some_and(|p| p.eq_ignore_ascii_case("func_detail"))
            && !classname.eq_ignore_ascii_case("func_detail_illusionary")
}

/// The classes that are only places to go: path corners, teleport destinations, jump pad
/// targets.
fn is_destination_class(class: &str) -> bool {
    [
        "path_corner",
        "info_teleport_destination",
        "misc_teleporter_dest",
        "target_position",
    ]
    .iter()
    .any(|c| c.eq_ignore_ascii_case(class))
}

/// The union of boxes.
pub(crate) fn union(boxes: impl IntoIterator<Item = Aabb>) -> Aabb {
    boxes.into_iter().fold(Aabb::EMPTY, Aabb::merged)
}

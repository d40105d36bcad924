//! Linked doors and the fields the games generate: door teams' fields, plat fields, button
//! surfaces.

use cspace_geom::{Aabb, DVec3};

use super::{Spawner, union};
use crate::defs::{Activation, Motion, MoverKind, Trigger, TriggerKind};
use crate::dialect::Dialect;
use crate::rules;

/// Links doors into teams. Quake 1 (`LinkDoors`, `doors.qc`): from each door not yet linked, in
/// entity order, the chain takes every later door whose bounds touch the last door taken
/// (`EntitiesTouching`, faces touching included), unless a door has `DOOR_DONT_LINK` (4); the
/// team's name and health are any member's. Quake III (`G_FindTeams`, `g_utils.c`): movers with
/// the same `team` key, the first one the master.
pub(super) fn link(s: &mut Spawner) {
    let n = s.out.movers.len();
    match s.dialect {
        Dialect::Quake1 => {
            let linked_doors = |s: &Spawner, i: usize| {
                let m = &s.out.movers[i];
                m.kind == MoverKind::Door && m.classname.eq_ignore_ascii_case("func_door")
            };
            let mut linked = vec![false; n];
            for i in 0..n {
                if linked[i] || !linked_doors(s, i) || dont_link(s, i) {
                    continue;
                }
                linked[i] = true;
                let mut last = i;
                for (t, done) in linked.iter_mut().enumerate().skip(i + 1) {
                    if *done || !linked_doors(s, t) || dont_link(s, t) {
                        continue;
                    }
                    if touching(&s.out.movers[last].bounds, &s.out.movers[t].bounds) {
                        *done = true;
                        s.out.movers[t].team = i;
                        last = t;
                    }
                }
            }
            // The master takes a member's targetname (and so is fired by it, with no field).
            for i in 0..n {
                let team = s.out.movers[i].team;
                if team != i && s.out.movers[i].targetname.is_some() {
                    let name = s.out.movers[i].targetname.clone();
                    let master = &mut s.out.movers[team];
                    master.targetname = name;
                    if master.activation == Activation::Field {
                        master.activation = Activation::Fired;
                    }
                }
                if team != i && s.out.movers[i].activation == Activation::Never {
                    s.out.movers[team].activation = Activation::Never;
                }
            }
        }
        Dialect::Quake3 => {
            let teams: Vec<Option<String>> =
                s.out.movers.iter().map(|m| m.team_key.clone()).collect();
            for i in 0..n {
                let Some(name) = &teams[i] else { continue };
                if let Some(master) = (0..i).find(|&j| teams[j].as_deref() == Some(name.as_str())) {
                    s.out.movers[i].team = s.out.movers[master].team;
                }
            }
        }
    }
    // Every member follows its master's activation.
    for i in 0..n {
        let team = s.out.movers[i].team;
        if team != i {
            s.out.movers[i].activation = s.out.movers[team].activation;
        }
    }
}

/// Quake 1's `DOOR_DONT_LINK` spawnflag.
fn dont_link(s: &Spawner, i: usize) -> bool {
    s.out.movers[i].flags & 4 != 0
}

/// Quake 1's `EntitiesTouching`: the boxes overlap or touch.
fn touching(a: &Aabb, b: &Aabb) -> bool {
    a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
}

/// The fields the games spawn: one per door team opened by approach, one per plat that rests
/// lowered (or any plat, in Quake 1), and a touch surface per button.
pub(super) fn fields(s: &mut Spawner) {
    for i in 0..s.out.movers.len() {
        let m = &s.out.movers[i];
        let (entity, line) = (m.entity, m.line);
        let made = match m.kind {
            MoverKind::Door if m.team == i && m.activation == Activation::Field => {
                Some((door_field(s, i), TriggerKind::DoorField { mover: i }, None))
            }
            MoverKind::Plat => {
                plat_field(s, i).map(|b| (b, TriggerKind::PlatField { mover: i }, None))
            }
            MoverKind::Button if m.activation == Activation::Touch => {
                Some((m.bounds, TriggerKind::ButtonTouch { mover: i }, Some(i)))
            }
            _ => None,
        };
        let Some((bounds, kind, follows)) = made else {
            continue;
        };
        let classname = match kind {
            TriggerKind::DoorField { .. } => "door field",
            TriggerKind::PlatField { .. } => "plat field",
            _ => "button",
        };
        s.out.triggers.push(Trigger {
            apexes: Vec::new(),
            entity,
            line,
            classname: classname.to_string(),
            bounds,
            brushes: Vec::new(),
            kind,
            targetname: None,
            follows,
        });
    }
}

/// A door team's field: Quake 1 grows the union of the members' drawn bounds by 60, 60, 8
/// (`spawn_field`); Quake III grows the union of their bounds where they spawn (each grown by 1,
/// `SV_LinkEntity`'s `absmin`/`absmax`) by 120 along the thinnest axis
/// (`Think_SpawnNewDoorTrigger`).
fn door_field(s: &Spawner, master: usize) -> Aabb {
    let members = s.out.movers.iter().filter(|m| m.team == master);
    match s.dialect {
        Dialect::Quake1 => {
            let b = union(members.map(|m| m.bounds));
            Aabb::new(
                b.min - rules::QUAKE1_DOOR_FIELD,
                b.max + rules::QUAKE1_DOOR_FIELD,
            )
        }
        Dialect::Quake3 => {
            let b = union(members.map(|m| m.spawn_bounds().loosened(1.0)));
            let size = b.size();
            let mut best = 0;
            for axis in 1..3 {
                if size[axis] < size[best] {
                    best = axis;
                }
            }
            let mut grow = DVec3::ZERO;
            grow[best] = rules::QUAKE3_DOOR_FIELD;
            Aabb::new(b.min - grow, b.max + grow)
        }
    }
}

/// A plat's field. Quake 1 (`plat_spawn_inside_trigger`) builds it for every plat from the plat
/// drawn at the top: inset 25 on x and y, from 8 above the top down by the travel and 8 more
/// (`PLAT_LOW_TRIGGER`: only the lowest 8 units), a side of 50 or less a 1-unit slab at its
/// middle. Quake III (`SpawnPlatTrigger`) only for a plat without a `targetname`, around the
/// lowered plat: inset 33, from its bottom to 8 above its top, a side with no room a 1-unit slab.
fn plat_field(s: &Spawner, i: usize) -> Option<Aabb> {
    let m = &s.out.movers[i];
    let Motion::Binary(b) = &m.motion else {
        return None;
    };
    let (mins, maxs) = (m.bounds.min, m.bounds.max);
    match s.dialect {
        Dialect::Quake1 => {
            let inset = DVec3::new(rules::QUAKE1_PLAT_INSET, rules::QUAKE1_PLAT_INSET, 0.0);
            let mut lo = mins + inset;
            let mut hi = maxs - inset + DVec3::new(0.0, 0.0, rules::PLAT_FIELD_ABOVE);
            // pos1 (the top) minus pos2 (the bottom), in QuakeC's terms.
            let travel = b.pos2.z - b.pos1.z;
            lo.z = hi.z - (travel + rules::PLAT_FIELD_ABOVE);
            if m.flags & super::movers::Q1_PLAT_LOW_TRIGGER != 0 {
                hi.z = lo.z + rules::PLAT_FIELD_ABOVE;
            }
            let size = m.bounds.size();
            for axis in 0..2 {
                if size[axis] <= rules::QUAKE1_PLAT_NARROW {
                    lo[axis] = (mins[axis] + maxs[axis]) / 2.0;
                    hi[axis] = lo[axis] + 1.0;
                }
            }
            Some(Aabb::new(lo, hi))
        }
        Dialect::Quake3 => {
            if m.targetname.is_some() {
                return None;
            }
            let inset = DVec3::new(rules::QUAKE3_PLAT_INSET, rules::QUAKE3_PLAT_INSET, 0.0);
            let at = b.pos1;
            let mut lo = at + mins + inset;
            let mut hi = at + maxs - inset + DVec3::new(0.0, 0.0, rules::PLAT_FIELD_ABOVE);
            for axis in 0..2 {
                if hi[axis] <= lo[axis] {
                    lo[axis] = at[axis] + (mins[axis] + maxs[axis]) * 0.5;
                    hi[axis] = lo[axis] + 1.0;
                }
            }
            Some(Aabb::new(lo, hi))
        }
    }
}

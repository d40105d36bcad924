//! The triggers and relays written in the file (`triggers.qc`, `g_trigger.c`, `g_target.c`), and
//! the check of every `target`.

use std::collections::BTreeSet;

use cspace_geom::DVec3;

use super::Spawner;
use super::keys::Keys;
use crate::defs::{Firing, Push, Relay, RelayKind, TargetPush, Trigger, TriggerKind};
use crate::dialect::Dialect;
use crate::input::{EntityInput, movedir, movedir_of_angles};
use crate::rules;

/// Quake 1 `trigger_multiple`'s `SPAWNFLAG_NOTOUCH` and `trigger_push`'s `PUSH_ONCE`.
const Q1_NOTOUCH: u32 = 1;
const Q1_PUSH_ONCE: u32 = 1;
/// Quake III `trigger_teleport`'s `SPECTATOR` flag.
const Q3_SPECTATOR: u32 = 1;
/// Quake III `trigger_hurt`'s `START_OFF` and `SLOW` flags (`SP_trigger_hurt`, `hurt_touch`).
const Q3_HURT_START_OFF: u32 = 1;
const Q3_HURT_SLOW: u32 = 16;
/// Quake III `target_push`'s `bouncepad` flag.
const Q3_BOUNCEPAD: u32 = 1;
/// Quake III `target_relay`'s flags (`g_target.c`): `RED_ONLY`, `BLUE_ONLY`, `RANDOM`.
const Q3_RED_ONLY: u32 = 1;
const Q3_BLUE_ONLY: u32 = 2;
const Q3_RANDOM: u32 = 4;

/// The trigger or relay `input` is, if it is one.
pub(super) fn written(s: &mut Spawner, input: &EntityInput) {
    let class = input.classname().to_ascii_lowercase();
    let relay = match class.as_str() {
        "trigger_relay" | "target_relay" | "target_delay" => Some(RelayKind::Relay),
        "trigger_always" => Some(RelayKind::Relay),
        "trigger_counter" => None,
        "target_push" => {
            target_push(s, input);
            return;
        }
        _ => {
            if class.starts_with("trigger_") {
                volume(s, input, &class);
            }
            return;
        }
    };
    let dialect = s.dialect;
    let mut k = Keys::new(s, input);
    if class == "trigger_always" && dialect == Dialect::Quake1 {
        // Quake 1 has no trigger_always: the engine frees an entity without a spawn function.
        k.warn("trigger_always is not a Quake 1 class: removed, as Quake 1 does");
        return;
    }
    let kind = match relay {
        Some(kind) => kind,
        None => RelayKind::Counter {
            count: count(&mut k),
        },
    };
    // Quake III's target_delay waits its `delay` ("check delay for backwards compatibility")
    // or else its `wait` (1), a 0 being 1 (SP_target_delay); trigger_always 300 ms; the others
    // their `delay` (Quake 1 only: Keys::delay).
    let delay = match class.as_str() {
        "target_delay" => match k.number("delay") {
            Some(delay) if delay != 0.0 => delay,
            Some(_) => 1.0,
            None => k.float("wait", 1.0),
        },
        "trigger_always" => rules::QUAKE3_ALWAYS_DELAY,
        _ => k.delay(),
    }
    .max(0.0);
    // Use_Target_Delay: `nextthink = level.time + (wait + random * crandom()) * 1000`.
    let random = if class == "target_delay" {
        k.float_or("random", 0.0)
    } else {
        0.0
    };
    let flags = k.flags();
    let mut target = k.string("target");
    let mut killtarget = k.killtarget();
    let mut pick_one = false;
    if class == "target_relay" && dialect == Dialect::Quake3 {
        if flags & (Q3_RED_ONLY | Q3_BLUE_ONLY) != 0 {
            // target_relay_use returns when the activator is a client of another team.
            k.warn("team-only target_relay (spawnflags 1 or 2): agents are on no team; it never passes a firing on");
            target = None;
            killtarget = None;
        } else if flags & Q3_RANDOM != 0 {
            // target_relay_use: G_PickTarget, one entity at random ([`random_choices`]).
            pick_one = true;
        }
    }
    let relay = Relay {
        entity: input.index,
        line: input.line,
        classname: input.classname().to_string(),
        kind,
        targetname: k.string("targetname"),
        target,
        killtarget,
        delay,
        at_start: class == "trigger_always",
        pick_one,
        choices: Vec::new(),
        single_think: class == "target_delay",
        random,
    };
    s.out.relays.push(relay);
}

/// A `trigger_counter`'s `count` (`trigger_counter`, `triggers.qc`): 0 or absent is 2; QuakeC's
/// `counter_use` passes the firing that makes it exactly 0 on, so a negative or fractional count
/// never does (reported; read as 0, never).
fn count(k: &mut Keys) -> u32 {
    let count = k.float("count", f64::from(rules::COUNTER_COUNT));
    if count >= 1.0 && count == count.trunc() {
        count.min(f64::from(u32::MAX)) as u32
    } else {
        k.warn(format!(
            "count {count} is not a whole number from 1: the counter never fires"
        ));
        0
    }
}

/// A `trigger_*` entity with a volume.
fn volume(s: &mut Spawner, input: &EntityInput, class: &str) {
    let bounds = input.all_bounds();
    if bounds.is_empty() {
        s.warn(input, "trigger without a brush: it has no volume; ignored");
        return;
    }
    let dialect = s.dialect;
    let mut k = Keys::new(s, input);
    let flags = k.flags();
    let targetname = k.string("targetname");
    let mut apexes = Vec::new();
    let kind = match class {
        "trigger_once" | "trigger_multiple" | "trigger_secret" => {
            let once = class != "trigger_multiple";
            let wait = if once {
                -1.0
            } else {
                match dialect {
                    Dialect::Quake1 => k.float("wait", rules::multiple_wait(dialect)),
                    Dialect::Quake3 => k.float_or("wait", rules::multiple_wait(dialect)),
                }
            };
            // SP_trigger_multiple: "random >= wait" becomes wait - FRAMETIME (in ms), as written.
            let mut random = 0.0;
            if dialect == Dialect::Quake3 && !once {
                random = k.float_or("random", 0.0);
                if random >= wait && wait >= 0.0 {
                    random = wait - rules::QUAKE3_RANDOM_CLAMP;
                    k.warn(format!(
                        "random is not below wait: Quake III makes it wait - 100 ({random}), \
                         each wait then spans wait {wait} +- {}",
                        random.abs()
                    ));
                }
            }
            let health = k.float("health", 0.0) != 0.0;
            let touchable = match dialect {
                Dialect::Quake1 => flags & Q1_NOTOUCH == 0 && !health,
                Dialect::Quake3 => true,
            };
            if health {
                k.warn("shootable trigger (health): agents cannot shoot; only a fired target sets it off");
            }
            // InitTrigger: `if (self.angles != '0 0 0') SetMovedir ();`, read by multi_touch.
            let angles = k.angles();
            let facing = (dialect == Dialect::Quake1 && angles != DVec3::ZERO)
                .then(|| movedir_of_angles(angles));
            TriggerKind::Fire {
                target: k.string("target"),
                killtarget: k.killtarget(),
                wait,
                random,
                delay: k.delay(),
                touchable,
                facing,
            }
        }
        "trigger_teleport" => teleport(&mut k, dialect, flags, targetname.is_some()),
        "trigger_push" => match push(&mut k, dialect, flags, bounds.centre()) {
            Some((push, aimed)) => {
                apexes = aimed;
                TriggerKind::Push(push)
            }
            None => return,
        },
        // SP_trigger_hurt's START_OFF and SLOW (Quake III); Quake 1's hurt reads no flags.
        "trigger_hurt" => TriggerKind::Hurt {
            damage: k.float("dmg", rules::HURT_DAMAGE),
            slow: dialect == Dialect::Quake3 && flags & Q3_HURT_SLOW != 0,
            start_off: dialect == Dialect::Quake3 && flags & Q3_HURT_START_OFF != 0,
        },
        _ => TriggerKind::Other,
    };
    let brushes = input.brushes.iter().map(|b| b.brush.clone()).collect();
    s.out.triggers.push(Trigger {
        entity: input.index,
        line: input.line,
        classname: input.classname().to_string(),
        bounds,
        brushes,
        kind,
        targetname,
        follows: None,
        apexes,
    });
}

/// `trigger_teleport`: its destinations are the named points its `target` names (Quake 1 takes
/// the first, `find`; Quake III picks among all, `G_PickTarget`).
fn teleport(k: &mut Keys, dialect: Dialect, flags: u32, named: bool) -> TriggerKind {
    let Some(target) = k.string("target") else {
        k.warn("teleporter without a target: it does nothing");
        return TriggerKind::Teleport {
            destinations: Vec::new(),
            needs_firing: false,
            fires: None,
        };
    };
    let mut destinations: Vec<usize> = k
        .spawner
        .out
        .spots
        .iter()
        .enumerate()
        .filter(|(_, spot)| spot.targetname.as_deref() == Some(target.as_str()))
        .map(|(i, _)| i)
        .collect();
    // find takes the first; G_PickTarget among the first MAXCHOICES.
    destinations.truncate(match dialect {
        Dialect::Quake1 => 1,
        Dialect::Quake3 => rules::PICK_CHOICES,
    });
    if destinations.is_empty() {
        k.warn(format!(
            "teleporter target {target:?} names no destination: it does nothing"
        ));
    }
    if dialect == Dialect::Quake3 && flags & Q3_SPECTATOR != 0 {
        k.warn("spectator-only teleporter: agents are not spectators; it does nothing");
        destinations.clear();
    }
    // teleport_touch's SUB_UseTargets (Quake 1; Quake III's trigger_teleporter_touch fires
    // nothing). Without a destination id's code stops at `objerror`: it does nothing here.
    let fires = (dialect == Dialect::Quake1 && !destinations.is_empty()).then(|| Firing {
        target: Some(target),
        killtarget: k.killtarget(),
        delay: k.delay(),
    });
    TriggerKind::Teleport {
        destinations,
        needs_firing: dialect == Dialect::Quake1 && named,
        fires,
    }
}

/// `trigger_push`: Quake 1 sets `10 * speed` along its angle (no angle: no direction, so it
/// stops agents, as `InitTrigger` leaves `movedir` zero); Quake III aims at its `target`'s apex
/// from the centre of its bounds (with the apexes it picks among).
fn push(k: &mut Keys, dialect: Dialect, flags: u32, centre: DVec3) -> Option<(Push, Vec<DVec3>)> {
    match dialect {
        Dialect::Quake1 => {
            let yaw = k.yaw();
            let dir = if yaw == 0.0 {
                DVec3::ZERO
            } else {
                movedir(yaw)
            };
            let speed = k.float("speed", rules::QUAKE1_PUSH_SPEED);
            Some((
                Push::Velocity {
                    velocity: dir * (speed * rules::QUAKE1_PUSH_SCALE),
                    once: flags & Q1_PUSH_ONCE != 0,
                },
                Vec::new(),
            ))
        }
        Dialect::Quake3 => {
            let Some(target) = k.string("target") else {
                k.warn("jump pad without a target: Quake III frees it; ignored");
                return None;
            };
            aim(k, &target, centre, "jump pad")
        }
    }
}

/// Quake III's `AimAtTarget` (`g_trigger.c`), for a jump pad or a `target_push` (`what`) at
/// `from`: the leap to the apex at a named point of `target`, `G_PickTarget`'s choices (the
/// first [`rules::PICK_CHOICES`] points of that name, in entity order; the push aims at the
/// first, a run at the one it picks). `None` (reported) when it names no point or none is above
/// `from` (Quake III frees the entity whatever it picks: its `time` is 0, or not a number); when
/// only some are, reported: a run that picks another frees it.
fn aim(k: &mut Keys, target: &str, from: DVec3, what: &str) -> Option<(Push, Vec<DVec3>)> {
    let mut apexes: Vec<DVec3> = k
        .spawner
        .out
        .spots
        .iter()
        .filter(|s| s.targetname.as_deref() == Some(target))
        .map(|s| s.origin)
        .collect();
    apexes.truncate(rules::PICK_CHOICES);
    let Some(&apex) = apexes.first() else {
        k.warn(format!(
            "{what} target {target:?} names no point: Quake III frees it; ignored"
        ));
        return None;
    };
    let below = apexes
        .iter()
        .filter(|&&apex| Push::Apex { from, apex }.velocity(1.0).is_none())
        .count();
    if below == apexes.len() {
        k.warn(format!(
            "{what} target is not above the {what}: Quake III frees it; ignored"
        ));
        return None;
    }
    if below > 0 {
        k.warn(format!(
            "{below} of the {} points named {target:?} are not above the {what}: Quake III \
             frees it when it picks one of them",
            apexes.len()
        ));
    }
    Some((Push::Apex { from, apex }, apexes))
}

/// Quake III's `target_push` (`SP_target_push`, `g_trigger.c`): `speed` (0 or absent: 1000)
/// along `G_SetMovedir` of its angles, or, with a `target`, `AimAtTarget` from its origin (an
/// absent origin is Quake III's default, the world's origin). Quake 1 has no such class (the
/// engine frees an entity without a spawn function): reported, removed.
fn target_push(s: &mut Spawner, input: &EntityInput) {
    let dialect = s.dialect;
    let mut k = Keys::new(s, input);
    if dialect == Dialect::Quake1 {
        k.warn("target_push is not a Quake 1 class: removed, as Quake 1 does");
        return;
    }
    let Some(targetname) = k.string("targetname") else {
        k.warn("target_push without a targetname: nothing can use it; ignored");
        return;
    };
    let bouncepad = k.flags() & Q3_BOUNCEPAD != 0;
    let (push, apexes) = match k.string("target") {
        Some(target) => {
            let origin = k.origin().unwrap_or(DVec3::ZERO);
            match aim(&mut k, &target, origin, "target_push") {
                Some(aimed) => aimed,
                None => return,
            }
        }
        None => {
            let speed = k.float("speed", rules::TARGET_PUSH_SPEED);
            let push = Push::Velocity {
                velocity: movedir_of_angles(k.angles()) * speed,
                once: false,
            };
            (push, Vec::new())
        }
    };
    s.out.target_pushes.push(TargetPush {
        entity: input.index,
        line: input.line,
        targetname: Some(targetname),
        push,
        bouncepad,
        apexes,
    });
}

/// Quake III's `G_PickTarget` (`g_utils.c`) for every random `target_relay`: the entities it
/// picks among are every entity of the map named by its `target` (`G_Find` over all entities),
/// in entity order, the first [`rules::PICK_CHOICES`] (`MAXCHOICES`).
pub(super) fn random_choices(s: &mut Spawner, inputs: &[EntityInput]) {
    for relay in s.out.relays.iter_mut().filter(|r| r.pick_one) {
        let Some(target) = relay.target.as_deref() else {
            continue;
        };
        relay.choices = inputs
            .iter()
            .filter(|e| e.get("targetname") == Some(target))
            .map(|e| e.index)
            .take(rules::PICK_CHOICES)
            .collect();
    }
}

/// Reports every `target` and `killtarget` that names no entity of the map (firing it does
/// nothing).
pub(super) fn check_targets(s: &mut Spawner, inputs: &[EntityInput]) {
    let names: BTreeSet<&str> = inputs
        .iter()
        .filter_map(|e| e.get("targetname"))
        .filter(|n| !n.is_empty())
        .collect();
    for input in inputs {
        for key in ["target", "killtarget"] {
            if let Some(name) = input.get(key).filter(|n| !n.is_empty())
                && !names.contains(name)
            {
                let class = input.classname().to_ascii_lowercase();
                // Already reported with what it means for the entity.
                let reported = key == "target"
                    && matches!(
                        class.as_str(),
                        "func_train"
                            | "trigger_teleport"
                            | "trigger_push"
                            | "target_push"
                            | "path_corner"
                    );
                if !reported {
                    s.warn(
                        input,
                        format!("{key} {name:?} names no entity: firing it does nothing"),
                    );
                }
            }
        }
    }
}

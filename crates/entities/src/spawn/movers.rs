//! The spawn functions of movers: `func_door`, `func_door_secret`, `func_plat`, `func_button`,
//! `func_train` (Quake 1 `doors.qc`, `plats.qc`, `buttons.qc`; Quake III `g_mover.c`).

use cspace_geom::{Aabb, Contents, DVec3, WorldBrush};

use super::Spawner;
use super::keys::Keys;
use crate::defs::{
    Activation, BinaryMotion, KeptReason, Motion, Mover, MoverKind, PathStop, SecretMotion,
};
use crate::dialect::Dialect;
use crate::input::{EntityInput, InputContents, movedir, right_vector, yaw_vector};
use crate::rules;

/// Quake 1 `func_door` flags (`doors.qc`).
const Q1_DOOR_START_OPEN: u32 = 1;
const Q1_DOOR_GOLD_KEY: u32 = 8;
const Q1_DOOR_SILVER_KEY: u32 = 16;
const Q1_DOOR_TOGGLE: u32 = 32;
/// Quake III `func_door` flags (`g_mover.c`): `START_OPEN x CRUSHER`.
const Q3_START_OPEN: u32 = 1;
const Q3_CRUSHER: u32 = 4;
/// Quake 1 `func_plat`'s `PLAT_LOW_TRIGGER` (`plats.qc`).
pub(crate) const Q1_PLAT_LOW_TRIGGER: u32 = 1;
/// Quake 1 `func_door_secret` flags (`doors.qc`).
const SECRET_OPEN_ONCE: u32 = 1;
const SECRET_1ST_LEFT: u32 = 2;
const SECRET_1ST_DOWN: u32 = 4;

/// Spawns the mover of `input` (a class of [`rules::MOVER_CLASSES`] with a solid brush).
pub(crate) fn spawn_mover(s: &mut Spawner, input: &EntityInput, all: &[EntityInput]) {
    let class = input.classname().to_ascii_lowercase();
    let brushes: Vec<WorldBrush> = input
        .brushes
        .iter()
        .filter_map(|b| {
            let contents = match b.contents {
                InputContents::Solid => Contents::Solid,
                InputContents::Clip => Contents::Clip,
                _ => return None,
            };
            Some(WorldBrush {
                brush: b.brush.clone(),
                contents,
                source: b.source.clone(),
            })
        })
        .collect();
    let bounds = input.solid_bounds();
    let index = s.out.movers.len();
    let mut k = Keys::new(s, input);
    let targetname = k.string("targetname");
    let target = k.string("target");
    let killtarget = k.killtarget();
    let delay = k.delay();
    let team_key = k.string("team");
    let flags = k.flags();
    let dialect = k.spawner.dialect;
    let spawned = match class.as_str() {
        "func_door" => door(&mut k, bounds, dialect, flags),
        "func_door_secret" => secret_door(&mut k, bounds, flags),
        "func_plat" => plat(&mut k, bounds, dialect, flags),
        "func_button" => button(&mut k, bounds, dialect),
        _ => train(&mut k, bounds, dialect, all),
    };
    let Some(Spawned {
        kind,
        speed,
        crusher,
        motion,
        activation,
        spawn_offset,
    }) = spawned
    else {
        s.keep(input, KeptReason::Stuck);
        return;
    };
    s.out.movers.push(Mover {
        entity: input.index,
        line: input.line,
        classname: input.classname().to_string(),
        kind,
        brushes,
        bounds,
        targetname,
        target,
        killtarget,
        delay,
        speed,
        crusher,
        motion,
        activation,
        team: index,
        spawn_offset,
        flags,
        team_key,
    });
}

/// What a mover's spawn function decides.
struct Spawned {
    kind: MoverKind,
    speed: f64,
    crusher: bool,
    motion: Motion,
    activation: Activation,
    spawn_offset: DVec3,
}

/// The distance a door or button travels along `dir`: Quake 1 `fabs(movedir * size) - lip`
/// (the absolute value of the dot product, `doors.qc`), Quake III `DotProduct(abs_movedir,
/// size) - lip` (`SP_func_door`).
fn travel(dialect: Dialect, dir: DVec3, size: DVec3, lip: f64) -> f64 {
    match dialect {
        Dialect::Quake1 => dir.dot(size).abs() - lip,
        Dialect::Quake3 => dir.abs().dot(size) - lip,
    }
}

/// `func_door`: slides along its angle by its size less the lip.
fn door(k: &mut Keys, bounds: Aabb, dialect: Dialect, flags: u32) -> Option<Spawned> {
    let defaults = rules::door(dialect);
    let dir = movedir(k.yaw());
    let speed = k.float("speed", defaults.speed);
    let mut wait = k.float("wait", defaults.wait);
    let lip = match dialect {
        Dialect::Quake1 => k.float("lip", defaults.lip),
        Dialect::Quake3 => k.float_or("lip", defaults.lip),
    };
    let health = k.float("health", 0.0) != 0.0;
    let named = k.string("targetname").is_some();
    let pos2 = dir * travel(dialect, dir, bounds.size(), lip);
    let (start_open, crusher, keyed, toggle) = match dialect {
        Dialect::Quake1 => {
            let keyed = flags & (Q1_DOOR_GOLD_KEY | Q1_DOOR_SILVER_KEY) != 0;
            if keyed {
                // "Key doors are always wait -1".
                wait = -1.0;
            }
            // door_blocked: "if a door has a negative wait, it would never come back if
            // blocked, so let it just squash the object".
            (
                flags & Q1_DOOR_START_OPEN != 0,
                wait < 0.0,
                keyed,
                flags & Q1_DOOR_TOGGLE != 0,
            )
        }
        Dialect::Quake3 => (
            flags & Q3_START_OPEN != 0,
            flags & Q3_CRUSHER != 0,
            false,
            false,
        ),
    };
    let (pos1, pos2) = if start_open {
        (pos2, DVec3::ZERO)
    } else {
        (DVec3::ZERO, pos2)
    };
    let activation = if named {
        Activation::Fired
    } else if health || keyed {
        Activation::Never
    } else {
        Activation::Field
    };
    if health && !named {
        k.warn("shootable door (health): agents cannot shoot; it stays closed");
    }
    if keyed && !named {
        k.warn("key door: agents carry no keys; it stays closed");
    }
    Some(Spawned {
        kind: MoverKind::Door,
        speed,
        crusher,
        motion: Motion::Binary(BinaryMotion {
            pos1,
            pos2,
            wait,
            toggle,
            starts_at_pos2: false,
        }),
        activation,
        spawn_offset: pos1,
    })
}

/// `func_door_secret` (Quake 1 only): back, then sideways (`fd_secret_use`).
fn secret_door(k: &mut Keys, bounds: Aabb, flags: u32) -> Option<Spawned> {
    let yaw = k.yaw();
    let wait = k.float("wait", rules::SECRET_WAIT);
    let forward = yaw_vector(yaw);
    let right = right_vector(yaw);
    let up = DVec3::Z;
    let size = bounds.size();
    let first_down = flags & SECRET_1ST_DOWN != 0;
    let sign = if flags & SECRET_1ST_LEFT != 0 {
        -1.0
    } else {
        1.0
    };
    let width = k.float(
        "t_width",
        if first_down {
            up.dot(size).abs()
        } else {
            right.dot(size).abs()
        },
    );
    let length = k.float("t_length", forward.dot(size).abs());
    let dest1 = if first_down {
        -up * width
    } else {
        right * (width * sign)
    };
    let dest2 = dest1 + forward * length;
    let named = k.string("targetname").is_some();
    if !named {
        k.warn("secret door without a targetname opens when shot: agents cannot shoot; it stays");
    }
    Some(Spawned {
        kind: MoverKind::SecretDoor,
        speed: rules::SECRET_SPEED,
        // secret_blocked only hurts: the door waits.
        crusher: true,
        motion: Motion::Secret(SecretMotion {
            dest1,
            dest2,
            wait,
            open_once: flags & SECRET_OPEN_ONCE != 0,
        }),
        activation: if named {
            Activation::Fired
        } else {
            Activation::Never
        },
        spawn_offset: DVec3::ZERO,
    })
}

/// `func_plat`: drawn at the top, spawned lowered (unless a Quake 1 plat has a `targetname`).
fn plat(k: &mut Keys, bounds: Aabb, dialect: Dialect, flags: u32) -> Option<Spawned> {
    let defaults = rules::plat(dialect);
    let named = k.string("targetname").is_some();
    let (speed, height, crusher) = match dialect {
        Dialect::Quake1 => {
            let speed = k.float("speed", defaults.speed);
            let height = k.float("height", bounds.size().z - defaults.lip);
            // plat_crush always reverses.
            (speed, height, false)
        }
        Dialect::Quake3 => {
            let speed = k.float("speed", defaults.speed);
            let lip = k.float_or("lip", defaults.lip);
            let height = k.number("height").unwrap_or(bounds.size().z - lip);
            (speed, height, flags & Q3_CRUSHER != 0)
        }
    };
    let top = DVec3::ZERO;
    let bottom = DVec3::new(0.0, 0.0, -height);
    let starts_at_pos2 = dialect == Dialect::Quake1 && named;
    Some(Spawned {
        kind: MoverKind::Plat,
        speed,
        crusher,
        motion: Motion::Binary(BinaryMotion {
            pos1: bottom,
            pos2: top,
            wait: defaults.wait,
            toggle: false,
            starts_at_pos2,
        }),
        activation: if named {
            Activation::Fired
        } else {
            Activation::Field
        },
        spawn_offset: if starts_at_pos2 { top } else { bottom },
    })
}

/// `func_button`: pressed by touch, moves along its angle, fires its targets at the end.
fn button(k: &mut Keys, bounds: Aabb, dialect: Dialect) -> Option<Spawned> {
    let defaults = rules::button(dialect);
    let dir = movedir(k.yaw());
    let speed = k.float("speed", defaults.speed);
    let wait = k.float("wait", defaults.wait);
    let lip = match dialect {
        Dialect::Quake1 => k.float("lip", defaults.lip),
        Dialect::Quake3 => k.float_or("lip", defaults.lip),
    };
    let health = k.float("health", 0.0) != 0.0;
    if health {
        k.warn("shootable button (health): agents cannot shoot; only a fired target presses it");
    }
    let pos2 = dir * travel(dialect, dir, bounds.size(), lip);
    Some(Spawned {
        kind: MoverKind::Button,
        speed,
        // button_blocked: "do nothing, just don't come all the way back out".
        crusher: true,
        motion: Motion::Binary(BinaryMotion {
            pos1: DVec3::ZERO,
            pos2,
            wait,
            toggle: false,
            starts_at_pos2: false,
        }),
        activation: if health {
            Activation::Fired
        } else {
            Activation::Touch
        },
        spawn_offset: DVec3::ZERO,
    })
}

/// `func_train`: from its first `path_corner` along their chain. Quake 1 places the train's
/// `mins` at each corner (`func_train_find`: `setorigin(self, targ.origin - self.mins)`); Quake
/// III its origin (the centre of its origin brush, `SP_func_train`: "Trains MUST HAVE AN ORIGIN
/// BRUSH").
fn train(k: &mut Keys, bounds: Aabb, dialect: Dialect, all: &[EntityInput]) -> Option<Spawned> {
    let speed = k.float("speed", rules::TRAIN_SPEED);
    let named = k.string("targetname").is_some();
    let Some(first) = k.string("target") else {
        k.warn("func_train without a target: it stays where drawn");
        return None;
    };
    let reference = match dialect {
        // A train with no solid brush has no mins: its corners are its offsets.
        Dialect::Quake1 if bounds.is_empty() => DVec3::ZERO,
        Dialect::Quake1 => bounds.min,
        Dialect::Quake3 => match k.input.origin_brush {
            Some(origin) => origin,
            None => {
                k.warn(
                    "Quake III trains need an origin brush: its origin is taken as (0, 0, 0), \
                     as Quake III does",
                );
                DVec3::ZERO
            }
        },
    };
    let (corners, loop_to) = corner_chain(k, &first, all, dialect);
    if corners.is_empty() {
        k.warn(format!(
            "func_train target {first:?} names no path_corner: it stays where drawn"
        ));
        return None;
    }
    let stops: Vec<PathStop> = corners
        .iter()
        .map(
            |&Corner {
                 entity,
                 origin,
                 wait,
                 speed: corner_speed,
             }| PathStop {
                entity,
                offset: origin - reference,
                wait: match dialect {
                    Dialect::Quake1 if wait == 0.0 => rules::QUAKE1_TRAIN_THINK,
                    Dialect::Quake1 => wait,
                    Dialect::Quake3 => wait.max(0.0),
                },
                speed: match dialect {
                    Dialect::Quake3 if corner_speed != 0.0 => corner_speed.max(1.0),
                    _ => speed,
                },
            },
        )
        .collect();
    let spawn_offset = stops[0].offset;
    let (activation, start_wait) = match dialect {
        // train_use starts a named train; others start two thinks after spawning.
        Dialect::Quake1 if named => (Activation::Fired, 0.0),
        Dialect::Quake1 => (Activation::Automatic, 2.0 * rules::QUAKE1_TRAIN_THINK),
        // Quake III trains have no use function: they always start, a frame after spawning,
        // after their first corner's wait.
        Dialect::Quake3 => (
            Activation::Automatic,
            rules::QUAKE3_FRAMETIME + stops[0].wait,
        ),
    };
    if named && dialect == Dialect::Quake3 {
        k.warn("Quake III trains cannot be fired: its targetname is ignored, it starts at once");
    }
    Some(Spawned {
        kind: MoverKind::Train,
        speed,
        crusher: true,
        motion: Motion::Path {
            stops,
            loop_to,
            start_wait,
        },
        activation,
        spawn_offset,
    })
}

/// A `path_corner` as a train reads it.
#[derive(Debug, Clone, Copy)]
struct Corner {
    entity: u32,
    origin: DVec3,
    wait: f64,
    speed: f64,
}

/// The chain of path corners from the one named `first`: entity, origin, wait and speed of each,
/// in order, and the corner the last one leads back to when the chain closes on itself. Quake 1 follows `target` to the first entity
/// of that name (`find`); Quake III to the first `path_corner` of that name
/// (`Think_SetupTrainTargets`). A break (a name naming nothing) is reported and ends the path.
fn corner_chain(
    k: &mut Keys,
    first: &str,
    all: &[EntityInput],
    dialect: Dialect,
) -> (Vec<Corner>, Option<usize>) {
    let find = |name: &str| {
        all.iter().find(|e| {
            e.get("targetname") == Some(name)
                && e.brushes.is_empty()
                && match dialect {
                    Dialect::Quake1 => true,
                    Dialect::Quake3 => e.classname().eq_ignore_ascii_case("path_corner"),
                }
        })
    };
    let mut out: Vec<Corner> = Vec::new();
    let mut name = first.to_string();
    loop {
        let Some(corner) = find(&name) else {
            if !out.is_empty() {
                k.warn(format!(
                    "path_corner chain breaks: {name:?} names nothing; the train stops at the \
                     last corner found"
                ));
            }
            return (out, None);
        };
        if let Some(back) = out.iter().position(|c| c.entity == corner.index) {
            let last = out.len() - 1;
            if back == last {
                k.warn(format!(
                    "path_corner {name:?} (entity {}) targets itself: the train stays at it",
                    corner.index
                ));
            } else if back > 0 {
                k.warn(format!(
                    "path_corner chain returns to {name:?} (entity {}), not to its first corner: \
                     the train loops from its last corner back to that one",
                    corner.index
                ));
            }
            return (out, Some(back));
        }
        let Some(origin) = corner
            .get("origin")
            .and_then(crate::input::vector)
            .filter(|v| v.abs().max_element() <= cspace_geom::tolerance::MAX_COORDINATE)
        else {
            k.warn(format!(
                "path_corner {name:?} (entity {}) has no usable origin; the train stops before it",
                corner.index
            ));
            return (out, None);
        };
        let read = |key: &str| {
            corner
                .get(key)
                .and_then(crate::input::number)
                .unwrap_or(0.0)
        };
        out.push(Corner {
            entity: corner.index,
            origin,
            wait: read("wait"),
            speed: read("speed").max(0.0),
        });
        match corner.get("target").filter(|t| !t.is_empty()) {
            Some(next) => name = next.to_string(),
            None => {
                k.warn(format!(
                    "path_corner {name:?} (entity {}) has no target: the train stops there",
                    corner.index
                ));
                return (out, None);
            }
        }
    }
}

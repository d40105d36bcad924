//! `sim map`'s living entities: every mover, trigger, liquid and kept brush entity, with what was
//! made of it.

use std::fmt::Write as _;

use cspace_entities::{
    Activation, Entities, KeptReason, Motion, Mover, Push, Trigger, TriggerKind,
};
use cspace_scenario::trace::{compact, compact_vector};
use serde_json::{Value, json};

/// How a mover is set going, in words.
fn activation(a: Activation) -> &'static str {
    match a {
        Activation::Field => "opened by its field",
        Activation::Touch => "pressed by touch",
        Activation::Fired => "fired by name",
        Activation::Automatic => "moves on its own",
        Activation::Never => "never moves (must be shot or keyed)",
    }
}

/// A mover's motion, in words.
fn motion(m: &Mover) -> String {
    match &m.motion {
        Motion::Binary(b) => {
            let wait = if b.wait < 0.0 {
                "never returns".to_string()
            } else {
                format!("waits {} s", compact(b.wait, 3))
            };
            format!(
                "between {} and {}, {wait}",
                compact_vector(b.pos1, 3),
                compact_vector(b.pos2, 3)
            )
        }
        Motion::Secret(s) => format!(
            "to {} then {}, waits {} s{}",
            compact_vector(s.dest1, 3),
            compact_vector(s.dest2, 3),
            compact(s.wait, 3),
            if s.open_once { ", stays open" } else { "" }
        ),
        Motion::Path { stops, loop_to, .. } => format!(
            "along {} corners{}",
            stops.len(),
            match loop_to {
                Some(0) => ", in a loop".to_string(),
                Some(i) => format!(", looping back to corner {i}"),
                None => ", stopping at the last".to_string(),
            }
        ),
    }
}

/// A trigger's action, in words.
fn action(e: &Entities, t: &Trigger) -> String {
    match &t.kind {
        TriggerKind::Fire {
            target,
            wait,
            touchable,
            ..
        } => format!(
            "fires {}{}{}",
            target.as_deref().unwrap_or("nothing"),
            if *wait < 0.0 {
                ", once".to_string()
            } else {
                format!(", every {} s", compact(*wait, 3))
            },
            if *touchable { "" } else { ", not by touch" }
        ),
        TriggerKind::DoorField { mover } => format!("opens door team {mover}"),
        TriggerKind::PlatField { mover } => format!("raises plat {mover}"),
        TriggerKind::ButtonTouch { mover } => format!("presses button {mover}"),
        TriggerKind::Teleport { destinations, .. } => {
            let to: Vec<String> = destinations
                .iter()
                .map(|&d| compact_vector(e.spots[d].origin, 3))
                .collect();
            if to.is_empty() {
                "teleports nowhere".to_string()
            } else {
                format!("teleports to {}", to.join(" or "))
            }
        }
        TriggerKind::Push(Push::Velocity { velocity, once }) => format!(
            "sets velocity {}{}",
            compact_vector(*velocity, 3),
            if *once { ", once" } else { "" }
        ),
        TriggerKind::Push(Push::Apex { apex, .. }) => {
            format!(
                "jump pad to apex {}{}",
                compact_vector(*apex, 3),
                picked(&t.apexes)
            )
        }
        TriggerKind::Hurt {
            damage,
            slow,
            start_off,
        } => format!(
            "hurts {} (an event){}{}",
            compact(*damage, 3),
            if *slow { ", once a second" } else { "" },
            if *start_off { ", off until fired" } else { "" }
        ),
        TriggerKind::Other => "touch events only".to_string(),
    }
}

/// When a jump pad or `target_push` aims at one of several points: which the run picks.
fn picked(apexes: &[cspace_geom::DVec3]) -> String {
    if apexes.len() > 1 {
        format!(
            " (or one of {} more, picked by the run's seed)",
            apexes.len() - 1
        )
    } else {
        String::new()
    }
}

/// What a `target_push` does to its activator, in words.
fn target_push(p: &cspace_entities::TargetPush) -> String {
    let what = match p.push {
        Push::Velocity { velocity, .. } => {
            format!(
                "sets the activator's velocity {}",
                compact_vector(velocity, 3)
            )
        }
        Push::Apex { apex, .. } => format!(
            "launches the activator to apex {}{}",
            compact_vector(apex, 3),
            picked(&p.apexes)
        ),
    };
    if p.bouncepad {
        what + ", bouncepad"
    } else {
        what
    }
}

/// Why a brush entity was kept, in words.
fn kept(reason: KeptReason) -> &'static str {
    match reason {
        KeptReason::Static => "static",
        KeptReason::Rotating => "rotating mover, not simulated: solid where drawn",
        KeptReason::NotSimulated => "sine mover, not simulated: solid where drawn",
        KeptReason::Stuck => "mover with nowhere to go: solid where drawn",
    }
}

/// The text lines of the living entities.
pub fn text(out: &mut String, e: &Entities) {
    let liquid = |kind| e.liquids.iter().filter(|l| l.kind == kind).count();
    writeln!(
        out,
        "entities ({} rules): {} movers, {} triggers, {} relays, {} named points, {} liquid \
         brushes ({} water, {} slime, {} lava), {} kept where drawn",
        e.dialect,
        e.movers.len(),
        e.triggers.len(),
        e.relays.len(),
        e.spots.len(),
        e.liquids.len(),
        liquid(cspace_entities::LiquidKind::Water),
        liquid(cspace_entities::LiquidKind::Slime),
        liquid(cspace_entities::LiquidKind::Lava),
        e.kept.len()
    )
    .unwrap();
    for (i, m) in e.movers.iter().enumerate() {
        let team = if m.team != i {
            format!(", linked to mover {}", m.team)
        } else {
            String::new()
        };
        writeln!(
            out,
            "  mover {i}: {} (entity {}, line {}): {}, {} brushes, {} u/s, {}, {}{}{}",
            m.classname,
            m.entity,
            m.line,
            m.kind.name(),
            m.brushes.len(),
            compact(m.speed, 3),
            activation(m.activation),
            motion(m),
            if m.crusher { ", never reverses" } else { "" },
            team
        )
        .unwrap();
    }
    for (i, t) in e.triggers.iter().enumerate() {
        writeln!(
            out,
            "  trigger {i}: {} (entity {}, line {}): {} .. {}: {}",
            t.classname,
            t.entity,
            t.line,
            compact_vector(t.bounds.min, 3),
            compact_vector(t.bounds.max, 3),
            action(e, t)
        )
        .unwrap();
    }
    for (i, p) in e.target_pushes.iter().enumerate() {
        writeln!(
            out,
            "  target_push {i} (entity {}, line {}): used by {}: {}",
            p.entity,
            p.line,
            p.targetname.as_deref().unwrap_or("nothing"),
            target_push(p)
        )
        .unwrap();
    }
    for k in &e.kept {
        writeln!(
            out,
            "  kept: {} (entity {}, line {}): {}",
            k.classname,
            k.entity,
            k.line,
            kept(k.reason)
        )
        .unwrap();
    }
    for w in &e.warnings {
        writeln!(out, "warning: {w}").unwrap();
    }
}

/// The JSON of the living entities.
pub fn json(e: &Entities) -> Value {
    let v = |p: cspace_geom::DVec3| json!([p.x, p.y, p.z]);
    json!({
        "dialect": e.dialect.name(),
        "movers": e.movers.iter().enumerate().map(|(i, m)| json!({
            "index": i,
            "classname": m.classname,
            "entity": m.entity,
            "line": m.line,
            "kind": m.kind.name(),
            "brushes": m.brushes.len(),
            "speed": m.speed,
            "activation": activation(m.activation),
            "motion": motion(m),
            "spawn_offset": v(m.spawn_offset),
            "crusher": m.crusher,
            "team": m.team,
            "targetname": m.targetname,
            "target": m.target,
        })).collect::<Vec<_>>(),
        "triggers": e.triggers.iter().enumerate().map(|(i, t)| json!({
            "index": i,
            "classname": t.classname,
            "entity": t.entity,
            "line": t.line,
            "kind": t.kind.name(),
            "min": v(t.bounds.min),
            "max": v(t.bounds.max),
            "action": action(e, t),
        })).collect::<Vec<_>>(),
        "liquids": e.liquids.iter().map(|l| json!({
            "kind": l.kind.name(),
            "source": l.source.to_string(),
            "min": v(l.brush.bounds().min),
            "max": v(l.brush.bounds().max),
        })).collect::<Vec<_>>(),
        "target_pushes": e.target_pushes.iter().enumerate().map(|(i, p)| json!({
            "index": i,
            "entity": p.entity,
            "line": p.line,
            "targetname": p.targetname,
            "action": target_push(p),
        })).collect::<Vec<_>>(),
        "relays": e.relays.len(),
        "named_points": e.spots.len(),
        "kept": e.kept.iter().map(|k| json!({
            "classname": k.classname,
            "entity": k.entity,
            "line": k.line,
            "why": kept(k.reason),
        })).collect::<Vec<_>>(),
        "warnings": e.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
    })
}

//! How a seed varies a scenario (`docs/sweep.md`, "Seeds"). Seed 0 is the scenario as written.
//! A seed `s > 0` gives every agent its own generators (SplitMix64, [`Rng`], seeded with the
//! FNV-1a hash of `s`, the agent's id and the stream: 0 for the start, 1 for the headings), and:
//!
//! - an agent written with `spawn = N` starts at spawn point `(N + s) mod count`;
//! - the start moves by up to [`Jitter::start`] units along x and along y (uniform), drawn again
//!   up to [`START_DRAWS`] times while the shape would be in solid there (the exact reference's
//!   point query); when every draw is in solid, the agent keeps its unjittered start;
//! - every scripted heading (`move`) turns by an angle uniform within
//!   ±[`Jitter::heading_degrees`], each event its own draw.
//!
//! Agents that allow starting in solid keep their start (it is the scenario's point); their
//! headings turn. The turn uses a fixed polynomial, not the platform's `sin` and `cos`, so that
//! every machine draws the same bits (shards of one sweep may run on different machines).

use cspace_geom::domain::{self, Quantity};
use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, ExactCollider, QueryContext};

use crate::scenario::Scenario;
use cspace_sim::Action;

/// How many times a jittered start is drawn before the agent keeps its unjittered one.
pub const START_DRAWS: usize = 8;

/// How far a seed moves the agents: the sweep file's `[jitter]` table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Jitter {
    /// Each start moves by up to this much along x and along y, units (default 8: a quarter of
    /// a Quake player's width, so that a crowd 48 units apart stays a crowd).
    pub start: f64,
    /// Each scripted heading turns by up to this much either way, degrees, within 0 to 180
    /// (default 10).
    pub heading_degrees: f64,
}

impl Default for Jitter {
    fn default() -> Jitter {
        Jitter {
            start: 8.0,
            heading_degrees: 10.0,
        }
    }
}

impl Jitter {
    /// Checks the amounts: `start` finite, within 0 and
    /// [`MAX_SHAPE_EXTENT`](cspace_geom::tolerance::MAX_SHAPE_EXTENT); `heading_degrees` within
    /// 0 and 180. The error names the field as the sweep file writes it.
    pub fn validate(&self) -> Result<(), String> {
        let limit = cspace_geom::tolerance::MAX_SHAPE_EXTENT;
        if !(self.start.is_finite() && (0.0..=limit).contains(&self.start)) {
            return Err(format!(
                "jitter.start must be between 0 and {limit} units, got {}",
                self.start
            ));
        }
        if !(self.heading_degrees.is_finite() && (0.0..=180.0).contains(&self.heading_degrees)) {
            return Err(format!(
                "jitter.heading must be between 0 and 180 degrees, got {}",
                self.heading_degrees
            ));
        }
        Ok(())
    }
}

/// The generator of one agent's stream under `seed`: SplitMix64 seeded with the FNV-1a hash of
/// the seed, the agent's id and the stream (the sweep's rule, `docs/sweep.md`, "Seeds"). Streams
/// 0 and 1 are a sweep's starts and headings; others may draw for other purposes (the Python
/// environment's resets and goals), each independent of the others and of the other agents.
pub fn generator(seed: u64, agent: u32, stream: u8) -> Rng {
    let mut bytes = [0u8; 17];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&u64::from(agent).to_le_bytes());
    bytes[16] = stream;
    Rng::new(cspace_geom::world::fnv1a64(&bytes))
}

/// `start` moved by an offset uniform in `[-by, by]` along x and along y, drawn from `rng` until
/// `free` accepts it, at most [`START_DRAWS`] times; `start` itself when no draw is free. A seed's
/// start (module docs), and the Python environment's resets.
pub fn jittered_start(
    start: DVec3,
    by: f64,
    rng: &mut Rng,
    free: &mut impl FnMut(DVec3) -> bool,
) -> DVec3 {
    (0..START_DRAWS)
        .map(|_| start + DVec3::new(rng.range(-by, by), rng.range(-by, by), 0.0))
        .find(|&p| free(p))
        .unwrap_or(start)
}

/// `(sin x, cos x)` for `|x| <= pi` from their Taylor series to the 35th power (error below
/// 1e-15 there), in plain IEEE arithmetic: the same bits on every machine, unlike libm's.
pub fn sin_cos(x: f64) -> (f64, f64) {
    let x2 = x * x;
    let (mut sin, mut cos) = (0.0, 0.0);
    let (mut s, mut c) = (x, 1.0);
    for k in 0..18u32 {
        sin += s;
        cos += c;
        let k = f64::from(k);
        s = -s * x2 / ((2.0 * k + 2.0) * (2.0 * k + 3.0));
        c = -c * x2 / ((2.0 * k + 1.0) * (2.0 * k + 2.0));
    }
    (sin, cos)
}

/// `scenario` varied by `seed` (the module's rules); seed 0 returns it as it is.
pub fn vary(scenario: &Scenario, seed: u64, jitter: &Jitter) -> Scenario {
    let mut varied = scenario.clone();
    if seed == 0 {
        return varied;
    }
    let spawns = &scenario.world.spawns;
    let exact = ExactCollider::new(scenario.world.world.clone());
    let mut ctx = QueryContext::new();
    let turn = jitter.heading_degrees * std::f64::consts::PI / 180.0;
    for (id, (scripted, written)) in varied
        .agents
        .iter_mut()
        .zip(&scenario.agent_starts)
        .enumerate()
    {
        let id = id as u32;
        let agent = &mut scripted.spec;
        let prepared = exact
            .prepare(agent.start_shape())
            .expect("the exact backend takes every agent shape");
        let mut free = |p: DVec3| {
            domain::check_point(Quantity::Coordinate, p).is_ok()
                && !exact.is_solid(&mut ctx, &prepared, p)
        };
        if let Some(n) = written.spawn
            && !spawns.is_empty()
        {
            let count = spawns.len() as u64;
            let at = spawns[((n as u64 % count + seed % count) % count) as usize];
            if written.allow_in_solid || free(at) {
                agent.start = at;
            }
        }
        if !written.allow_in_solid && jitter.start > 0.0 {
            let mut rng = generator(seed, id, 0);
            agent.start = jittered_start(agent.start, jitter.start, &mut rng, &mut free);
        }
        if turn > 0.0 {
            let mut rng = generator(seed, id, 1);
            // Each agent's turned script is its own (a crowd's agents shared one).
            let mut events = scripted.script.to_vec();
            for event in &mut events {
                if let Action::Move { direction, .. } = &mut event.action {
                    let (s, c) = sin_cos(rng.range(-turn, turn));
                    let d = *direction;
                    *direction = DVec3::new(c * d.x - s * d.y, s * d.x + c * d.y, 0.0);
                }
            }
            scripted.script = events.into();
        }
    }
    varied
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polynomial_sine_and_cosine_match_the_platform_within_1e_15() {
        for i in -1000..=1000 {
            let x = f64::from(i) * std::f64::consts::PI / 1000.0;
            let (s, c) = sin_cos(x);
            assert!((s - x.sin()).abs() < 1e-15, "sin {x}: {s} vs {}", x.sin());
            assert!((c - x.cos()).abs() < 1e-15, "cos {x}: {c} vs {}", x.cos());
        }
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
    }

    #[test]
    fn jitter_amounts_are_checked() {
        assert!(Jitter::default().validate().is_ok());
        let bad = |start, heading_degrees| {
            Jitter {
                start,
                heading_degrees,
            }
            .validate()
            .unwrap_err()
        };
        assert!(bad(-1.0, 10.0).contains("jitter.start"));
        assert!(bad(f64::NAN, 10.0).contains("jitter.start"));
        assert!(bad(8.0, 181.0).contains("jitter.heading"));
        assert!(bad(8.0, -1.0).contains("jitter.heading"));
    }
}

//! A run against its baseline, sample by sample: how far each agent is from where the baseline
//! had it, and where they first part.

use std::collections::BTreeMap;

use cspace_contact::AgentId;
use cspace_geom::DVec3;

use cspace_scenario::trace::Trace;

/// Where a run first parts from its baseline by more than the tolerance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FirstDivergence {
    /// The first sampled step at which some agent is off.
    pub step: u64,
    /// Its time, seconds (`step * time_step`).
    pub time: f64,
    /// The agent (the lowest id off at that step).
    pub agent: AgentId,
    /// How far it is from the baseline there, units.
    pub distance: f64,
    /// Where the run has it.
    pub run: DVec3,
    /// Where the baseline has it.
    pub baseline: DVec3,
}

/// Per agent (index = id), the distance between the run's and the baseline's positions at every
/// sampled step both have: `(time in seconds, distance in units)`, in step order.
pub fn distances(run: &Trace, baseline: &Trace) -> Vec<Vec<(f64, f64)>> {
    let base: BTreeMap<(u64, u32), DVec3> = baseline
        .trajectory
        .iter()
        .map(|s| ((s.step, s.agent.0), s.position))
        .collect();
    let agents = run.header.agents.max(run.finals.len());
    let mut out = vec![Vec::new(); agents];
    for s in &run.trajectory {
        if let (Some(b), Some(series)) = (
            base.get(&(s.step, s.agent.0)),
            out.get_mut(s.agent.0 as usize),
        ) {
            series.push((
                s.step as f64 * run.header.time_step,
                s.position.distance(*b),
            ));
        }
    }
    out
}

/// The first sampled step at which an agent of `run` is farther than `tolerance` from where
/// `baseline` has it; `None` when the run stays within it.
pub fn first_divergence(run: &Trace, baseline: &Trace, tolerance: f64) -> Option<FirstDivergence> {
    let base: BTreeMap<(u64, u32), DVec3> = baseline
        .trajectory
        .iter()
        .map(|s| ((s.step, s.agent.0), s.position))
        .collect();
    run.trajectory
        .iter()
        .filter_map(|s| {
            let b = *base.get(&(s.step, s.agent.0))?;
            let distance = s.position.distance(b);
            (distance > tolerance).then_some(FirstDivergence {
                step: s.step,
                time: s.step as f64 * run.header.time_step,
                agent: s.agent,
                distance,
                run: s.position,
                baseline: b,
            })
        })
        .min_by_key(|d| (d.step, d.agent.0))
}

/// How many sampled positions of `run` are farther than `tolerance` from the baseline's.
pub fn positions_off(run: &Trace, baseline: &Trace, tolerance: f64) -> usize {
    distances(run, baseline)
        .iter()
        .flatten()
        .filter(|(_, d)| *d > tolerance)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(positions: &[(u64, u32, f64)]) -> Trace {
        let mut text = String::from(
            "cspace trace 1\nscenario s\nbackend exact\nsteps 4\ntime_step 0.25\nagents 2\nsample_every 1\n\ntrajectory\n",
        );
        for (step, agent, x) in positions {
            text += &format!(
                "  step {step} agent {agent} position ({x}, 0, 0) velocity (0, 0, 0) stand ground awake\n"
            );
        }
        cspace_scenario::trace::parse(&text).unwrap()
    }

    #[test]
    fn the_first_divergence_is_the_earliest_step_then_the_lowest_agent() {
        let base = trace(&[
            (0, 0, 0.0),
            (0, 1, 0.0),
            (2, 0, 1.0),
            (2, 1, 1.0),
            (4, 0, 2.0),
            (4, 1, 2.0),
        ]);
        let run = trace(&[
            (0, 0, 0.0),
            (0, 1, 0.0),
            (2, 0, 1.0),
            (2, 1, 1.5),
            (4, 0, 3.0),
            (4, 1, 2.0),
        ]);
        let d = first_divergence(&run, &base, 0.1).unwrap();
        assert_eq!(
            (d.step, d.agent, d.distance, d.time),
            (2, AgentId(1), 0.5, 0.5)
        );
        assert_eq!(first_divergence(&run, &base, 2.0), None);
        assert_eq!(positions_off(&run, &base, 0.1), 2);
        let per_agent = distances(&run, &base);
        assert_eq!(per_agent[0], [(0.0, 0.0), (0.5, 0.0), (1.0, 1.0)]);
    }
}

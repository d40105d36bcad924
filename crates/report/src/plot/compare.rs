//! A run against its baseline, sample by sample: how far each agent is from where the baseline
//! had it, and where they first part.

use std::collections::BTreeMap;

use cspace_contact::AgentId;
use cspace_geom::DVec3;

use cspace_scenario::trace::RunRecord;
use cspace_sim::AgentState;

/// Every sampled state of `record` with its step, sample after sample.
fn sampled(record: &RunRecord) -> impl Iterator<Item = (u64, &AgentState)> + '_ {
    record
        .samples
        .iter()
        .flat_map(|s| s.states.iter().map(move |a| (s.step, a)))
}

/// The baseline's sampled positions by step and agent.
fn positions(baseline: &RunRecord) -> BTreeMap<(u64, u32), DVec3> {
    sampled(baseline)
        .map(|(step, s)| ((step, s.id.0), s.position))
        .collect()
}

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
pub fn distances(run: &RunRecord, baseline: &RunRecord) -> Vec<Vec<(f64, f64)>> {
    let base = positions(baseline);
    let agents = run.header.agents.max(run.finals.len());
    let mut out = vec![Vec::new(); agents];
    for (step, s) in sampled(run) {
        if let (Some(b), Some(series)) = (base.get(&(step, s.id.0)), out.get_mut(s.id.0 as usize)) {
            series.push((step as f64 * run.header.time_step, s.position.distance(*b)));
        }
    }
    out
}

/// The first sampled step at which an agent of `run` is farther than `tolerance` from where
/// `baseline` has it; `None` when the run stays within it.
pub fn first_divergence(
    run: &RunRecord,
    baseline: &RunRecord,
    tolerance: f64,
) -> Option<FirstDivergence> {
    let base = positions(baseline);
    sampled(run)
        .filter_map(|(step, s)| {
            let b = *base.get(&(step, s.id.0))?;
            let distance = s.position.distance(b);
            (distance > tolerance).then_some(FirstDivergence {
                step,
                time: step as f64 * run.header.time_step,
                agent: s.id,
                distance,
                run: s.position,
                baseline: b,
            })
        })
        .min_by_key(|d| (d.step, d.agent.0))
}

/// How many sampled positions of `run` are farther than `tolerance` from the baseline's.
pub fn positions_off(run: &RunRecord, baseline: &RunRecord, tolerance: f64) -> usize {
    distances(run, baseline)
        .iter()
        .flatten()
        .filter(|(_, d)| *d > tolerance)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(positions: &[(u64, u32, f64)]) -> RunRecord {
        let mut text = String::from(
            "cspace trace 1\nscenario s\nbackend exact\nsteps 4\ntime_step 0.25\nagents 2\nsample_every 1\n\ntrajectory\n",
        );
        for (step, agent, x) in positions {
            text += &format!(
                "  step {step} agent {agent} position ({x}, 0, 0) velocity (0, 0, 0) stand ground awake\n"
            );
        }
        cspace_scenario::trace::parse(&text).unwrap().record
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

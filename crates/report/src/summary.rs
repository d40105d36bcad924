//! Human-readable and JSON summaries of runs and comparisons.

use std::fmt::Write as _;

use serde_json::{Value, json};

use cspace_scenario::run::{Divergence, RunOutcome};
use cspace_scenario::scenario::Scenario;
use cspace_scenario::trace::{compact_vector, fixed};
use cspace_sim::BackendKind;
use cspace_sim::simulation::Verification;

/// `1 agent`, `3 agents`, `1 brush`, `2 brushes`: a count with its noun, singular or plural.
pub fn count(n: usize, noun: &str) -> String {
    let plural = if n == 1 {
        ""
    } else if noun.ends_with("sh") || noun.ends_with('s') || noun.ends_with('x') {
        "es"
    } else {
        "s"
    };
    format!("{n} {noun}{plural}")
}

/// The most agents a summary names one by one in a list (of agents that left the world).
const LISTED: usize = 10;

/// The summary table of one run: per agent distance, contacts, time on ground, final position
/// and pose; then the backend's speed and the expectations.
pub fn run_text(scenario: &Scenario, outcome: &RunOutcome) -> String {
    let mut out = String::new();
    let c = &outcome.counters;
    writeln!(
        out,
        "{} on {}: {} of {} s, {}, {:.3} s wall, {:.0} agent steps/s, {}",
        scenario.name,
        outcome.backend.name(),
        count(scenario.steps as usize, "step"),
        scenario.dt,
        count(scenario.agents.len(), "agent"),
        outcome.seconds,
        c.agent_steps as f64 / outcome.seconds.max(1e-9), // not a tolerance: guards the division
        count(c.traces as usize, "trace")
    )
    .unwrap();
    writeln!(
        out,
        "{}: {}",
        outcome.backend.name(),
        outcome.backend_counters
    )
    .unwrap();
    writeln!(
        out,
        "| agent | distance | contacts | time on ground | final position | pose |"
    )
    .unwrap();
    writeln!(out, "| --- | ---: | ---: | ---: | --- | --- |").unwrap();
    for (i, f) in outcome.record.finals.iter().enumerate() {
        let s = &f.state;
        writeln!(
            out,
            "| {} | {} | {} | {} s | ({}, {}, {}) | {}{} |",
            scenario.agent_names[i],
            fixed(f.distance, 1),
            f.contacts,
            fixed(f.ground_time, 2),
            fixed(s.position.x, 2),
            fixed(s.position.y, 2),
            fixed(s.position.z, 2),
            scenario.agent_poses[i].name(s.pose),
            if s.asleep { ", asleep" } else { "" }
        )
        .unwrap();
    }
    let left = outcome.left_world();
    for (id, step, at) in left.iter().take(LISTED) {
        writeln!(
            out,
            "agent {} left the world at step {step}, at {}",
            scenario.agent_names[id.0 as usize],
            compact_vector(*at, 2)
        )
        .unwrap();
    }
    if left.len() > LISTED {
        writeln!(
            out,
            "... and {} more left the world",
            count(left.len() - LISTED, "agent")
        )
        .unwrap();
    }
    if let Some(v) = &outcome.verification {
        writeln!(out, "{}", verification_text(v)).unwrap();
        for found in &v.first {
            writeln!(out, "IN SOLID {found}").unwrap();
        }
    }
    for check in &outcome.checks {
        let name = &scenario.agent_names[check.expectation.agent.0 as usize];
        let what = check.expectation.check.describe();
        match &check.failure {
            None => writeln!(out, "ok     agent {name} {what}").unwrap(),
            Some(why) => writeln!(
                out,
                "FAILED agent {name} {what}: {why} ({})",
                check.expectation.written_at
            )
            .unwrap(),
        }
    }
    out
}

/// The exactness guard's line: how many positions it checked, how many it found in solid.
pub fn verification_text(v: &Verification) -> String {
    format!(
        "verify: {} checked with the exact reference's point query, {} in solid{}",
        count(v.checked as usize, "agent position"),
        v.in_solid,
        if v.in_solid > v.first.len() as u64 {
            format!(" (the first {} listed)", v.first.len())
        } else {
            String::new()
        }
    )
}

/// One run as JSON.
pub fn run_json(scenario: &Scenario, outcome: &RunOutcome) -> Value {
    let v = |p: cspace_geom::DVec3| json!([p.x, p.y, p.z]);
    let left = outcome.left_world();
    let left_at = |i: usize| {
        left.iter()
            .find(|(id, ..)| id.0 as usize == i)
            .map(|(_, step, _)| *step)
    };
    json!({
        "scenario": scenario.name,
        "backend": outcome.backend.name(),
        "steps": scenario.steps,
        "time_step": scenario.dt,
        "wall_seconds": outcome.seconds,
        "agent_steps_per_second": outcome.counters.agent_steps as f64 / outcome.seconds.max(1e-9), // not a tolerance: guards the division
        "traces": outcome.counters.traces,
        "backend_counters": outcome.backend_counters.to_string(),
        "agents": outcome.record.finals.iter().enumerate().map(|(i, f)| { let s = &f.state; json!({
            "name": scenario.agent_names[i],
            "distance": f.distance,
            "contacts": f.contacts,
            "time_on_ground": f.ground_time,
            "position": v(s.position),
            "velocity": v(s.velocity),
            "pose": scenario.agent_poses[i].name(s.pose),
            "crouched": s.pose == cspace_sim::Pose::Crouching,
            "on_ground": s.on_ground,
            "asleep": s.asleep,
            "left_world_at_step": left_at(i),
        })}).collect::<Vec<_>>(),
        "verification": outcome.verification.as_ref().map(|guard| json!({
            "checked": guard.checked,
            "in_solid": guard.in_solid,
            "first": guard.first.iter().map(|f| json!({
                "step": f.step,
                "agent": scenario.agent_names[f.agent.0 as usize],
                "position": v(f.position),
                "pose": f.pose.name(),
            })).collect::<Vec<_>>(),
        })),
        "expectations": outcome.checks.iter().map(|c| json!({
            "agent": scenario.agent_names[c.expectation.agent.0 as usize],
            "check": c.expectation.check.describe(),
            "passed": c.failure.is_none(),
            "failure": c.failure,
            "written_at": c.expectation.written_at,
        })).collect::<Vec<_>>(),
    })
}

/// A pairwise comparison row.
#[derive(Debug, Clone)]
pub struct PairReport {
    /// The two backends.
    pub a: String,
    /// The second backend.
    pub b: String,
    /// How they differ.
    pub divergence: Divergence,
    /// The tolerance that applies.
    pub tolerance: f64,
    /// The declared reason, when an expected difference applies.
    pub reason: Option<String>,
}

impl PairReport {
    /// True when within tolerance and with the same contacts (or a declared difference).
    pub fn agrees(&self) -> bool {
        self.divergence.largest().0 <= self.tolerance
            && (self.divergence.contacts.is_none() || self.reason.is_some())
    }
}

/// The backends of a comparison, in order of first appearance.
fn backends_of(reports: &[PairReport]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for r in reports {
        for name in [r.a.as_str(), r.b.as_str()] {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The comparison table.
pub fn compare_text(scenario: &Scenario, reports: &[PairReport]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{}: {} backends compared, tolerance {} units",
        scenario.name,
        backends_of(reports).len(),
        scenario.tolerance
    )
    .unwrap();
    writeln!(
        out,
        "| backends | largest divergence | agent | at step | contacts | verdict |"
    )
    .unwrap();
    writeln!(out, "| --- | ---: | --- | ---: | --- | --- |").unwrap();
    for r in reports {
        let (d, agent, step) = largest_cells(scenario, r);
        let contacts = match &r.divergence.contacts {
            None => "same".to_string(),
            Some((i, x, y)) => format!("differ at #{i}: {x} / {y}"),
        };
        let verdict = if r.agrees() {
            match &r.reason {
                Some(reason) => format!("ok (expected, within {}: {reason})", r.tolerance),
                None => "ok".to_string(),
            }
        } else {
            format!("DIVERGES (tolerance {})", r.tolerance)
        };
        writeln!(
            out,
            "| {} vs {} | {d} | {agent} | {step} | {} | {} |",
            r.a, r.b, contacts, verdict
        )
        .unwrap();
    }
    out
}

/// The largest divergence of a pair as the tables write it: the distance, the agent and the
/// step where it is largest; for a divergence of zero `0 (none)` and no agent or step (`-`),
/// since every agent at every step is where the other backend has it.
pub fn largest_cells(scenario: &Scenario, r: &PairReport) -> (String, String, String) {
    let (d, agent, step) = r.divergence.largest();
    if d == 0.0 {
        return ("0 (none)".to_string(), "-".to_string(), "-".to_string());
    }
    (
        fixed(d, 6),
        scenario.agent_names[agent.0 as usize].clone(),
        step.to_string(),
    )
}

/// Every pair of runs compared: the first backend against each other one, in order.
pub fn pairs(scenario: &Scenario, outcomes: &[RunOutcome]) -> Vec<PairReport> {
    let mut reports = Vec::new();
    for (i, a) in outcomes.iter().enumerate() {
        for b in &outcomes[i + 1..] {
            let (tolerance, expected) = scenario.tolerance_between(a.backend, b.backend);
            reports.push(PairReport {
                a: a.backend.name().to_string(),
                b: b.backend.name().to_string(),
                divergence: cspace_scenario::run::diverge(a, b),
                tolerance,
                reason: expected.map(|e| e.reason.clone()),
            });
        }
    }
    reports
}

/// The comparison as JSON.
pub fn compare_json(scenario: &Scenario, reports: &[PairReport]) -> Value {
    json!({
        "scenario": scenario.name,
        "pairs": reports.iter().map(|r| {
            let (d, agent, step) = r.divergence.largest();
            // No agent or step for a divergence of zero (every agent is where the other has it).
            let (agent, step) = if d == 0.0 {
                (None, None)
            } else {
                (Some(&scenario.agent_names[agent.0 as usize]), Some(step))
            };
            json!({
                "backends": [r.a, r.b],
                "largest_divergence": d,
                "agent": agent,
                "step": step,
                "per_agent": r.divergence.per_agent.iter().map(|(d, s)| json!({"divergence": d, "step": s})).collect::<Vec<_>>(),
                "contacts_differ": r.divergence.contacts.as_ref().map(|(i, x, y)| json!({"index": i, "a": x, "b": y})),
                "tolerance": r.tolerance,
                "expected_reason": r.reason,
                "agrees": r.agrees(),
            })
        }).collect::<Vec<_>>(),
    })
}

/// The one line that ends a run on several backends: whether every expectation was met (or which
/// failed, with where each is written) and whether the backends agree (or the largest
/// divergence). Starts with `verdict: ok` or `verdict: FAILED`.
pub fn verdict_text(
    scenario: &Scenario,
    outcomes: &[RunOutcome],
    reports: &[PairReport],
) -> String {
    let checks: usize = outcomes.iter().map(|o| o.checks.len()).sum();
    let failed: Vec<String> = outcomes
        .iter()
        .flat_map(|o| {
            o.checks
                .iter()
                .filter(|c| c.failure.is_some())
                .map(move |c| {
                    format!(
                        "agent {} {} on {} ({})",
                        scenario.agent_names[c.expectation.agent.0 as usize],
                        c.expectation.check.describe(),
                        o.backend.name(),
                        c.expectation.written_at
                    )
                })
        })
        .collect();
    let names: Vec<&str> = outcomes.iter().map(|o| o.backend.name()).collect();
    let expectations = if failed.is_empty() {
        format!(
            "{} expectation(s) met on {} backends ({})",
            scenario.expectations.len(),
            outcomes.len(),
            names.join(", ")
        )
    } else {
        format!(
            "{} of {checks} expectation checks failed: {}",
            failed.len(),
            failed.join("; ")
        )
    };
    let diverging: Vec<&PairReport> = reports.iter().filter(|r| !r.agrees()).collect();
    let agreement = match diverging.first() {
        None => format!(
            "the backends agree within {} units{}",
            scenario.tolerance,
            declared_text(scenario, reports)
        ),
        Some(r) => {
            let (d, agent, step) = r.divergence.largest();
            format!(
                "{} pair(s) of backends diverge, the first {} and {} by {} units (agent {}, step {step}; tolerance {})",
                diverging.len(),
                r.a,
                r.b,
                fixed(d, 3),
                scenario.agent_names[agent.0 as usize],
                r.tolerance
            )
        }
    };
    let in_solid: u64 = outcomes
        .iter()
        .filter_map(|o| o.verification.as_ref())
        .map(|v| v.in_solid)
        .sum();
    let verified = if outcomes.iter().any(|o| o.verification.is_some()) {
        format!("; {in_solid} agent positions in solid (verified)")
    } else {
        String::new()
    };
    let ok = failed.is_empty() && diverging.is_empty() && in_solid == 0;
    format!(
        "verdict: {}: {expectations}; {agreement}{verified}",
        if ok { "ok" } else { "FAILED" }
    )
}

/// The declared differences that a comparison used, as `, except melax, melax-exact against
/// exact (up to 97.125 units, agent ball), declared: why`: one clause per declaration whose pairs
/// differ by more than the scenario's tolerance (the ones within it need no excuse), the later
/// ones after `; except`.
fn declared_text(scenario: &Scenario, reports: &[PairReport]) -> String {
    let mut first = true;
    scenario
        .expected_differences
        .iter()
        .filter_map(|d| {
            let (largest, agent) = reports
                .iter()
                .filter(|r| {
                    let in_group =
                        |name: &str, group: &[BackendKind]| group.iter().any(|b| b.name() == name);
                    (in_group(&r.a, &d.between) && in_group(&r.b, &d.and))
                        || (in_group(&r.b, &d.between) && in_group(&r.a, &d.and))
                })
                .map(|r| {
                    let (dist, agent, _) = r.divergence.largest();
                    (dist, agent)
                })
                .filter(|(dist, _)| *dist > scenario.tolerance || dist.is_nan())
                .max_by(|x, y| x.0.total_cmp(&y.0))?;
            Some(format!(
                "{} except {} (up to {} units, agent {}), declared: {}",
                if first { "," } else { ";" },
                d.describe(),
                fixed(largest, 3),
                scenario.agent_names[agent.0 as usize],
                d.reason
            ))
            .inspect(|_| first = false)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(super::count(1, "agent"), "1 agent");
        assert_eq!(super::count(3, "agent"), "3 agents");
        assert_eq!(super::count(1, "brush"), "1 brush");
        assert_eq!(super::count(0, "brush"), "0 brushes");
    }
}

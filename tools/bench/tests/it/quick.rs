use cspace_bench::suite::{self, Config};
use cspace_bench::{plot, report};

#[test]
fn tiny_suite_writes_every_section() {
    let config = Config::tiny();
    let result = suite::run(&config).expect("the tiny suite runs");
    let text = report::markdown(&result);
    for heading in [
        "## The command",
        "## Machine",
        "## Where we stand",
        "### Against the physical limit",
        "## Traces: random boxes 60",
        "## Traces: random boxes 30",
        "## Scaling",
        "## Build time and memory",
        "## One simulation on many threads",
        "## One full agent step",
        "## Blow's filter table",
    ] {
        assert!(text.contains(heading), "no {heading:?} in:\n{text}");
    }
    // Every query has its exact row and its parry row on the benchmark world.
    let world = &result.worlds[0];
    for query in cspace_bench::query::Query::ALL {
        for backend in ["exact", query.peer_name()] {
            let row = world
                .rows
                .iter()
                .find(|r| r.query == query && r.backend == backend)
                .unwrap_or_else(|| panic!("no {backend} row for {}", query.name()));
            assert!(row.figures.is_ok(), "{backend}: {:?}", row.figures);
        }
    }
    // The tree backends count their nodes (the nodes/trace and ns/node columns, empty until the
    // counts were taken from a tracer's own start rather than only when already non-zero), and
    // the onion reports the share its free-space index certified.
    let onion_box = world
        .rows
        .iter()
        .find(|r| r.backend == "onion")
        .and_then(|r| r.figures.as_ref().ok())
        .expect("an onion row");
    assert!(
        onion_box.nodes_per_trace.is_some_and(|n| n > 0.0),
        "{onion_box:?}"
    );
    assert!(onion_box.certified.is_some(), "{onion_box:?}");
    // The backends without a tree (the exact reference, and the k-UDOP cells over it) count no
    // nodes; every other one does.
    assert!(world.rows.iter().all(|r| {
        r.is_peer
            || r.backend == "exact"
            || r.backend == cspace_bench::ours::UDOP_EXACT
            || r.figures.as_ref().is_err()
            || r.figures
                .as_ref()
                .is_ok_and(|f| f.nodes_per_trace.is_some())
    }));
    // The k-UDOP cells certify and narrow the box traces, and agree with the exact reference.
    let udop_box = world
        .rows
        .iter()
        .find(|r| {
            r.backend == cspace_bench::ours::UDOP_EXACT
                && r.query == cspace_bench::query::Query::Box
        })
        .and_then(|r| r.figures.as_ref().ok())
        .expect("a udop+exact box row");
    assert!(
        udop_box.certified.is_some() && udop_box.narrowed.is_some(),
        "{udop_box:?}"
    );
    assert!(
        udop_box
            .vs_exact
            .as_ref()
            .is_some_and(|a| a.differing() == 0 && a.max_delta == 0.0),
        "{udop_box:?}"
    );
    // The exact reference agrees with itself: its rows carry no vs-exact figure.
    assert!(world.rows.iter().any(|r| r.backend == "exact"
        && r.figures.as_ref().is_ok_and(|f| f.vs_exact.is_none())));
    // Without CSPACE_MAPS the corpus is skipped by name.
    for name in suite::CORPUS {
        assert!(text.contains(&format!("{name}: skipped, CSPACE_MAPS is not set")));
    }
    // rapier's controller ran on the crowd.
    assert!(
        result.crowds[0]
            .rows
            .iter()
            .any(|r| r.is_peer && r.figures.is_ok())
    );
    // One simulation on 1, 2, ... threads: a row per thread count for both backends, each ending
    // on the one-thread fingerprint.
    assert!(result.threads.iter().any(|r| r.threads == 2));
    for row in &result.threads {
        let one = result
            .threads
            .iter()
            .find(|r| r.world == row.world && r.backend == row.backend && r.threads == 1)
            .expect("a one-thread row");
        assert_eq!(
            row.end_states, one.end_states,
            "{} threads on {}",
            row.threads, row.backend
        );
    }
    // Every plot draws.
    for series in [
        plot::trace_series(&result),
        plot::build_series(&result),
        plot::thread_series(&result),
    ] {
        assert!(!series.is_empty());
        let svg = plot::svg("test", "ns", &series).expect("the plot draws");
        assert!(svg.contains("<svg"));
    }
}

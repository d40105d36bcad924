//! The fuzzer in CI: every saved regression input is answered well, a few thousand fresh cases
//! (a fixed seed, so a failure here replays with `--seed 2026 --case N`) find nothing, and each
//! of issue 35's input classes is met as it must be (`tests/classes.rs`).

use std::path::Path;

use cspace_fuzz::{Fixtures, Target, Verdict, case_seed, run_input};
use cspace_geom::generate::Rng;

fn fixtures(test: &str) -> Fixtures {
    // The corpus adds excerpts of real maps to the `map` target when CSPACE_MAPS is set.
    let corpus = cspace_corpus::dir(test);
    Fixtures::new(corpus.as_deref()).expect("the fixtures build")
}

/// Every crasher the fuzzer (or the issue) found, kept in `regressions/TARGET/`: each is a located
/// error or a valid answer now.
#[test]
fn every_saved_regression_is_answered_well() {
    let fixtures = fixtures("every_saved_regression_is_answered_well");
    cspace_fuzz::quiet_panics();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut replayed = 0;
    let mut failures = Vec::new();
    for target in Target::ALL {
        let dir = root.join(target.name());
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let mut input = std::fs::read(&file).unwrap();
            if target == Target::Scenario {
                // A scenario case starts with the file name it is read as.
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                input = [format!("{name}\n").into_bytes(), input].concat();
            }
            replayed += 1;
            match run_input(&fixtures, target, &input) {
                Ok(verdict) => eprintln!("{}: {verdict:?}", file.display()),
                Err(failure) => failures.push(format!("{}: {failure}", file.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(replayed >= 9, "only {replayed} regressions found");
}

/// The megabyte number of issue 17's failure 11, made here rather than stored.
#[test]
fn a_megabyte_number_is_refused_in_a_short_error() {
    let fixtures = fixtures("a_megabyte_number_is_refused_in_a_short_error");
    let input = format!("0 0 0 {} 0 0\n", "9".repeat(1 << 20));
    match run_input(&fixtures, Target::Trace, input.as_bytes()) {
        Ok(Verdict::Refused(message)) => assert!(message.len() < 300, "{message}"),
        other => panic!("{other:?}"),
    }
}

/// 6,000 fresh cases, 1,000 per target.
#[test]
fn six_thousand_fresh_cases_find_nothing() {
    let fixtures = fixtures("six_thousand_fresh_cases_find_nothing");
    cspace_fuzz::quiet_panics();
    let seed = 2026;
    let n = Target::ALL.len() as u64;
    let mut counts = [[0u32; 2]; Target::ALL.len()];
    let mut failures = Vec::new();
    for case in 0..1000 * n {
        let target = Target::ALL[(case % n) as usize];
        let input = fixtures.input(target, &mut Rng::new(case_seed(seed, case)));
        match run_input(&fixtures, target, &input) {
            Ok(Verdict::Accepted) => counts[(case % n) as usize][0] += 1,
            Ok(Verdict::Refused(_)) => counts[(case % n) as usize][1] += 1,
            Err(failure) => failures.push(format!(
                "{} case {case} (cargo run -p cspace-fuzz -- --seed {seed} --case {case}): {failure}",
                target.name()
            )),
        }
    }
    for (target, [accepted, refused]) in Target::ALL.iter().zip(counts) {
        eprintln!("{}: {accepted} accepted, {refused} refused", target.name());
        // A target whose every case is refused tests only its parser.
        assert!(
            accepted >= 20,
            "{}: only {accepted} accepted",
            target.name()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! The corpus maps (directory in `CSPACE_MAPS`): every map compiles for the three Quake poses,
//! passes the validator and the nesting invariant on every leaf, and answers random box traces as the exact
//! backend. `CSPACE_ONION_CORPUS_TRACES` sets the traces per map and pose (default 300).
//! Unset `CSPACE_MAPS`: the tests print `skipped: <test> (CSPACE_MAPS unset)` and pass; set but
//! unreadable: they fail.

use std::path::PathBuf;
use std::sync::Arc;

use cspace_geom::World;
use cspace_mapfile::{BuildOptions, load_world};

use cspace_onion::{CompileOptions, OnionTree, compile};

use crate::common::{assert_agrees, compare_with, quake_poses};

/// The nesting invariant on every leaf: the crouching box lies inside the standing box, which
/// lies inside the large one, so solid for a smaller box implies solid for a larger one.
fn nested(name: &str, tree: &OnionTree) {
    let (stand, crouch, large) = (0, 1, 2);
    for leaf in 0..tree.leaf_count() as u32 {
        let s = |space| tree.leaf_is_solid(leaf, space);
        assert!(
            !s(crouch) || s(stand),
            "{name}: leaf {leaf} solid crouching, empty standing"
        );
        assert!(
            !s(stand) || s(large),
            "{name}: leaf {leaf} solid standing, empty large"
        );
    }
}

/// A corpus map: file name, world.
pub type CorpusMap = (String, Arc<World>);

/// Every `.map` of the corpus, or `None` when `CSPACE_MAPS` is unset.
pub fn corpus(test: &str) -> Option<Vec<CorpusMap>> {
    let Some(dir) = std::env::var_os("CSPACE_MAPS") else {
        eprintln!("skipped: {test} (CSPACE_MAPS unset)");
        return None;
    };
    let dir = PathBuf::from(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("CSPACE_MAPS={} cannot be read: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "CSPACE_MAPS={} holds no .map file",
        dir.display()
    );
    Some(
        paths
            .iter()
            .map(|path| {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read(path)
                    .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
                let loaded = load_world(&text, &name, &BuildOptions::default())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                (name, Arc::new(loaded.world))
            })
            .collect(),
    )
}

fn trace_count() -> usize {
    std::env::var("CSPACE_ONION_CORPUS_TRACES")
        .ok()
        .map(|v| v.parse().expect("CSPACE_ONION_CORPUS_TRACES is a count"))
        .unwrap_or(300)
}

#[test]
fn corpus_maps_agree_with_exact() {
    let Some(maps) = corpus("corpus_maps_agree_with_exact") else {
        return;
    };
    let count = trace_count();
    let mut failed = Vec::new();
    for (i, (name, world)) in maps.iter().enumerate() {
        let t = std::time::Instant::now();
        let poses = quake_poses();
        let compiled = compile(world, &poses, &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {}", compiled.stats);
        nested(name, &compiled.tree);
        let tally = compare_with(world, compiled, &poses, count, 100 + i as u64);
        eprintln!("{name}: {:.2} s", t.elapsed().as_secs_f64());
        if std::panic::catch_unwind(|| assert_agrees(name, &tally)).is_err() {
            failed.push(name.clone());
        }
    }
    assert!(failed.is_empty(), "disagreements on {failed:?}");
}

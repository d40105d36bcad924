//! The corpus maps (directory in `CSPACE_MAPS`): every map's graph for standing and crouching
//! builds, its portals are found from both cells, line of sight agrees with the exact point
//! trace, and no waypoint of a planned path is in solid (the tree's point query and the exact
//! backend). Unset `CSPACE_MAPS`: the test prints `skipped: <test> (CSPACE_MAPS unset)` and
//! passes; set but unreadable: it fails.
//!
//! `CSPACE_NAV_LOS_SEGMENTS` sets the line-of-sight segments per map (default 3,000; the issue's
//! figure is 100,000, see docs/navigation.md for the command) and `CSPACE_NAV_PAIRS` the random
//! pairs of areas of one component planned per map (default 200).

use cspace_geom::generate::Rng;
use cspace_nav::{NavContext, NavMesh, NavParams, NavPose};
use cspace_onion::{CompileOptions, compile};

use crate::common::{Exact, quake_poses, standing_point};
use crate::los::{compare, segments};

fn count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{var} is a count")))
        .unwrap_or(default)
}

#[test]
fn corpus_graphs_sight_and_paths() {
    let Some(maps) = cspace_corpus::maps("corpus_graphs_sight_and_paths") else {
        return;
    };
    let los_segments = count("CSPACE_NAV_LOS_SEGMENTS", 3000);
    let pairs = count("CSPACE_NAV_PAIRS", 200);
    let mut failed = Vec::new();
    for (i, map) in maps.iter().enumerate() {
        let started = std::time::Instant::now();
        let name = &map.name;
        let world = &map.world;
        let tree = compile(world, &quake_poses(), &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .tree;
        let nav = NavMesh::build(
            &tree,
            world,
            &[NavPose::stand(), NavPose::crouch()],
            &NavParams::default(),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        for pose in 0..nav.poses().len() {
            let graph = nav.leaf_graph(pose).unwrap();
            if !graph.one_sided().is_empty() {
                failed.push(format!("{name}: one-sided portals {:?}", graph.one_sided()));
            }
        }

        let los = nav.line_of_sight().expect("the tree has the point pose");
        let segments = segments(world, los_segments, 100 + i as u64);
        let sight = compare(name, world, los, &segments);
        if sight.disagreements > 0 {
            failed.push(format!("{name}: line of sight {sight:?}"));
        }

        let mut exact = Exact::new(world, &nav);
        let mut ctx = NavContext::new();
        let mut rng = Rng::new(200 + i as u64);
        let (mut found, mut waypoints, mut in_solid) = (0, 0, 0);
        let n = nav.areas().len();
        // Pairs within one component (areas joined by links), most of which reach each other.
        let mut members: Vec<Vec<u32>> = Vec::new();
        for a in 0..n as u32 {
            let c = nav.component(a) as usize;
            members.resize(members.len().max(c + 1), Vec::new());
            members[c].push(a);
        }
        for _ in 0..if n == 0 { 0 } else { pairs } {
            let a = rng.below(n) as u32;
            let group = &members[nav.component(a) as usize];
            let b = group[rng.below(group.len())];
            let pose = nav.areas()[a as usize].pose;
            let (from, to) = (standing_point(&nav, a), standing_point(&nav, b));
            // An area's centre can lie under a ceiling closer than the skin: such ends are
            // refused, not planned.
            let Ok(Some(path)) = nav.path(from, to, pose, &mut ctx) else {
                continue;
            };
            found += 1;
            for w in &path.waypoints {
                waypoints += 1;
                let space = nav.poses()[w.pose].space;
                if tree.is_solid(space, w.position) || exact.is_solid(w.pose, w.position) {
                    in_solid += 1;
                    eprintln!("{name}: waypoint in solid: {w:?}");
                }
            }
        }
        if in_solid > 0 {
            failed.push(format!("{name}: {in_solid} waypoints in solid"));
        }
        eprintln!(
            "{name}: {} areas, {} links; line of sight: {} segments, {} blocked, {} excluded \
             (contact scale), {} disagreements; {found} of {pairs} pairs planned, {waypoints} \
             waypoints, {in_solid} in solid; {:.1} s",
            nav.areas().len(),
            nav.links().len(),
            sight.segments,
            sight.blocked,
            sight.excluded,
            sight.disagreements,
            started.elapsed().as_secs_f64()
        );
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

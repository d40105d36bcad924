//! What `sim nav` and `sim path` print: the graph's statistics and a planned path, as text and
//! JSON.

use std::fmt::Write as _;

use cspace_geom::DVec3;
use cspace_nav::{LinkKind, NavMesh, Path};
use serde_json::{Value, json};

use cspace_scenario::trace::{compact_vector, fixed};
use cspace_sim::navigation::Navigation;

fn array(v: DVec3) -> Value {
    json!([v.x, v.y, v.z])
}

/// The statistics as JSON: per pose `name`, `regions`, `portals`, `areas` (kept), `areas_found`,
/// `links` by kind (`walk`, `step`, `drop`, `jump`, `crouch`, `stand`) and their total; then
/// `components`, `line_of_sight_nodes`, `tree_nodes`, `compile_seconds` (the onion tree) and
/// `build_seconds` (the graph).
pub fn stats_json(nav: &Navigation) -> Value {
    let stats = nav.mesh.stats();
    json!({
        "poses": stats.poses.iter().map(|p| {
            let links: serde_json::Map<String, Value> = LinkKind::ALL
                .iter()
                .zip(p.links)
                .map(|(k, n)| (k.name().to_string(), json!(n)))
                .collect();
            json!({
                "name": p.name,
                "regions": p.regions,
                "portals": p.portals,
                "areas": p.areas,
                "areas_found": p.areas_found,
                "links": links,
                "links_total": p.links.iter().sum::<usize>(),
            })
        }).collect::<Vec<_>>(),
        "components": stats.components,
        "line_of_sight_nodes": stats.los_nodes,
        "tree_nodes": nav.tree_stats.nodes,
        "compile_seconds": nav.tree_stats.compile_seconds.total,
        "build_seconds": stats.build_seconds,
    })
}

/// The statistics as a few lines of text.
pub fn stats_text(nav: &Navigation) -> String {
    let stats = nav.mesh.stats();
    let mut out = String::new();
    for p in &stats.poses {
        let _ = write!(
            out,
            "{}: {} areas ({} found), {} regions, {} portals; links",
            p.name, p.areas, p.areas_found, p.regions, p.portals
        );
        for (kind, n) in LinkKind::ALL.iter().zip(p.links) {
            let _ = write!(out, " {} {n}", kind.name());
        }
        let _ = writeln!(out, " ({} in all)", p.links.iter().sum::<usize>());
    }
    let _ = writeln!(
        out,
        "{} components; line of sight: {} nodes; tree: {} nodes compiled in {} s; graph built in {} s",
        stats.components,
        stats
            .los_nodes
            .map_or("none".to_string(), |n| n.to_string()),
        nav.tree_stats.nodes,
        fixed(nav.tree_stats.compile_seconds.total, 3),
        fixed(stats.build_seconds, 3),
    );
    out
}

/// A path as JSON: `reachable`, `from`, `to`, `pose`, and when reachable `waypoints` (each with
/// `position`, `kind`, `pose`, `area`), `length` (units, through the waypoints), `cost` (the
/// planner's estimate, seconds), `areas` and `links` (how many were passed and taken).
pub fn path_json(
    mesh: &NavMesh,
    from: DVec3,
    to: DVec3,
    pose: usize,
    path: Option<&Path>,
) -> Value {
    let name = |p: usize| mesh.poses()[p].name.clone();
    let mut value = json!({
        "reachable": path.is_some(),
        "from": array(from),
        "to": array(to),
        "pose": name(pose),
    });
    if let Some(path) = path {
        value["waypoints"] = path
            .waypoints
            .iter()
            .map(|w| {
                json!({
                    "position": array(w.position),
                    "kind": w.kind.name(),
                    "pose": name(w.pose),
                    "area": w.area,
                })
            })
            .collect();
        value["length"] = json!(path.length());
        value["cost"] = json!(path.cost);
        value["areas"] = json!(path.areas.len());
        value["links"] = json!(path.links.len());
    }
    value
}

/// A path as text: a summary line, then one line per waypoint (its number, how it is reached,
/// where, in which pose, on which area); or one line saying it is unreachable.
pub fn path_text(
    mesh: &NavMesh,
    from: DVec3,
    to: DVec3,
    pose: usize,
    path: Option<&Path>,
) -> String {
    let name = |p: usize| mesh.poses()[p].name.as_str();
    let (a, b) = (compact_vector(from, 3), compact_vector(to, 3));
    let Some(path) = path else {
        return format!(
            "unreachable: no path from {a} to {b} for pose {}\n",
            name(pose)
        );
    };
    let mut out = format!(
        "path from {a} to {b} for pose {}: {} waypoints, {} units, {} s estimated\n",
        name(pose),
        path.waypoints.len(),
        fixed(path.length(), 3),
        fixed(path.cost, 3),
    );
    for (i, w) in path.waypoints.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {i:>3} {:<6} {} {} area {}",
            w.kind.name(),
            compact_vector(w.position, 3),
            name(w.pose),
            w.area
        );
    }
    out
}

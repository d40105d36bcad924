//! Draws a map's walkable areas seen from above and one planned path, as SVG (the picture in
//! docs/navigation.md), and prints the graph's statistics and the path.
//!
//! `CSPACE_MAPS=../shared/maps cargo run --release -p cspace-nav --example nav_map -- quake_e1m1.map docs/navigation-e1m1.svg`
//!
//! The tree is compiled for standing, crouching and the point, with the outside filled from the
//! spawn points (the exterior of a sealed map has floors no agent reaches). The path drawn is the
//! costliest of the paths between 400 pairs of random areas (a fixed seed).

use std::fmt::Write as _;

use cspace_geom::DVec3;
use cspace_geom::generate::Rng;
use cspace_nav::{LinkKind, NavContext, NavMesh, NavParams, NavPose, Path};
use cspace_onion::{CompileOptions, Pose, compile};

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(map), Some(out)) = (args.next(), args.next()) else {
        eprintln!("usage: nav_map MAP.map OUT.svg (the map in CSPACE_MAPS)");
        std::process::exit(2);
    };
    let Some(map) = cspace_corpus::map("nav_map", &map) else {
        std::process::exit(2);
    };
    let poses = [
        Pose::quake_standing(),
        Pose::quake_crouching(),
        Pose::point(),
    ];
    let options = CompileOptions {
        fill_outside: true,
        spawn_points: map.spawns.clone(),
        ..CompileOptions::default()
    };
    let compiled = compile(&map.world, &poses, &options).expect("the map compiles");
    eprintln!("{}: tree: {}", map.name, compiled.stats);
    let nav = NavMesh::build(
        &compiled.tree,
        &map.world,
        &[NavPose::stand(), NavPose::crouch()],
        &NavParams::default(),
    )
    .expect("the graph builds");
    println!("{}", nav.stats());
    let path = costliest_path(&nav);
    if let Some(path) = &path {
        println!(
            "path: {} areas, {} waypoints, {:.0} units, {:.2} s",
            path.areas.len(),
            path.waypoints.len(),
            path.length(),
            path.cost
        );
        for w in &path.waypoints {
            let p = w.position;
            println!(
                "  {:>6} {:<7} ({:.1}, {:.1}, {:.1})",
                w.kind.name(),
                nav.poses()[w.pose].name,
                p.x + 0.0,
                p.y + 0.0,
                p.z + 0.0
            );
        }
    }
    std::fs::write(&out, svg(&nav, path.as_ref())).expect("the picture is written");
}

/// The costliest path between 400 pairs of random standing areas (their centres).
fn costliest_path(nav: &NavMesh) -> Option<Path> {
    let mut ctx = NavContext::new();
    let lift = DVec3::Z * nav.params().clearance;
    let standing: Vec<DVec3> = nav
        .areas()
        .iter()
        .filter(|a| a.pose == 0)
        .map(|a| a.centre + lift)
        .collect();
    let mut rng = Rng::new(1);
    (0..400)
        .filter_map(|_| {
            let (a, b) = (rng.below(standing.len()), rng.below(standing.len()));
            nav.path(standing[a], standing[b], 0, &mut ctx)
                .ok()
                .flatten()
        })
        .max_by(|a, b| a.cost.total_cmp(&b.cost))
}

fn colour(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Walk => "#d62728",
        LinkKind::Step => "#ff7f0e",
        LinkKind::Drop => "#9467bd",
        LinkKind::Jump => "#2ca02c",
        LinkKind::Crouch | LinkKind::StandUp => "#1f77b4",
        LinkKind::Teleport | LinkKind::Push => "#17becf",
    }
}

/// The areas from above (standing: grey, lighter higher; crouching only: blue), the path in red
/// with its waypoints coloured by how they are reached.
fn svg(nav: &NavMesh, path: Option<&Path>) -> String {
    let areas = nav.areas();
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for a in areas {
        lo = lo.min(a.bounds.min);
        hi = hi.max(a.bounds.max);
    }
    let scale = 1000.0 / (hi.x - lo.x).max(hi.y - lo.y);
    let (w, h) = ((hi.x - lo.x) * scale + 20.0, (hi.y - lo.y) * scale + 80.0);
    let at = |p: DVec3| (10.0 + (p.x - lo.x) * scale, 10.0 + (hi.y - p.y) * scale);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    // Lower floors first, so that upper ones cover them.
    let mut order: Vec<usize> = (0..areas.len()).collect();
    order.sort_by(|&a, &b| areas[a].centre.z.total_cmp(&areas[b].centre.z));
    for i in order {
        let a = &areas[i];
        let points: Vec<String> = a
            .polygon
            .vertices
            .iter()
            .map(|&v| {
                let (x, y) = at(v);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let fill = if a.pose == 0 {
            let t = ((a.centre.z - lo.z) / (hi.z - lo.z).max(1.0)).clamp(0.0, 1.0);
            let g = (90.0 + 140.0 * t) as u8;
            format!("rgb({g},{g},{g})")
        } else {
            "rgb(120,170,230)".to_string()
        };
        let _ = writeln!(
            s,
            r#"<polygon points="{}" fill="{fill}" stroke="white" stroke-width="0.3"/>"#,
            points.join(" ")
        );
    }
    if let Some(path) = path {
        let points: Vec<String> = path
            .waypoints
            .iter()
            .map(|wp| {
                let (x, y) = at(wp.position);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#d62728" stroke-width="2"/>"##,
            points.join(" ")
        );
        for wp in &path.waypoints {
            let (x, y) = at(wp.position);
            let _ = writeln!(
                s,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{}" stroke="black" stroke-width="0.5"/>"#,
                colour(wp.kind)
            );
        }
    }
    let y = h - 50.0;
    let mut x = 10.0;
    for kind in LinkKind::ALL
        .into_iter()
        // The picture is of a frozen world: no teleporter or push pad links.
        .filter(|&k| !matches!(k, LinkKind::StandUp | LinkKind::Teleport | LinkKind::Push))
    {
        let label = if kind == LinkKind::Crouch {
            "crouch / stand up"
        } else {
            kind.name()
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{x:.0}" cy="{y:.0}" r="5" fill="{}" stroke="black" stroke-width="0.5"/><text x="{:.0}" y="{:.0}" font-family="sans-serif" font-size="13">{label}</text>"#,
            colour(kind),
            x + 9.0,
            y + 4.0
        );
        x += 30.0 + 8.0 * label.len() as f64;
    }
    let _ = writeln!(
        s,
        r#"<text x="10" y="{:.0}" font-family="sans-serif" font-size="13">floors: grey (lighter higher), blue where only crouching fits; the path in red</text>"#,
        y + 30.0
    );
    s.push_str("</svg>\n");
    s
}

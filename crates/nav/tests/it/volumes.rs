//! The links of a living world (issue 32): a teleporter joins two rooms nothing else joins, one
//! way; a teleporter with several destinations is linked but not planned through; a teleporter
//! far cheaper than the walk is taken (the search's heuristic counts on it); a door's opening
//! time is paid once by the walk through it; a push pad's link lands where its arc does.

use cspace_geom::{Aabb, DVec3, World};
use cspace_nav::{
    Destination, Door, LinkKind, NavContext, NavMesh, NavParams, NavPose, NavVolumes, Path,
    PushPad, Teleporter,
};

use crate::common::{boxes, tree};

/// The graph of `world` for standing and crouching, with `volumes`.
fn graph(world: &World, volumes: &NavVolumes) -> NavMesh {
    NavMesh::build_with(
        &tree(world),
        world,
        &[NavPose::stand(), NavPose::crouch()],
        &NavParams::default(),
        volumes,
    )
    .expect("the graph builds")
}

fn plan(nav: &NavMesh, from: DVec3, to: DVec3) -> Option<Path> {
    nav.path(from, to, 0, &mut NavContext::new())
        .expect("both ends stand on floors")
}

/// The standing origin over the floor point `(x, y, z)`.
fn stand(x: f64, y: f64, z: f64) -> DVec3 {
    DVec3::new(x, y, z + 24.0)
}

/// Two rooms 1,024 units apart over nothing: room A over x -1024..-512, room B over 512..1024,
/// floors at z = 0.
fn two_rooms() -> std::sync::Arc<World> {
    boxes(&[
        ([-1024.0, -256.0, -16.0], [-512.0, 256.0, 0.0]),
        ([512.0, -256.0, -16.0], [1024.0, 256.0, 0.0]),
    ])
}

/// A teleporter in room A, 64 wide and 64 high on its floor around (-768, 0).
fn pad_of_a() -> Aabb {
    Aabb::new(
        DVec3::new(-800.0, -32.0, 0.0),
        DVec3::new(-736.0, 32.0, 64.0),
    )
}

#[test]
fn a_teleporter_joins_rooms_nothing_else_joins_one_way() {
    let world = two_rooms();
    let (a, b) = (stand(-960.0, 0.0, 0.0), stand(960.0, 0.0, 0.0));
    let frozen = graph(&world, &NavVolumes::default());
    assert!(plan(&frozen, a, b).is_none(), "no walk joins the rooms");

    // Quake 1: the destination's origin (here a standing origin) plus 27 up; the agent falls 27
    // units to the floor.
    let destination = DVec3::new(768.0, 0.0, 24.0 + 27.0);
    let volumes = NavVolumes {
        teleporters: vec![Teleporter {
            volume: pad_of_a(),
            destinations: vec![Destination {
                origin: destination,
                velocity: DVec3::ZERO,
            }],
        }],
        ..NavVolumes::default()
    };
    let nav = graph(&world, &volumes);
    let path = plan(&nav, a, b).expect("the teleporter joins them");
    let kinds: Vec<LinkKind> = path.waypoints.iter().map(|w| w.kind).collect();
    let at = kinds
        .iter()
        .position(|&k| k == LinkKind::Teleport)
        .expect("a teleport on the way");
    let (entry, landing) = (path.waypoints[at - 1], path.waypoints[at]);
    // Walked into the volume: the agent's box meets the trigger there.
    let (mins, maxs) = (nav.poses()[0].mins, nav.poses()[0].maxs);
    let touching = Aabb::new(entry.position + mins, entry.position + maxs);
    assert!(touching.intersects(&pad_of_a()), "entry {}", entry.position);
    // Lands below the destination, on room B's floor (the clearance above it).
    let floor = DVec3::new(768.0, 0.0, 24.0 + nav.params().clearance);
    assert!(
        landing.position.distance(floor) < 1e-9,
        "landing {}",
        landing.position
    );
    // The link costs the fall of 27 units and the teleporter's constant.
    let link = path
        .links
        .iter()
        .map(|&l| &nav.links()[l as usize])
        .find(|l| l.kind == LinkKind::Teleport)
        .expect("the teleport link");
    let fall = (2.0 * 27.0 / nav.params().gravity).sqrt();
    assert!((link.cost - (nav.params().trigger_cost + fall)).abs() < 1e-9);
    assert_eq!(link.outcomes, 1);
    // One-way: nothing leads back.
    assert!(plan(&nav, b, a).is_none(), "back from room B");
    assert!(nav.stats().poses[0].links[6] >= 1, "teleport links counted");
}

#[test]
fn a_teleporter_with_several_destinations_is_linked_but_not_planned_through() {
    let world = two_rooms();
    let volumes = NavVolumes {
        teleporters: vec![Teleporter {
            volume: pad_of_a(),
            destinations: [0.0, 128.0]
                .map(|y| Destination {
                    origin: DVec3::new(768.0, y, 25.0),
                    velocity: DVec3::ZERO,
                })
                .to_vec(),
        }],
        ..NavVolumes::default()
    };
    let nav = graph(&world, &volumes);
    let teleports: Vec<_> = nav
        .links()
        .iter()
        .filter(|l| l.kind == LinkKind::Teleport)
        .collect();
    assert_eq!(teleports.len(), 2, "a link to each destination");
    assert!(teleports.iter().all(|l| l.outcomes == 2));
    let (a, b) = (stand(-960.0, 0.0, 0.0), stand(960.0, 0.0, 0.0));
    assert!(
        plan(&nav, a, b).is_none(),
        "the landing is a draw: not planned through"
    );
}

#[test]
fn a_teleporter_cheaper_than_the_walk_is_taken() {
    // A floor 4,096 long, its east half a step of 8 higher (two areas: a path within one area
    // is walked, the search links areas); a teleporter near its west end lands near its east
    // end.
    let world = boxes(&[
        ([-2048.0, -256.0, -16.0], [0.0, 256.0, 0.0]),
        ([0.0, -256.0, -16.0], [2048.0, 256.0, 8.0]),
    ]);
    let volume = Aabb::new(
        DVec3::new(-1888.0, -32.0, 0.0),
        DVec3::new(-1824.0, 32.0, 64.0),
    );
    let volumes = NavVolumes {
        teleporters: vec![Teleporter {
            volume,
            destinations: vec![Destination {
                origin: DVec3::new(1856.0, 0.0, 33.0),
                velocity: DVec3::ZERO,
            }],
        }],
        ..NavVolumes::default()
    };
    let walking = graph(&world, &NavVolumes::default());
    let nav = graph(&world, &volumes);
    let (from, to) = (stand(-2000.0, 0.0, 0.0), stand(2000.0, 0.0, 8.0));
    let walk = plan(&walking, from, to).expect("a walk");
    let path = plan(&nav, from, to).expect("a path");
    assert!(
        path.waypoints.iter().any(|w| w.kind == LinkKind::Teleport),
        "{path:?}"
    );
    assert!(
        path.cost < 0.25 * walk.cost,
        "{} vs {}",
        path.cost,
        walk.cost
    );
    // A goal nearer than the teleporter is walked to.
    let near = plan(&nav, from, stand(-1000.0, 0.0, 0.0)).expect("a walk");
    assert!(near.waypoints.iter().all(|w| w.kind == LinkKind::Walk));
}

/// A wall at x = -16..16 with a doorway 128 wide (y -64..64) and 128 high; the door (when there
/// is one) stands closed in the doorway, 8 thick.
fn walled_rooms() -> std::sync::Arc<World> {
    boxes(&[
        ([-512.0, -512.0, -16.0], [512.0, 512.0, 0.0]),
        ([-16.0, -512.0, 0.0], [16.0, -64.0, 256.0]),
        ([-16.0, 64.0, 0.0], [16.0, 512.0, 256.0]),
        ([-16.0, -64.0, 128.0], [16.0, 64.0, 256.0]),
    ])
}

#[test]
fn a_walk_through_a_closed_door_waits_for_it_once() {
    let world = walled_rooms();
    let door = Door {
        volume: Aabb::new(DVec3::new(-4.0, -64.0, 0.0), DVec3::new(4.0, 64.0, 128.0)),
        opening: 1.5,
    };
    let open = graph(&world, &NavVolumes::default());
    let nav = graph(
        &world,
        &NavVolumes {
            doors: vec![door],
            ..NavVolumes::default()
        },
    );
    let (a, b) = (stand(-400.0, 0.0, 0.0), stand(400.0, 0.0, 0.0));
    let free = plan(&open, a, b).expect("through the doorway");
    let path = plan(&nav, a, b).expect("through the door");
    assert_eq!(path.waypoints.len(), free.waypoints.len());
    assert!(
        (path.cost - (free.cost + 1.5)).abs() < 1e-9,
        "{} = {} + 1.5",
        path.cost,
        free.cost
    );
    let waits: Vec<f64> = path.waypoints.iter().map(|w| w.wait).collect();
    assert_eq!(waits.iter().sum::<f64>(), 1.5, "{waits:?}");
    assert!(free.waypoints.iter().all(|w| w.wait == 0.0));
    // A walk that stays in one room waits for nothing.
    let inside = plan(&nav, a, stand(-400.0, 300.0, 0.0)).expect("a walk");
    assert_eq!(
        inside.cost,
        plan(&open, a, stand(-400.0, 300.0, 0.0)).unwrap().cost
    );
}

#[test]
fn a_push_pad_link_lands_where_its_arc_lands() {
    // A floor at z = 0 west of x = 100, a ledge at z = 128 east of it (no jump climbs it).
    let world = boxes(&[
        ([-512.0, -256.0, -16.0], [100.0, 256.0, 0.0]),
        ([100.0, -256.0, -16.0], [1024.0, 256.0, 128.0]),
    ]);
    let (from, to) = (stand(-300.0, 0.0, 0.0), stand(800.0, 0.0, 128.0));
    assert!(
        plan(&graph(&world, &NavVolumes::default()), from, to).is_none(),
        "no jump reaches the ledge"
    );
    // A pad 64 wide and 8 high around the origin: 300 units/s east and 600 up.
    let pad = PushPad {
        volume: Aabb::new(DVec3::new(-32.0, -32.0, 0.0), DVec3::new(32.0, 32.0, 8.0)),
        velocity: DVec3::new(300.0, 0.0, 600.0),
    };
    let nav = graph(
        &world,
        &NavVolumes {
            pads: vec![pad.clone()],
            ..NavVolumes::default()
        },
    );
    let path = plan(&nav, from, to).expect("the pad carries it up");
    let push = path
        .links
        .iter()
        .map(|&l| &nav.links()[l as usize])
        .find(|l| l.kind == LinkKind::Push)
        .expect("a push on the way");
    // The arc, continuous: the origin rises straight at the pad's velocity while the agent's
    // box meets the pad (to z = 8 + 24), then flies under gravity down onto the ledge's top
    // (the origin at z = 152, the floor of the ledge in configuration space).
    let params = nav.params();
    let start = push.start[0] + DVec3::Z * params.clearance;
    let v = pad.velocity;
    let t_out = (pad.volume.max.z + 24.0 - start.z) / v.z;
    let out = start + v * t_out;
    let g = params.gravity;
    let rise = 152.0 - out.z;
    let t = (v.z + (v.z * v.z - 2.0 * g * rise).sqrt()) / g;
    let landing = out + DVec3::new(v.x, v.y, 0.0) * t;
    // The planner traces it chord by chord (1/64 s, 4.7 units at 300 units/s across).
    let chord = v.x * params.arc_step;
    assert!(
        (push.end[0].x - landing.x).abs() < chord && (push.end[0].z - 152.0).abs() < 1e-6,
        "landed at {}, the arc at {landing}",
        push.end[0]
    );
    assert!((push.end[0].y - start.y).abs() < 1e-9);
    // One-way: no push back down.
    assert!(
        nav.links()
            .iter()
            .filter(|l| l.kind == LinkKind::Push)
            .all(|l| nav.areas()[l.to as usize].centre.z > 64.0)
    );
}

#[test]
fn volumes_beyond_the_domain_are_refused_by_name() {
    let world = two_rooms();
    let volumes = NavVolumes {
        pads: vec![PushPad {
            volume: pad_of_a(),
            velocity: DVec3::new(f64::NAN, 0.0, 0.0),
        }],
        ..NavVolumes::default()
    };
    let e = NavMesh::build_with(
        &tree(&world),
        &world,
        &[NavPose::stand()],
        &NavParams::default(),
        &volumes,
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("push pad 0: "), "{e}");
}

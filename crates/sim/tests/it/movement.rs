//! The movement model against the known failure modes of the engines we are measured against,
//! one test per failure mode, for every backend that supports the shape.

use std::sync::Arc;

use cspace_geom::generate::oriented_box;
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Plane, Shape, WithContext, World};
use cspace_sim::{
    Action, AgentSpec, AgentState, BackendKind, EventKind, MoveParams, Pose, Recording,
    ScriptEvent, Scripted, ScriptedAgent, Sim, SimConfig,
};

const DT: f64 = 1.0 / 64.0;
const SKIN: f64 = 1.0 / 32.0;

fn standing() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 32.0),
    )
    .unwrap()
}

fn crouching() -> Shape {
    Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 16.0),
    )
    .unwrap()
}

fn block(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

fn floor() -> Brush {
    block([-4096.0, -4096.0, -16.0], [4096.0, 4096.0, 0.0])
}

/// A vertical wall slab `thickness` thick whose near face runs from `a` to `b` (xy), solid on
/// the right of a -> b, 256 high.
fn wall(a: [f64; 2], b: [f64; 2], thickness: f64) -> Brush {
    let (a, b) = (DVec3::new(a[0], a[1], 0.0), DVec3::new(b[0], b[1], 0.0));
    let along = (b - a).normalize();
    let right = DVec3::new(along.y, -along.x, 0.0);
    let centre = (a + b) * 0.5 + right * (thickness * 0.5) + DVec3::new(0.0, 0.0, 128.0);
    let half = DVec3::new((b - a).length() * 0.5, thickness * 0.5, 128.0);
    oriented_box(centre, half, [along, right, DVec3::Z])
}

/// An agent and its script (agents are numbered by their place in the list they are run in).
fn agent(
    shape: Shape,
    crouch: Option<Shape>,
    start: [f64; 3],
    script: Vec<(f64, Action)>,
) -> ScriptedAgent {
    ScriptedAgent {
        spec: AgentSpec {
            crouching: crouch,
            ..AgentSpec::new(shape, DVec3::from_array(start))
        },
        script: script
            .into_iter()
            .map(|(at, action)| ScriptEvent { at, action })
            .collect(),
    }
}

fn player(start: [f64; 3], script: Vec<(f64, Action)>) -> ScriptedAgent {
    agent(standing(), Some(crouching()), start, script)
}

/// A run recording every event and every step's states.
fn recorded(params: MoveParams, dt: f64) -> SimConfig {
    SimConfig {
        params,
        dt,
        recording: Recording::Sampled { every: 1 },
        ..SimConfig::default()
    }
}

fn walk(x: f64, y: f64) -> Action {
    walk_at(x, y, 320.0)
}

fn walk_at(x: f64, y: f64, speed: f64) -> Action {
    Action::Move {
        direction: DVec3::new(x, y, 0.0),
        speed,
    }
}

/// Every agent shape the tests use, for every backend: box (standing and crouching), sphere and
/// cylinder.
fn all_shapes() -> Vec<Shape> {
    vec![
        standing(),
        crouching(),
        Shape::new_sphere(16.0).unwrap(),
        Shape::new_cylinder(16.0, 28.0).unwrap(),
    ]
}

/// Builds and runs the agents on every backend that supports their shapes.
fn run_all(
    brushes: Vec<Brush>,
    agents: Vec<ScriptedAgent>,
    params: MoveParams,
    dt: f64,
    steps: u64,
) -> Vec<Sim> {
    let world = Arc::new(World::from_brushes(brushes));
    let shapes: Vec<Shape> = agents
        .iter()
        .flat_map(|a| std::iter::once(a.spec.standing.clone()).chain(a.spec.crouching.clone()))
        .collect();
    let mut sims = Vec::new();
    for kind in BackendKind::ALL {
        let Some(collider) = kind.build_for(&world, &shapes).unwrap() else {
            eprintln!(
                "{}: not run on {} (shape not supported)",
                std::thread::current().name().unwrap_or("?"),
                kind.name()
            );
            continue;
        };
        let mut run = Scripted::new(collider, recorded(params, dt), &agents).unwrap();
        run.run(steps);
        sims.push(run.sim);
    }
    assert!(!sims.is_empty(), "no backend ran");
    sims
}

fn stuck_events(sim: &Sim) -> usize {
    sim.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Unstuck { .. } | EventKind::Stuck { .. }))
        .count()
}

/// Every sampled state of `agent`.
fn path(sim: &Sim, agent: usize) -> Vec<AgentState> {
    sim.samples().iter().map(|s| s.states[agent]).collect()
}

/// No sampled position of any agent is inside solid, by the exact backend.
fn assert_never_in_solid(sim: &Sim, world: &Arc<World>, shapes: &[Shape]) {
    let mut exact = WithContext::new(ExactCollider::new(world.clone()));
    for sample in sim.samples() {
        for s in &sample.states {
            let shape = &shapes[match s.pose {
                Pose::Standing => 0,
                Pose::Crouching => 1,
            }];
            let p = exact.prepare(shape).unwrap();
            assert!(
                !exact.is_solid(&p, s.position),
                "{}: step {} agent {} in solid at {}",
                sim.backend(),
                sample.step,
                s.id,
                s.position
            );
        }
    }
}

#[test]
fn seams_slide_along_a_wall_and_a_floor_of_touching_brushes() {
    // A floor of 64 touching tiles and a wall of 32 touching slabs along y = 64.
    let mut brushes = Vec::new();
    for i in 0..64 {
        let x = -1024.0 + 32.0 * i as f64;
        brushes.push(block([x, -256.0, -16.0], [x + 32.0, 256.0, 0.0]));
    }
    for i in 0..32 {
        let x = -1024.0 + 64.0 * i as f64;
        brushes.push(block([x, 64.0, 0.0], [x + 64.0, 80.0, 128.0]));
    }
    // Walk along +x pressed diagonally into the wall: the wall clips the y part away.
    let agents = vec![player([-900.0, 40.0, 24.5], vec![(0.0, walk(1.0, 0.2))])];
    for sim in run_all(brushes, agents, MoveParams::default(), DT, 200) {
        let s = &sim.states().collect::<Vec<_>>()[0];
        assert!(s.on_ground, "{}", sim.backend());
        // The wish keeps 98 % of its length along x; friction and acceleration settle just under it.
        assert!(
            s.velocity.x > 300.0,
            "{}: snagged at {:?}",
            sim.backend(),
            s
        );
        assert!(
            (s.position.y - (64.0 - 16.0 - SKIN)).abs() < 0.1,
            "{}: {:?}",
            sim.backend(),
            s
        );
        // Speed is kept through every seam: once up to speed, x advances by about the same each step.
        let xs: Vec<f64> = path(&sim, 0).iter().map(|s| s.position.x).collect();
        for w in xs[100..].windows(2) {
            assert!(
                (w[1] - w[0]) > 300.0 * DT * 0.95,
                "{}: slowed at x = {}",
                sim.backend(),
                w[0]
            );
        }
        // The floor (landing, normal +z) and the wall (normal -y) are touched; never a seam
        // between tiles or slabs, whose internal faces have normals along x.
        for e in sim.events() {
            if let EventKind::Contact(c) = e.kind {
                assert!(c.normal.x.abs() < 1e-9, "{}: seam hit {c:?}", sim.backend());
            }
        }
        assert_eq!(stuck_events(&sim), 0);
    }
}

#[test]
fn corner_a_v_and_a_diagonal_wall_never_stick_or_jitter() {
    // A 60-degree V opening towards -x, its apex at the origin; and a wall at 45 degrees.
    let v = vec![
        floor(),
        wall([0.0, 0.0], [-600.0, 346.4], 32.0),
        wall([-600.0, -346.4], [0.0, 0.0], 32.0),
    ];
    // Straight into the apex: wedged, it stops; it must not jitter or end up in solid.
    let agents = vec![player([-300.0, 0.0, 24.5], vec![(0.0, walk(1.0, 0.0))])];
    let world = Arc::new(World::from_brushes(v.clone()));
    for sim in run_all(v.clone(), agents, MoveParams::default(), DT, 300) {
        let p = path(&sim, 0);
        let last = p.last().unwrap().position;
        for s in &p[200..] {
            assert!(
                s.position.distance(last) < 1e-6,
                "{}: jitters: {} vs {}",
                sim.backend(),
                s.position,
                last
            );
        }
        // Wedged where the box's front corners meet the arms: 16 = (-x - 16) tan 30.
        let wedge = -16.0 - 16.0 / 30f64.to_radians().tan();
        assert!(
            (last.x - wedge).abs() < 0.1,
            "{}: stopped at {last}, not at {wedge}",
            sim.backend()
        );
        assert_never_in_solid(&sim, &world, &[standing(), crouching()]);
        assert_eq!(stuck_events(&sim), 0);
    }
    // Off-centre into one arm of the V: slides along it towards the apex and stops there too.
    let agents = vec![player([-300.0, 60.0, 24.5], vec![(0.0, walk(1.0, 0.0))])];
    for sim in run_all(v.clone(), agents, MoveParams::default(), DT, 300) {
        let end = sim.states().collect::<Vec<_>>()[0].position;
        assert!(
            end.x > -16.0 - 16.0 / 30f64.to_radians().tan() - 1.0 && end.y.abs() < 1.0,
            "{}: stuck on the arm at {end}",
            sim.backend()
        );
    }
    // A diagonal wall: walking into it at 45 degrees slides along it at 320 / sqrt(2).
    let diagonal = vec![floor(), wall([-500.0, -500.0], [500.0, 500.0], 32.0)];
    let agents = vec![player([-300.0, -200.0, 24.5], vec![(0.0, walk(1.0, 0.0))])];
    for sim in run_all(diagonal, agents, MoveParams::default(), DT, 300) {
        // The wish pushes along +x; the wall clips the part into it, so the agent slides along
        // the wall, smoothly: no oscillation of speed or direction once settled.
        // (The wall ends 1000 units on, about 150 steps in: look before that.)
        let p = path(&sim, 0);
        let steps: Vec<DVec3> = p[60..140]
            .windows(2)
            .map(|w| w[1].position - w[0].position)
            .collect();
        for w in steps.windows(2) {
            assert!(
                w[0].length() / DT > 200.0,
                "{}: sticks on the diagonal: {} u/s",
                sim.backend(),
                w[0].length() / DT
            );
            assert!(
                w[0].distance(w[1]) < 1e-6,
                "{}: jitters: {} then {}",
                sim.backend(),
                w[0],
                w[1]
            );
            assert!(
                (w[0].x - w[0].y).abs() < 1e-6,
                "{}: not along the wall: {}",
                sim.backend(),
                w[0]
            );
        }
        assert_eq!(stuck_events(&sim), 0);
    }
}

/// A flight of `count` steps of `riser` units rising along +x from x = 0, `tread` deep.
fn stairs(count: usize, riser: f64, tread: f64) -> Vec<Brush> {
    let mut brushes = vec![floor()];
    for i in 0..count {
        let x = i as f64 * tread;
        brushes.push(block(
            [x, -128.0, 0.0],
            [x + tread, 128.0, riser * (i + 1) as f64],
        ));
    }
    brushes
}

#[test]
fn stairs_16_unit_risers_are_walked_up_20_block_even_beside_a_wall() {
    let top = 8.0 * 16.0;
    let agents = vec![player([-200.0, 0.0, 24.5], vec![(0.0, walk(1.0, 0.0))])];
    for sim in run_all(
        stairs(8, 16.0, 32.0),
        agents.clone(),
        MoveParams::default(),
        DT,
        160,
    ) {
        let p = path(&sim, 0);
        let highest = p
            .iter()
            .map(|s| s.position.z)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            highest > top + 24.0 - 0.1,
            "{}: did not climb: {highest}",
            sim.backend()
        );
        // At walk speed: the climb (8 treads of 32 from x = 0) takes about 256 / 320 s; allow
        // a quarter more.
        let start = p.iter().position(|s| s.position.x > -16.0).unwrap();
        let done = p
            .iter()
            .position(|s| s.position.z > top + 24.0 - 0.1)
            .unwrap();
        assert!(
            ((done - start) as f64 * DT) < 1.25 * 256.0 / 320.0,
            "{}: climbing too slow",
            sim.backend()
        );
        assert_eq!(stuck_events(&sim), 0);
    }
    for sim in run_all(
        stairs(4, 20.0, 32.0),
        agents.clone(),
        MoveParams::default(),
        DT,
        160,
    ) {
        let end = sim.states().collect::<Vec<_>>()[0];
        assert!(
            end.position.z < 24.5 + 1e-6 && end.position.x < -16.0 + 1e-6,
            "{}: climbed a 20-unit riser: {end:?}",
            sim.backend()
        );
    }
    // Beside a wall along the flight (y = 128 .. 144), pressed into it while climbing.
    let mut brushes = stairs(8, 16.0, 32.0);
    brushes.push(block([-400.0, 128.0, 0.0], [400.0, 144.0, 400.0]));
    let agents = vec![player([-200.0, 100.0, 24.5], vec![(0.0, walk(1.0, 0.3))])];
    for sim in run_all(brushes, agents, MoveParams::default(), DT, 200) {
        let highest = path(&sim, 0)
            .iter()
            .map(|s| s.position.z)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            highest > top + 24.0 - 0.1,
            "{}: did not climb beside the wall: {highest}",
            sim.backend()
        );
        assert_eq!(stuck_events(&sim), 0);
    }
}

/// A ramp rising along +x with the given normal z, from x = 0.
fn ramp(normal_z: f64) -> Vec<Brush> {
    let nx = -(1.0 - normal_z * normal_z).sqrt();
    let slope = Plane::new(DVec3::new(nx, 0.0, normal_z), 0.0).unwrap();
    let planes = [
        slope,
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::X, 1000.0).unwrap(),
        Plane::new(DVec3::Y, 256.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 256.0).unwrap(),
    ];
    vec![floor(), Brush::from_planes(&planes).unwrap()]
}

#[test]
fn slope_walkable_just_above_0_7_slides_just_below() {
    // On the ramp at x = 300: the surface height there is 300 * tan(angle).
    for (normal_z, walkable) in [(0.71f64, true), (0.69f64, false)] {
        let tan = (1.0 - normal_z * normal_z).sqrt() / normal_z;
        // Resting on the slope: the box's bottom edge on the uphill side touches it.
        let start = [300.0, 0.0, (300.0 + 16.0) * tan + 24.0 + SKIN];
        let agents = vec![player(start, vec![])];
        for sim in run_all(ramp(normal_z), agents, MoveParams::default(), DT, 128) {
            let p = path(&sim, 0);
            let end = p.last().unwrap();
            if walkable {
                assert!(
                    end.on_ground,
                    "{}: {normal_z} not walkable: {end:?}",
                    sim.backend()
                );
                assert!(
                    (end.position.x - 300.0).abs() < 1e-9,
                    "{}: slid on a walkable slope: {end:?}",
                    sim.backend()
                );
            } else {
                assert!(
                    end.position.x < 200.0,
                    "{}: did not slide down a steep slope: {end:?}",
                    sim.backend()
                );
            }
            assert_eq!(stuck_events(&sim), 0, "{}", sim.backend());
        }
    }
}

/// A terrain tetrahedron of ericw_q1_mountain.map (its 4 planes as normal and distance), moved
/// by `-at`.
fn mountain_brush(planes: [[f64; 4]; 4], at: DVec3) -> Brush {
    let planes = planes.map(|[x, y, z, d]| {
        let n = DVec3::new(x, y, z);
        Plane::new(n, d - n.dot(at)).unwrap()
    });
    Brush::from_planes(&planes).unwrap()
}

#[test]
fn a_seam_onto_a_slightly_steeper_slope_is_crossed_not_stood_at() {
    // Two terrain brushes of ericw_q1_mountain.map (lines 1986 and 2084): a walkable face
    // (normal z 0.713) meeting a steeper one (0.677) 3 degrees off it, within the 0.99 that
    // Quake III's slide move takes for "the same plane again". An agent on the first walking
    // -x at 154 units/s met the second with its box's lower edge, and its velocity went into
    // it: Quake III's nudge alone left it so, and the agent stood there at full speed, step
    // after step (the goto validation found one standing still for 95 s).
    let at = DVec3::new(570.731, -2940.46, -883.285);
    let walkable = mountain_brush(
        [
            [
                -0.06701444421058719,
                -0.6981686642302993,
                0.7127899975126093,
                1355.7119539357004,
            ],
            [
                -0.029862840131990556,
                0.7451097369560541,
                -0.666272985098849,
                -1592.0187083557748,
            ],
            [
                0.070240079203773,
                0.6609912096433089,
                -0.7470990242583128,
                -1213.8568200313084,
            ],
            [
                0.14725460270401486,
                0.6921135304702409,
                -0.7066080546685706,
                -1249.3930263052682,
            ],
        ],
        at,
    );
    let steeper = mountain_brush(
        [
            [
                -0.05324783858598123,
                -0.7338941231198283,
                0.6771735994086743,
                1500.6734168133335,
            ],
            [
                -0.045355914917036666,
                0.776253647225389,
                -0.6287870197064502,
                -1670.8265679618285,
            ],
            [
                0.055975266641832506,
                0.7000878572980924,
                -0.7118593692493916,
                -1368.6313728210496,
            ],
            [
                0.13565939943796534,
                0.7281426594993009,
                -0.6718666495379985,
                -1440.457888593704,
            ],
        ],
        at,
    );
    let mut walker = player([0.0; 3], vec![(0.0, walk_at(-1.0, 0.0, 160.0))]);
    walker.spec.velocity = DVec3::new(-153.659, -6.352, 0.0);
    for sim in run_all(
        vec![walkable, steeper],
        vec![walker],
        MoveParams::default(),
        DT,
        32,
    ) {
        let end = *path(&sim, 0).last().unwrap();
        assert!(
            end.position.x < -60.0,
            "{}: stood at the seam: {end:?}",
            sim.backend()
        );
        // Melax's paper bevels (docs/melax.md) put the start, on the terrain's sharp edges, just
        // inside solid and nudge it a unit up: the approximation, not the slide.
        if sim.backend() != "melax" {
            assert_eq!(stuck_events(&sim), 0, "{}", sim.backend());
        }
    }
}

#[test]
fn tiny_moves_never_end_inside_solid() {
    // A very slow push into a 16-unit step, and thousands of tiny moves into a wall.
    let brushes = vec![
        floor(),
        block([0.0, -256.0, 0.0], [256.0, 256.0, 16.0]),
        block([300.0, -256.0, 0.0], [316.0, 256.0, 256.0]),
    ];
    let world = Arc::new(World::from_brushes(brushes.clone()));
    let agents = vec![
        player([-17.0, 0.0, 24.5], vec![(0.0, walk_at(1.0, 0.0, 0.5))]),
        // Slow walking is slower still: friction acts as if at the stop speed, so a 2 u/s wish
        // moves at about accelerate * dt * 2 = 0.31 u/s. Start 5 units from the wall.
        player([279.0, 100.0, 40.5], vec![(0.0, walk_at(1.0, 0.3, 2.0))]),
    ];
    for sim in run_all(brushes, agents, MoveParams::default(), DT, 3000) {
        assert_never_in_solid(&sim, &world, &[standing(), crouching()]);
        assert_eq!(stuck_events(&sim), 0, "{}", sim.backend());
        let s: Vec<_> = sim.states().collect();
        assert!(
            s[1].position.x > 300.0 - 16.0 - 0.1,
            "{}: never reached the wall: {:?}",
            sim.backend(),
            s[1]
        );
    }
}

#[test]
fn start_in_solid_on_a_face_just_inside_and_deep_inside() {
    let brushes = vec![floor()];
    let world = Arc::new(World::from_brushes(brushes.clone()));
    let agents = vec![
        player([0.0, 0.0, 24.0], vec![]),
        player([200.0, 0.0, 24.0 - 1e-6], vec![]),
        player([400.0, 0.0, 10.0], vec![]),
    ];
    for sim in run_all(brushes, agents, MoveParams::default(), DT, 64) {
        let events = sim.events();
        let of = |id: u32| {
            events
                .iter()
                .filter(|e| e.agent.0 == id)
                .map(|e| e.kind)
                .collect::<Vec<_>>()
        };
        // Exactly on the face: touching is free; nothing to fix.
        assert!(
            !of(0)
                .iter()
                .any(|k| matches!(k, EventKind::Unstuck { .. } | EventKind::Stuck { .. }))
        );
        // 1e-6 inside: nudged out within a unit, at the start, and recorded.
        assert!(
            matches!(of(1)[0], EventKind::Unstuck { nudged: true, .. }),
            "{}: {:?}",
            sim.backend(),
            of(1)
        );
        // Deep inside: freed by the wider search, and recorded.
        assert!(
            matches!(of(2)[0], EventKind::Unstuck { nudged: false, .. }),
            "{}: {:?}",
            sim.backend(),
            of(2)
        );
        assert_never_in_solid(&sim, &world, &[standing(), crouching()]);
        for s in sim.states() {
            assert!(s.on_ground, "{}: {s:?}", sim.backend());
        }
    }
}

#[test]
fn uncrouch_under_a_low_ceiling_is_refused_until_the_agent_has_left_it() {
    // A tunnel from x = 0 to 256 with its ceiling at z = 48: a standing player (56 tall) does
    // not fit, a crouching one (40) does.
    let brushes = vec![floor(), block([0.0, -256.0, 48.0], [256.0, 256.0, 128.0])];
    let agents = vec![player(
        [-100.0, 0.0, 24.5],
        // Crouched, it walks at 80 u/s: at 1.5 s it is 20 units into the tunnel.
        vec![
            (0.0, Action::Crouch),
            (0.0, walk(1.0, 0.0)),
            (1.5, Action::Stand),
        ],
    )];
    for sim in run_all(brushes, agents, MoveParams::default(), DT, 640) {
        let p = path(&sim, 0);
        let refused = sim
            .events()
            .iter()
            .filter(|e| e.kind == EventKind::StandRefused)
            .count();
        assert!(refused >= 1, "{}: no refusal recorded", sim.backend());
        for s in &p {
            // Inside the tunnel (the box overlaps x 0..256), it stays crouched.
            if s.position.x + 16.0 > 0.0 && s.position.x - 16.0 < 256.0 {
                assert_eq!(
                    s.pose,
                    Pose::Crouching,
                    "{}: stood inside at {}",
                    sim.backend(),
                    s.position
                );
            }
        }
        let end = p.last().unwrap();
        assert!(
            end.position.x > 256.0 + 16.0,
            "{}: never left the tunnel: {end:?}",
            sim.backend()
        );
        assert_eq!(
            end.pose,
            Pose::Standing,
            "{}: never stood up",
            sim.backend()
        );
    }
}

#[test]
fn fall_from_a_height_onto_a_ledge_lands_without_bouncing_through() {
    let brushes = vec![floor(), block([-64.0, -64.0, 0.0], [64.0, 64.0, 128.0])];
    let agents = vec![player([0.0, 0.0, 600.0], vec![])];
    for sim in run_all(brushes, agents, MoveParams::default(), DT, 128) {
        let p = path(&sim, 0);
        for s in &p {
            assert!(
                s.position.z >= 128.0 + 24.0,
                "{}: fell into the ledge: {s:?}",
                sim.backend()
            );
        }
        let end = p.last().unwrap();
        assert!(end.on_ground, "{}", sim.backend());
        assert!(
            (end.position.z - (128.0 + 24.0 + SKIN)).abs() < 1e-6,
            "{}: {end:?}",
            sim.backend()
        );
        // Free fall of 600 - 152 units takes sqrt(2 h / g) seconds.
        let landed = p.iter().position(|s| s.on_ground).unwrap() as f64 * DT;
        assert!(
            (landed - (2.0 * (600.0 - 152.0) / 800.0f64).sqrt()).abs() <= DT,
            "{}: landed at {landed}",
            sim.backend()
        );
    }
}

#[test]
fn thin_wall_one_unit_thick_stops_3000_units_per_second() {
    let brushes = vec![floor(), block([100.0, -256.0, 0.0], [101.0, 256.0, 256.0])];
    for shape in all_shapes() {
        let mut a = agent(shape.clone(), None, [0.0, 0.0, 64.0], vec![]);
        a.spec.velocity = DVec3::new(3000.0, 0.0, 0.0);
        let params = MoveParams {
            gravity: 0.0,
            ..MoveParams::default()
        };
        for dt in [1.0 / 64.0, 1.0 / 8.0] {
            for sim in run_all(brushes.clone(), vec![a.clone()], params, dt, 64) {
                let limit = 100.0 - shape.bounds().max.x;
                for s in path(&sim, 0) {
                    assert!(
                        s.position.x <= limit,
                        "{} {} dt {dt}: tunnelled to {}",
                        sim.backend(),
                        shape.describe(),
                        s.position
                    );
                }
                assert!(
                    (sim.states().collect::<Vec<_>>()[0].position.x - (limit - SKIN)).abs() < 1e-6,
                    "{}",
                    sim.backend()
                );
            }
        }
    }
}

fn jump_run(dt: f64) -> Vec<Sim> {
    // Already walking at full speed, so only the jump differs between time steps.
    let mut a = player(
        [0.0, 0.0, 24.0 + SKIN],
        vec![(0.0, walk(1.0, 0.0)), (0.0, Action::Jump)],
    );
    a.spec.velocity = DVec3::new(320.0, 0.0, 0.0);
    let steps = (1.5 / dt).round() as u64;
    run_all(vec![floor()], vec![a], MoveParams::default(), dt, steps)
}

#[test]
fn jump_height_and_landing_do_not_depend_on_the_time_step_and_repeat_bit_for_bit() {
    let apex = 270.0 * 270.0 / (2.0 * 800.0);
    let airtime = 2.0 * 270.0 / 800.0;
    for dt in [1.0 / 120.0, 1.0 / 60.0, 1.0 / 30.0] {
        for sim in jump_run(dt) {
            let p = path(&sim, 0);
            let top = p
                .iter()
                .map(|s| s.position.z)
                .fold(f64::NEG_INFINITY, f64::max);
            // Gravity is integrated by the half-step average, exact for positions; sampling at
            // steps misses the apex by at most g dt^2 / 8.
            let base = 24.0 + SKIN;
            assert!(
                top <= base + apex + 1e-9 && top >= base + apex - 800.0 * dt * dt / 8.0 - 1e-9,
                "{} dt {dt}: apex {top}",
                sim.backend()
            );
            let left = p.iter().position(|s| !s.on_ground).unwrap();
            let back = left + p[left..].iter().position(|s| s.on_ground).unwrap();
            assert!(
                ((back - left) as f64 * dt - airtime).abs() <= dt + 1e-9,
                "{} dt {dt}: airtime",
                sim.backend()
            );
            // Landing and walking on at 320 u/s: at 1.5 s the agent is 480 units on, within half a
            // unit whatever the step (stated tolerance: the touchdown is inside a step, and the
            // skin is taken from the fall once).
            let end = p.last().unwrap().position;
            assert!(
                (end.x - 480.0).abs() < 0.5,
                "{} dt {dt}: at {end}",
                sim.backend()
            );
            assert!(
                (end.z - base).abs() < 1e-9,
                "{} dt {dt}: resting at z {}",
                sim.backend(),
                end.z
            );
        }
    }
    // Bit for bit on repeat.
    for dt in [1.0 / 60.0, 1.0 / 30.0] {
        let (a, b) = (jump_run(dt), jump_run(dt));
        for (sa, sb) in a.iter().zip(&b) {
            assert_eq!(sa.samples().len(), sb.samples().len());
            for (x, y) in sa.samples().iter().zip(sb.samples()) {
                for (s, t) in x.states.iter().zip(&y.states) {
                    assert_eq!(
                        s.position.to_array().map(f64::to_bits),
                        t.position.to_array().map(f64::to_bits)
                    );
                    assert_eq!(
                        s.velocity.to_array().map(f64::to_bits),
                        t.velocity.to_array().map(f64::to_bits)
                    );
                }
            }
        }
    }
}

#[test]
fn agent_vs_agent_neither_passes_through_the_other() {
    let shapes = [
        standing(),
        Shape::new_sphere(16.0).unwrap(),
        Shape::new_cylinder(16.0, 28.0).unwrap(),
    ];
    for a in &shapes {
        for b in &shapes {
            let lift = |s: &Shape| -s.bounds().min.z + 0.5;
            let agents = vec![
                agent(
                    a.clone(),
                    None,
                    [-200.0, 0.0, lift(a)],
                    vec![(0.0, walk(1.0, 0.0))],
                ),
                agent(b.clone(), None, [0.0, 0.0, lift(b)], vec![]),
                // And two walking head-on.
                agent(
                    a.clone(),
                    None,
                    [-200.0, 300.0, lift(a)],
                    vec![(0.0, walk(1.0, 0.0))],
                ),
                agent(
                    b.clone(),
                    None,
                    [200.0, 300.0, lift(b)],
                    vec![(0.0, walk(-1.0, 0.0))],
                ),
            ];
            for sim in run_all(vec![floor()], agents, MoveParams::default(), DT, 200) {
                for sample in sim.samples() {
                    for (i, j) in [(0, 1), (2, 3)] {
                        let (si, sj) = (&sample.states[i], &sample.states[j]);
                        let overlap = cspace_contact::time_of_impact(
                            &[a, b, a, b][i].clone(),
                            si.position,
                            DVec3::ZERO,
                            &[a, b, a, b][j].clone(),
                            sj.position,
                            DVec3::ZERO,
                        )
                        .unwrap();
                        assert!(
                            overlap.is_none(),
                            "{} {}-{}: step {}: {overlap:?}",
                            sim.backend(),
                            a.describe(),
                            b.describe(),
                            sample.step
                        );
                        assert!(
                            si.position.x < sj.position.x,
                            "{}: passed through",
                            sim.backend()
                        );
                    }
                }
                let contacts = sim.events().iter().filter(|e| matches!(e.kind, EventKind::Contact(c) if matches!(c.target, cspace_sim::Touched::Agent(_)))).count();
                assert!(
                    contacts >= 2,
                    "{}: {contacts} agent contacts",
                    sim.backend()
                );
            }
        }
    }
}

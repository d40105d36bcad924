//! The two movement profiles (`docs/movement.md`).
//!
//! - Slopes: walked down at the speed Quake III walks them (the speed along the ground kept:
//!   `320 cos(angle)` horizontally), up, and across, in both profiles, on every backend.
//! - Quake III's profile against values derived by hand from ioquake3's `bg_pmove.c`,
//!   `bg_slidemove.c` and `cm_trace.c` (a 1/8 trace epsilon, friction 6, 125 Hz, the velocity
//!   rounded to integers every frame): a drop and its landing height, an overbounce, a wall stop
//!   at 112.875, 16-unit stairs, 40- and 41-unit tunnels crouched, a ramp down and up, a jump's
//!   apex, a hard landing beside a wall (the landing timer), a crouched jump's air control.
//! - Each difference of the cspace profile from Quake III shown on purpose.

use std::sync::Arc;

use cspace_geom::{Aabb, Brush, DVec3, Plane, Shape, World};
use cspace_sim::params::Profile;
use cspace_sim::{
    AgentSpec, BackendKind, Ground, Intent, MoveParams, Player, PlayerMove, Pose, Sim, SimConfig,
};

/// Quake III's frame: 8 ms (125 Hz).
const DT: f64 = 0.008;
/// Quake III's trace epsilon, units.
const EPSILON: f64 = 0.125;
/// The height a Quake III player's origin rests at over a floor whose top is at 0: its box
/// reaches 24 down, and its trace stops 1/8 short.
const REST: f64 = 24.0 + EPSILON;

fn block(min: [f64; 3], max: [f64; 3]) -> Brush {
    Brush::from_aabb(Aabb::new(DVec3::from_array(min), DVec3::from_array(max))).unwrap()
}

fn floor() -> Brush {
    block([-2048.0, -1024.0, -16.0], [2048.0, 1024.0, 0.0])
}

/// Quake III's player: 30 units wide, 56 tall standing, 40 crouched.
fn q3_player() -> (Shape, Shape) {
    (
        Shape::new_box(
            DVec3::new(-15.0, -15.0, -24.0),
            DVec3::new(15.0, 15.0, 32.0),
        )
        .unwrap(),
        Shape::new_box(
            DVec3::new(-15.0, -15.0, -24.0),
            DVec3::new(15.0, 15.0, 16.0),
        )
        .unwrap(),
    )
}

/// A controller of `params` on the exact reference over `brushes`, and its prepared shapes.
fn controller(
    brushes: Vec<Brush>,
    params: MoveParams,
) -> (PlayerMove, cspace_geom::ExactCollider, cspace_sim::PoseSet) {
    let collider = cspace_geom::ExactCollider::new(Arc::new(World::from_brushes(brushes)));
    let pm = PlayerMove::new(params).unwrap();
    let (standing, crouching) = q3_player();
    let shapes = pm.prepare(&collider, &standing, Some(&crouching)).unwrap();
    (pm, collider, shapes)
}

/// Runs `frames` frames of `DT`, `intent` each frame, and returns the player after each.
fn frames(
    brushes: Vec<Brush>,
    params: MoveParams,
    mut player: Player,
    frames: usize,
    mut intent: impl FnMut(usize, &Player) -> Intent,
) -> Vec<Player> {
    let (pm, collider, shapes) = controller(brushes, params);
    let mut ctx = cspace_geom::QueryContext::new();
    let mut out = Vec::with_capacity(frames);
    for f in 0..frames {
        let jump = player.intent.jump;
        player.intent = intent(f, &player);
        player.intent.jump |= jump;
        pm.step(&collider, &mut ctx, &shapes, &mut player, DT, |_| {});
        out.push(player);
    }
    out
}

fn close(a: f64, b: f64, tolerance: f64, what: &str) {
    assert!(
        (a - b).abs() <= tolerance,
        "{what}: {a} against {b} (tolerance {tolerance}, off by {})",
        (a - b).abs()
    );
}

/// A ramp rising along +x at `degrees` from x = 0 to 1000, between y = -256 and 256, on the
/// floor.
fn ramp(degrees: f64) -> Vec<Brush> {
    let (s, c) = degrees.to_radians().sin_cos();
    let planes = [
        Plane::new(DVec3::new(-s, 0.0, c), 0.0).unwrap(),
        Plane::new(DVec3::NEG_Z, 0.0).unwrap(),
        Plane::new(DVec3::X, 1000.0).unwrap(),
        Plane::new(DVec3::Y, 256.0).unwrap(),
        Plane::new(DVec3::NEG_Y, 256.0).unwrap(),
    ];
    vec![floor(), Brush::from_planes(&planes).unwrap()]
}

/// Every backend's simulation of one Quake player on `brushes` under `params`.
fn sims(brushes: &[Brush], params: MoveParams, spec: AgentSpec) -> Vec<Sim> {
    let world = Arc::new(World::from_brushes(brushes.to_vec()));
    BackendKind::ALL
        .iter()
        .map(|&kind| {
            let mut sim = empty_sim(kind, &world, params, &spec);
            sim.spawn(spec.clone()).unwrap();
            sim
        })
        .collect()
}

/// A simulation on `kind` over `world` under `params` at Quake III's frame, its backend built
/// for `spec`'s shapes, with no agent yet.
fn empty_sim(kind: BackendKind, world: &Arc<World>, params: MoveParams, spec: &AgentSpec) -> Sim {
    let collider = kind
        .build_for(world, &spec.shapes(&params))
        .unwrap()
        .unwrap();
    let config = SimConfig {
        params,
        dt: DT,
        ..SimConfig::default()
    };
    Sim::new(collider, config).unwrap()
}

/// Walking down a ramp keeps the speed along the ground: `320 cos(angle)` horizontally at a
/// steady walk, as Quake III walks it (cspace walked 30 degrees down at 74.2 units/s, a quarter
/// of it, before the ground check stopped throwing the downhill speed away). Up, and across,
/// too; on 10 to 44 degrees; in both profiles (Quake III's rounds the velocity to integers every
/// frame: 277 on 30 degrees); on every backend.
#[test]
fn slopes_are_walked_down_up_and_across_at_320_cos_angle() {
    for degrees in [10.0, 20.0, 30.0, 40.0, 44.0f64] {
        let brushes = ramp(degrees);
        let tan = degrees.to_radians().tan();
        let expected = 320.0 * degrees.to_radians().cos();
        for params in [MoveParams::default(), MoveParams::quake3()] {
            let (standing, _) = q3_player();
            // Just above where the (grown) box's uphill bottom edge touches the slope.
            let e = params.trace_epsilon;
            let cos = degrees.to_radians().cos();
            let rest = |x: f64| (x + 15.0 + e) * tan + 24.0 + e + params.skin / cos + 0.01;
            // (direction, start x, what the steady speed is measured as)
            for (direction, x0, y0, label) in [
                (DVec3::NEG_X, 800.0, 0.0, "down"),
                (DVec3::X, 100.0, 0.0, "up"),
                (DVec3::Y, 500.0, -200.0, "across"),
            ] {
                let spec = AgentSpec::new(standing.clone(), DVec3::new(x0, y0, rest(x0)));
                for mut sim in sims(&brushes, params, spec) {
                    let id = sim.ids()[0];
                    let mut speeds = Vec::new();
                    for step in 0..150 {
                        sim.set_intent(id, Intent::walk(direction, 320.0)).unwrap();
                        sim.step();
                        let s = sim.agent(id).unwrap();
                        if step >= 100 {
                            assert!(s.on_ground, "{label} {degrees} on {}: {s:?}", sim.backend());
                            speeds.push(s.velocity.truncate().length());
                        }
                    }
                    let want = if label == "across" { 320.0 } else { expected };
                    let tolerance = if params.profile == Profile::Quake3 {
                        0.75
                    } else {
                        1e-3
                    };
                    for speed in speeds {
                        close(
                            speed,
                            want,
                            tolerance,
                            &format!(
                                "{label} {degrees} degrees, {:?} on {}",
                                params.profile,
                                sim.backend()
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Quake III's vertical motion of a player over a flat floor (top at 0), with no wish, written
/// from `bg_pmove.c` and `bg_slidemove.c` for this one case: per frame the ground trace (0.25
/// down; the trace epsilon makes the floor met within 1/8 of it), the air move's half-step
/// gravity and its slide (a floor met stops the box 1/8 above it: the origin at 24.125; the
/// original velocity and the floor make opposite clip planes, whose crease is zero, so the
/// velocity ends zero), the walk move on the ground (friction none, the speed kept by
/// `vel = |v|` and pointed along the floor: up), the second ground trace (a kickoff when moving
/// up faster than 10), then `trap_SnapVector`. `jump` jumps at the first frame on the ground.
/// Returns (z, vz) after each frame.
fn q3_vertical(z0: f64, v0: f64, mut jump: bool, frames: usize) -> Vec<(f64, f64)> {
    let (gravity, probe) = (800.0, 0.25);
    let (mut z, mut v) = (z0, v0);
    let ground_trace = |z: f64, v: f64| z - REST < probe && v <= 10.0;
    let mut out = Vec::new();
    for _ in 0..frames {
        let mut walking = ground_trace(z, v);
        if walking && jump {
            // PM_CheckJump, then the air move.
            jump = false;
            v = 270.0;
            walking = false;
        }
        if walking {
            // PM_WalkMove: the speed kept, pointed up along the floor's normal by the clip.
            v = v.abs();
        } else {
            let end = v - gravity * DT;
            let average = 0.5 * (v + end);
            let to = z + average * DT;
            if to < REST {
                z = REST;
                v = 0.0;
            } else {
                z = to;
                v = end;
            }
        }
        v = v.round_ties_even();
        out.push((z, v));
    }
    out
}

/// A Quake III player dropped from rest: the fall's velocities are whole numbers every frame
/// (-6.4 rounds to -6, -12.4 to -12, -18.4 to -18: 6 a frame while the rounding drops the
/// 0.4), and it lands with its origin at 24.125 (the trace epsilon above the floor), at rest.
#[test]
fn quake3_a_drop_rounds_its_speed_every_frame_and_lands_an_eighth_above_the_floor() {
    let expected = q3_vertical(100.0, 0.0, false, 80);
    let got = frames(
        vec![floor()],
        MoveParams::quake3(),
        Player::at(DVec3::new(0.0, 0.0, 100.0)),
        80,
        |_, _| Intent::default(),
    );
    assert_eq!(expected[0].1, -6.0);
    assert_eq!(expected[2].1, -18.0);
    for (f, ((z, v), p)) in expected.iter().zip(&got).enumerate() {
        close(p.position.z, *z, 1e-9, &format!("frame {f}: z"));
        assert_eq!(p.velocity.z, *v, "frame {f}: the velocity");
    }
    let last = got.last().unwrap();
    assert_eq!((last.position.z, last.velocity), (REST, DVec3::ZERO));
    assert!(matches!(last.ground, Ground::Walkable(_)));
}

/// Quake III's overbounce: a fall whose last frame ends within the ground trace's reach but
/// above the trace epsilon is on the ground without having hit it; the next walk move keeps the
/// speed (`vel = |v|`) and points it along the floor's normal, up, and the player bounces as
/// high as it fell. Found by the derivation over drop heights; the profile bounces there, frame
/// for frame.
#[test]
fn quake3_an_overbounce_at_the_heights_it_happens() {
    let bounces = |trajectory: &[(f64, f64)]| {
        trajectory
            .windows(2)
            .any(|w| w[0].1 < -100.0 && w[1].1 > 100.0)
    };
    let height = (0..4000)
        .map(|i| 60.0 + f64::from(i) * 0.01)
        .find(|&z| bounces(&q3_vertical(z, 0.0, false, 120)))
        .expect("some drop height overbounces");
    let expected = q3_vertical(height, 0.0, false, 120);
    let got = frames(
        vec![floor()],
        MoveParams::quake3(),
        Player::at(DVec3::new(0.0, 0.0, height)),
        120,
        |_, _| Intent::default(),
    );
    for (f, ((z, v), p)) in expected.iter().zip(&got).enumerate() {
        close(
            p.position.z,
            *z,
            1e-9,
            &format!("drop from {height}, frame {f}: z"),
        );
        assert_eq!(
            p.velocity.z, *v,
            "drop from {height}, frame {f}: the velocity"
        );
    }
    // The cspace profile lands from the same height and stays down.
    let cspace = frames(
        vec![floor()],
        MoveParams::default(),
        Player::at(DVec3::new(0.0, 0.0, height)),
        120,
        |_, _| Intent::default(),
    );
    assert!(!bounces(
        &cspace
            .iter()
            .map(|p| (p.position.z, p.velocity.z))
            .collect::<Vec<_>>()
    ));
}

/// A jump from the floor: 270 up, rounded every frame on the way (264, 257, 251, ...), its apex
/// and its landing as the derivation has them.
#[test]
fn quake3_a_jump_rises_and_lands_as_the_rounded_arithmetic_has_it() {
    let expected = q3_vertical(REST, 0.0, true, 100);
    let start = Player {
        position: DVec3::new(0.0, 0.0, REST),
        ground: Ground::Walkable(DVec3::Z),
        ..Player::at(DVec3::ZERO)
    };
    let got = frames(vec![floor()], MoveParams::quake3(), start, 100, |f, _| {
        Intent {
            jump: f == 0,
            ..Intent::default()
        }
    });
    assert_eq!(expected[0].1, 264.0);
    for (f, ((z, v), p)) in expected.iter().zip(&got).enumerate() {
        close(p.position.z, *z, 1e-9, &format!("frame {f}: z"));
        assert_eq!(p.velocity.z, *v, "frame {f}: the velocity");
    }
    let apex = expected.iter().map(|e| e.0).fold(f64::MIN, f64::max);
    // Rounding takes 6 a frame off the speed where gravity takes 6.4 (263.6 rounds up to 264,
    // 257.6 to 258, ...): the apex is about 270^2 / (2 * 750) = 48.6 above the floor's rest
    // height, not the exact 270^2 / 1600 = 45.5625.
    close(apex - REST, 48.528, 1e-3, "the apex");
}

/// Walking into a wall whose face is at x = 128: a 15-unit box stops at 112.875 (the trace
/// epsilon short of touching), its speed into the wall gone (-0.32 after the over-clip, rounded
/// to 0).
#[test]
fn quake3_a_wall_stops_a_walker_an_eighth_short() {
    let wall = block([128.0, -512.0, 0.0], [144.0, 512.0, 128.0]);
    let start = Player {
        position: DVec3::new(0.0, 0.0, REST),
        ground: Ground::Walkable(DVec3::Z),
        ..Player::at(DVec3::ZERO)
    };
    let got = frames(
        vec![floor(), wall],
        MoveParams::quake3(),
        start,
        100,
        |_, _| Intent::walk(DVec3::X, 320.0),
    );
    // Stopped 1/8 short; the over-clip's -0.32 moves it back by less than a thousandth in the
    // rest of the frame, and rounds to 0.
    for p in &got[80..] {
        close(p.position.x, 112.875, 1e-3, "the stop");
        assert_eq!((p.position.z, p.velocity.x), (REST, 0.0));
    }
}

/// Stairs of 16-unit risers and 32-unit treads: each step climbed by exactly 16, the player an
/// eighth above each tread.
#[test]
fn quake3_stairs_of_16_units_are_climbed_16_at_a_time() {
    let mut brushes = vec![floor()];
    for k in 0..8 {
        let x = 64.0 + 32.0 * f64::from(k);
        brushes.push(block(
            [x, -256.0, 0.0],
            [x + 32.0, 256.0, 16.0 * f64::from(k + 1)],
        ));
    }
    let start = Player {
        position: DVec3::new(0.0, 0.0, REST),
        ground: Ground::Walkable(DVec3::Z),
        ..Player::at(DVec3::ZERO)
    };
    let got = frames(brushes, MoveParams::quake3(), start, 150, |_, _| {
        Intent::walk(DVec3::X, 320.0)
    });
    let on_treads: Vec<f64> = got
        .iter()
        .filter(|p| matches!(p.ground, Ground::Walkable(_)))
        .map(|p| p.position.z - REST)
        .collect();
    assert!(
        on_treads
            .iter()
            .all(|h| (h / 16.0 - (h / 16.0).round()).abs() < 1e-9),
        "{on_treads:?}"
    );
    assert!(
        on_treads.contains(&(16.0 * 8.0)),
        "reached the top: {on_treads:?}"
    );
}

/// Crouched (40 units tall), a Quake III player rests 1/8 above the floor: a tunnel 40 units
/// high is closed to it (it stops at 112.875 before the mouth), one 41 units high open.
#[test]
fn quake3_a_crouched_player_is_refused_a_40_unit_tunnel_and_passes_41() {
    for (height, passes) in [(40.0, false), (41.0, true)] {
        let roof = block([128.0, -512.0, height], [640.0, 512.0, height + 64.0]);
        let start = Player {
            position: DVec3::new(0.0, 0.0, REST),
            ground: Ground::Walkable(DVec3::Z),
            pose: Pose::Crouching,
            ..Player::at(DVec3::ZERO)
        };
        let got = frames(
            vec![floor(), roof],
            MoveParams::quake3(),
            start,
            500,
            |_, _| Intent {
                crouch: true,
                ..Intent::walk(DVec3::X, 320.0)
            },
        );
        let last = got.last().unwrap();
        if passes {
            assert!(last.position.x > 300.0, "{height}: {last:?}");
        } else {
            close(last.position.x, 112.875, 1e-3, "stopped at the mouth");
        }
    }
}

/// The landing timer: after a landing faster than 200 units/s down, for 250 ms the slide move
/// keeps the velocity it started with. A player landing hard beside a wall it walks into keeps
/// gaining speed into the wall for 31 frames (friction, then the walk's acceleration, rounded:
/// 26, 47, 68, ... 320, never clipped), then loses it; cspace's profile has no such timer and
/// loses it at once.
#[test]
fn quake3_a_hard_landing_keeps_the_velocity_into_a_wall_for_250_ms() {
    let wall = block([128.0, -512.0, 0.0], [144.0, 512.0, 512.0]);
    for params in [MoveParams::quake3(), MoveParams::default()] {
        let start = Player {
            position: DVec3::new(112.0, 0.0, 120.0),
            velocity: DVec3::new(320.0, 0.0, 0.0),
            ..Player::at(DVec3::ZERO)
        };
        let got = frames(vec![floor(), wall.clone()], params, start, 120, |_, _| {
            Intent::walk(DVec3::X, 320.0)
        });
        let landed = got
            .iter()
            .position(|p| matches!(p.ground, Ground::Walkable(_)))
            .expect("it lands");
        let after = &got[landed + 1..];
        match params.profile {
            Profile::Quake3 => {
                let mut v: f64 = 0.0;
                for (f, p) in after[..31].iter().enumerate() {
                    // PM_Friction (stop speed 100, friction 6), then PM_Accelerate (10), rounded.
                    if v >= 1.0 {
                        v -= v.max(100.0) * 6.0 * DT;
                    }
                    v = (v + (10.0 * DT * 320.0).min(320.0 - v)).round_ties_even();
                    assert_eq!(p.velocity.x, v, "frame {f} after landing");
                }
                assert_eq!(v, 320.0);
                assert!(
                    after[31..].iter().all(|p| p.velocity.x == 0.0),
                    "{:?}",
                    &after[31..]
                );
            }
            Profile::Cspace => assert!(after.iter().all(|p| p.velocity.x.abs() < 1.0), "{after:?}"),
        }
        assert!(got.iter().all(|p| p.position.x <= 128.0 - 15.0));
    }
}

/// Crouching does not slow the wish in the air (both profiles, as Quake III's `PM_AirMove`):
/// a crouched jump wishing +x gains the air's `1 * dt * 320 = 2.56` a frame; Quake III's
/// rounding makes it 3 (2.56 rounds up to 3, 5.56 to 6, ...).
#[test]
fn a_crouched_jump_steers_in_the_air_at_the_full_wish() {
    for params in [MoveParams::quake3(), MoveParams::default()] {
        let rest = 24.0 + params.skin + params.trace_epsilon;
        let start = Player {
            position: DVec3::new(0.0, 0.0, rest),
            ground: Ground::Walkable(DVec3::Z),
            pose: Pose::Crouching,
            ..Player::at(DVec3::ZERO)
        };
        let got = frames(vec![floor()], params, start, 10, |f, _| Intent {
            crouch: true,
            jump: f == 0,
            ..Intent::walk(DVec3::X, 320.0)
        });
        for (f, p) in got.iter().enumerate() {
            assert!(p.ground == Ground::Air, "frame {f} in the air");
            let n = (f + 1) as f64;
            let expected = match params.profile {
                Profile::Quake3 => 3.0 * n,
                Profile::Cspace => 2.56 * n,
            };
            close(
                p.velocity.x,
                expected,
                1e-9,
                &format!("{:?} frame {f}", params.profile),
            );
        }
    }
}

/// The contact model, side by side: Quake III's trace epsilon stops a walker 1/8 short of a
/// wall and rests it 1/8 above the floor; cspace's touching-is-free model stops it the skin
/// (1/32) short, and rests it the skin above. Quake III's velocities are whole numbers after
/// every frame; cspace's are not rounded.
#[test]
fn near_misses_stop_an_eighth_short_in_quake3_only() {
    let wall = block([128.0, -512.0, 0.0], [144.0, 512.0, 128.0]);
    for (params, short) in [
        (MoveParams::quake3(), 0.125),
        (MoveParams::default(), 1.0 / 32.0),
    ] {
        let rest = 24.0 + short;
        let start = Player {
            position: DVec3::new(0.0, 0.0, rest),
            ground: Ground::Walkable(DVec3::Z),
            ..Player::at(DVec3::ZERO)
        };
        let got = frames(vec![floor(), wall.clone()], params, start, 40, |_, _| {
            Intent::walk(DVec3::new(1.0, 0.3, 0.0), 320.0)
        });
        let whole = got
            .iter()
            .all(|p| p.velocity.to_array().iter().all(|v| v.fract() == 0.0));
        assert_eq!(
            whole,
            params.profile == Profile::Quake3,
            "{:?}",
            params.profile
        );
        let got = frames(vec![floor(), wall.clone()], params, start, 120, |_, _| {
            Intent::walk(DVec3::X, 320.0)
        });
        for p in &got[80..] {
            close(
                p.position.x,
                128.0 - 15.0 - short,
                1e-3,
                &format!("{:?} stop", params.profile),
            );
            assert_eq!(p.position.z, rest, "{:?} rest", params.profile);
        }
    }
}

/// A pose at the edge of the numeric domain that the trace epsilon grows past it is refused by
/// `Sim::spawn` with a typed error naming the epsilon (the fuzzer found it panicking).
#[test]
fn a_pose_the_trace_epsilon_grows_out_of_the_domain_is_refused_at_spawn() {
    let tall = Shape::new_box(
        DVec3::new(-15.0, -15.0, -24.0),
        DVec3::new(15.0, 15.0, cspace_geom::tolerance::MAX_SHAPE_EXTENT),
    )
    .unwrap();
    let params = MoveParams::quake3();
    let spec = AgentSpec::new(tall, DVec3::new(0.0, 0.0, 100.0));
    let world = Arc::new(World::from_brushes(vec![floor()]));
    let mut sim = empty_sim(BackendKind::Exact, &world, params, &spec);
    let error = sim.spawn(spec).unwrap_err();
    assert!(
        matches!(error, cspace_sim::SimError::GrownShape { by, .. } if by == 0.125),
        "{error}"
    );
}

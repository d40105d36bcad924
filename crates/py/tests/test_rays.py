"""Depth rays against the command line on the same segments: `sim los` sees along a ray up to
where it is blocked and not past it, and `sim trace` of the sight cube (half side 1/32) with the
exact backend hits at the ray's fraction."""

import json

import numpy as np

import cspace

SIGHT = "box:-0.03125,-0.03125,-0.03125,0.03125,0.03125,0.03125"
EYE = 26.0  # Quake III's DEFAULT_VIEWHEIGHT: rays start there above a standing origin.


def segment_lines(segments):
    return "".join(" ".join(repr(float(x)) for x in (*a, *b)) + "\n" for a, b in segments)


def rays_and_segments(env, obs):
    depth, segments = [], []
    for i in range(env.num_envs):
        assert obs["crouched"][i] == 0.0
        eye = obs["position"][i] + np.array([0.0, 0.0, EYE])
        yaw, pitch = obs["view"][i]
        segments += env.ray_segments(eye, yaw, pitch)
        depth += list(obs["depth"][i])
    return np.array(depth), segments


def check_world(sim, world, env):
    obs, _ = env.reset(seed=1)
    env.action_space.seed(0)
    a = env.action_space.sample()
    a["crouch"][:] = 0
    a["turn"][:, 1] = np.clip(a["turn"][:, 1], -30, 30)
    obs, *_ = env.step(a)
    depth, segments = rays_and_segments(env, obs)
    blocked = depth < 1.0
    assert blocked.sum() >= len(depth) // 4, "a test of blocked rays"
    # The exact trace of the sight cube: a hit at the ray's fraction, a miss where it is clear.
    hits = [json.loads(l) for l in sim("trace", world, "--backend", "exact", "--shape", SIGHT,
                                       stdin=segment_lines(segments)).stdout.splitlines()]
    for f, hit, (a, b) in zip(depth, hits, segments):
        assert not hit["start_solid"], (a, b)
        if f == 1.0:
            assert hit["time_of_impact"] is None, (a, b, hit)
        else:
            length = np.linalg.norm(np.subtract(b, a))
            assert abs(hit["time_of_impact"] - f) * length < 1e-6, (a, b, f, hit)
    # Line of sight: visible up to just short of the block, not to just past it.
    short, past = [], []
    for f, (a, b) in zip(depth, segments):
        if f < 1.0:
            d = np.subtract(b, a)
            length = np.linalg.norm(d)
            short.append((a, tuple(np.add(a, d * max(0.0, f - 0.01 / length)))))
            past.append((a, tuple(np.add(a, d * min(1.0, f + 0.01 / length)))))
        else:
            short.append((a, b))
    seen = [json.loads(l)["visible"] for l in sim("los", world, stdin=segment_lines(short)).stdout.splitlines()]
    assert all(seen)
    hidden = [json.loads(l)["visible"] for l in sim("los", world, stdin=segment_lines(past)).stdout.splitlines()]
    assert not any(hidden)


def test_rays_agree_with_sim_los_and_sim_trace_in_the_rooms(sim, rooms):
    env = cspace.VectorEnv(rooms, 8, spread=64.0, rays=16, fov=300.0, ray_range=512.0,
                           dtype=np.float64, task={"goal": "none"})
    check_world(sim, rooms, env)


def test_rays_agree_with_sim_los_and_sim_trace_on_e1m1(sim, e1m1):
    env = cspace.VectorEnv(e1m1, 40, rays=8, ray_pitch=10.0, dtype=np.float64,
                           task={"goal": "none"})
    check_world(sim, e1m1, env)


def test_distances_are_fractions_times_the_range(rooms):
    kw = dict(spread=64.0, rays=6, ray_range=300.0, dtype=np.float64)
    f = cspace.VectorEnv(rooms, 4, **kw).reset(seed=2)[0]["depth"].copy()
    d = cspace.VectorEnv(rooms, 4, ray_units="distance", **kw).reset(seed=2)[0]["depth"]
    assert np.array_equal(d, f * 300.0)
    assert d.max() <= 300.0 and f.max() <= 1.0 and f.min() >= 0.0

"""Spaces and shapes: the single and batched spaces, the observations' arrays (allocated once,
rewritten in place), float64 on request, no depth without rays, DeepMind Lab's layout."""

import gymnasium
import numpy as np
import pytest

import cspace


def make(rooms, **kw):
    kw.setdefault("spread", 64.0)
    return cspace.VectorEnv(rooms, kw.pop("agents", 6), **kw)


def test_observations_fit_their_spaces_and_keep_their_arrays(rooms):
    env = make(rooms)
    assert env.num_envs == 6
    obs, info = env.reset(seed=3)
    assert info == {}
    shapes = {k: v.shape for k, v in obs.items()}
    assert shapes == {
        "position": (6, 3),
        "velocity": (6, 3),
        "view": (6, 2),
        "on_ground": (6,),
        "crouched": (6,),
        "goal": (6, 3),
        "depth": (6, 8),
    }
    assert all(v.dtype == np.float32 for v in obs.values())
    assert env.observation_space.contains(obs)
    assert env.single_observation_space["depth"].shape == (8,)
    # Settled on the floor of room A or B.
    assert np.all(obs["on_ground"] == 1.0)
    before = {k: v for k, v in obs.items()}
    env.action_space.seed(0)
    obs2, rewards, terminated, truncated, _ = env.step(env.action_space.sample())
    # Zero copy: the same arrays, rewritten.
    assert all(obs2[k] is before[k] for k in obs2)
    assert rewards.shape == (6,) and rewards.dtype == np.float64
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    assert env.observation_space.contains(obs2)


def test_copy_hands_out_fresh_arrays(rooms):
    env = make(rooms, copy=True)
    obs, _ = env.reset(seed=0)
    obs2, *_ = env.step(env.action_space.sample())
    assert all(not np.shares_memory(obs[k], obs2[k]) for k in obs)


def test_float64_and_no_rays(rooms):
    env = make(rooms, dtype=np.float64, rays=0)
    obs, _ = env.reset(seed=0)
    assert "depth" not in obs and "depth" not in env.single_observation_space.spaces
    assert all(v.dtype == np.float64 for v in obs.values())
    assert env.observation_space.contains(obs)


def test_the_action_space_is_the_documented_dict(rooms):
    env = make(rooms)
    space = env.single_action_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert space["move"].shape == (2,) and space["turn"].shape == (2,)
    assert space["jump"] == gymnasium.spaces.Discrete(2)
    assert env.action_space["move"].shape == (6, 2)
    assert env.action_space["jump"].shape == (6,)


def test_forward_walks_along_the_view_and_turns_turn_it(rooms):
    env = make(rooms, agents=1, rays=0, jitter=0.0, task={"goal": "none"})
    obs, _ = env.reset(seed=0)
    yaw0 = float(obs["view"][0, 0])
    start = obs["position"][0].copy()
    act = {
        "move": np.array([[1.0, 0.0]]),
        "turn": np.zeros((1, 2)),
        "jump": np.zeros(1, dtype=np.int64),
        "crouch": np.zeros(1, dtype=np.int64),
    }
    for _ in range(16):
        obs, *_ = env.step(act)
    moved = obs["position"][0] - start
    heading = np.degrees(np.arctan2(moved[1], moved[0]))
    assert np.linalg.norm(moved[:2]) > 20.0, moved
    assert abs((heading - yaw0 + 180) % 360 - 180) < 1.0, (heading, yaw0)
    act["turn"] = np.array([[30.0, 5.0]])
    obs, *_ = env.step(act)
    assert abs((obs["view"][0, 0] - (yaw0 + 30) + 180) % 360 - 180) < 1e-3
    assert obs["view"][0, 1] == pytest.approx(5.0)


def test_crouching_shows_in_the_pose(rooms):
    env = make(rooms, agents=2, rays=0)
    env.reset(seed=0)
    act = {
        "move": np.zeros((2, 2)),
        "turn": np.zeros((2, 2)),
        "jump": np.zeros(2),
        "crouch": np.array([1, 0]),
    }
    obs, *_ = env.step(act)
    assert list(obs["crouched"]) == [1.0, 0.0]


def test_deepmind_lab_layout(rooms):
    env = make(rooms, agents=2, actions="dmlab", rays=0, jitter=0.0, task={"goal": "none"})
    assert env.single_action_space.shape == (7,)
    assert env.single_action_space.dtype == np.int32
    obs, _ = env.reset(seed=0)
    yaw = obs["view"][:, 0].copy()
    # Look right by 100 pixels and move forward.
    a = np.zeros((2, 7), dtype=np.int32)
    a[:, 0] = 100
    a[:, 3] = 1
    obs, *_ = env.step(a)
    turned = (obs["view"][:, 0] - yaw + 180) % 360 - 180
    assert np.allclose(turned, -10.0, atol=1e-3), turned
    with pytest.raises(cspace.ActionError, match="agent 1: look left/right 600.0"):
        b = a.copy()
        b[1, 0] = 600
        env.step(b)

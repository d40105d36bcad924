"""Reset and step semantics: episodes truncated at the step limit, terminated on arrival; the
next-step autoreset (the step after an episode ends resets the agent instead of stepping it),
the same-step autoreset (the final observation in the infos, the reset one returned), none, and
`reset_mask`."""

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import cspace
from conftest import actions as still


def walk(n):
    a = still(n)
    a["move"][:, 0] = 1.0
    return a


def make(rooms, mode, **kw):
    return cspace.VectorEnv(
        rooms, 3, spread=64.0, rays=2, autoreset_mode=mode, task={"goal": "none", "max_steps": 4}, **kw
    )


def test_next_step_autoreset_resets_on_the_step_after_the_end(rooms):
    env = make(rooms, "next_step")
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    env.reset(seed=2)
    for step in range(1, 5):
        obs, rewards, terminated, truncated, _ = env.step(walk(3))
        assert not terminated.any()
        assert truncated.all() == (step == 4), step
    moved = obs["position"].copy()
    # The reset step: actions ignored, every agent back near its start, nothing ends.
    obs, rewards, terminated, truncated, _ = env.step(walk(3))
    assert not terminated.any() and not truncated.any()
    assert np.all(rewards == 0.0)
    assert list(env.episode_steps()) == [0, 0, 0]
    assert np.all(np.linalg.norm(obs["position"] - moved, axis=1) > 1.0)
    assert np.all(obs["velocity"] == 0.0)
    # Then episodes go on.
    obs, rewards, terminated, truncated, _ = env.step(walk(3))
    assert list(env.episode_steps()) == [1, 1, 1]


def test_same_step_autoreset_returns_the_reset_observation(rooms):
    env = make(rooms, "same_step")
    env.reset(seed=2)
    for _ in range(3):
        _, _, _, truncated, infos = env.step(walk(3))
        assert "final_obs" not in infos
    obs, rewards, terminated, truncated, infos = env.step(walk(3))
    assert truncated.all()
    assert infos["_final_obs"].all()
    final = infos["final_obs"]
    assert len(final) == 3 and set(final[0]) == set(obs)
    # The final observation moved (walking); the returned one is the new episode's start.
    for i in range(3):
        assert np.linalg.norm(final[i]["velocity"]) > 100.0
        assert np.all(obs["velocity"][i] == 0.0)
        assert not np.array_equal(final[i]["position"], obs["position"][i])
    assert list(env.episode_steps()) == [0, 0, 0]
    _, _, _, truncated, infos = env.step(walk(3))
    assert not truncated.any() and infos == {}


def test_without_autoreset_episodes_run_on_until_reset(rooms):
    env = make(rooms, "disabled")
    env.reset(seed=2)
    for step in range(1, 7):
        _, _, _, truncated, _ = env.step(walk(3))
        assert truncated.all() == (step >= 4)
    assert list(env.episode_steps()) == [6, 6, 6]


def test_reset_mask_resets_only_the_masked_agents(rooms):
    env = make(rooms, "disabled")
    env.reset(seed=2)
    for _ in range(3):
        obs, *_ = env.step(walk(3))
    before = obs["position"].copy()
    mask = np.array([False, True, False])
    obs, _ = env.reset(options={"reset_mask": mask})
    assert list(env.episode_steps()) == [3, 0, 3]
    assert np.array_equal(obs["position"][[0, 2]], before[[0, 2]])
    assert not np.array_equal(obs["position"][1], before[1])
    assert np.all(obs["velocity"][1] == 0.0)
    with pytest.raises(cspace.Error, match="reset_mask"):
        env.reset(options={"reset_mask": np.array([1, 0, 1])})


def test_arriving_terminates_with_the_arrival_reward(rooms):
    env = cspace.VectorEnv(
        rooms, 2, spread=64.0, rays=0, autoreset_mode="disabled", jitter=0.0,
        task={"goal": "given", "radius": 40.0, "reward": "sparse", "arrival": 5.0},
    )
    obs, _ = env.reset(seed=0)
    here = obs["position"].astype(np.float64)
    goals = here + np.array([[20.0, 0.0, 0.0], [500.0, 0.0, 0.0]])
    env.set_goals(goals)
    assert np.allclose(env.goals(), goals)
    # The goal relative to the agent: 20 units along +x, seen in its view's frame.
    yaw = np.radians(obs["view"][0, 0])
    rel = obs["goal"][0]
    assert rel[0] == pytest.approx(20.0 * np.cos(yaw), abs=1e-3)
    assert rel[1] == pytest.approx(-20.0 * np.sin(yaw), abs=1e-3)
    _, rewards, terminated, _, _ = env.step(still(2))
    assert list(terminated) == [True, False]
    assert list(rewards) == [5.0, 0.0]


def test_progress_rewards_the_distance_gained(rooms):
    env = cspace.VectorEnv(
        rooms, 1, spread=64.0, rays=0, jitter=0.0, autoreset_mode="disabled",
        task={"goal": "given", "progress_scale": 0.5, "radius": 0.0},
    )
    obs, _ = env.reset(seed=0)
    yaw = np.radians(obs["view"][0, 0])
    ahead = obs["position"][0].astype(np.float64) + 200.0 * np.array([np.cos(yaw), np.sin(yaw), 0.0])
    env.set_goals(ahead[None])
    before = np.linalg.norm(ahead - obs["position"][0])
    obs, rewards, *_ = env.step(walk(1))
    after = np.linalg.norm(ahead - obs["position"][0])
    assert rewards[0] > 0.0
    assert rewards[0] == pytest.approx(0.5 * (before - after), rel=1e-4)


def test_random_goals_are_walkable_points_of_the_world_drawn_by_seed(rooms):
    def goals(seed):
        env = cspace.VectorEnv(rooms, 6, spread=64.0, rays=0, task={"goal": "random"})
        env.reset(seed=seed)
        return env.goals()

    g = goals(4)
    # On the floor of the rooms or the corridor: x 0..640, y 0..256, an origin 24 above z 0.
    assert np.all((g[:, 0] >= 0) & (g[:, 0] <= 640) & (g[:, 1] >= 0) & (g[:, 1] <= 256)), g
    assert np.allclose(g[:, 2], 24.03125, atol=0.01), g[:, 2]
    assert len({tuple(row) for row in g}) == 6
    assert np.array_equal(goals(4), g)
    assert not np.array_equal(goals(5), g)

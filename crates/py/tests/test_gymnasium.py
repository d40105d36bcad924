"""Gymnasium's own checks: `check_env` on the one-agent `cspace.Env`, the passive checks of the
vector environment's spaces and data, and gymnasium's vector wrappers on top."""

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.passive_env_checker import check_obs, check_space

import cspace


def test_check_env_passes_on_one_agent(rooms):
    env = cspace.Env(rooms, spread=64.0, task={"max_steps": 50})
    check_env(env, skip_render_check=True)


def test_check_env_passes_with_dmlab_actions_and_float64(rooms):
    env = cspace.Env(rooms, spread=64.0, actions="dmlab", dtype=np.float64, rays=4)
    check_env(env, skip_render_check=True)


def test_vector_spaces_and_data_pass_the_passive_checks(rooms):
    env = cspace.VectorEnv(rooms, 4, spread=64.0)
    for space in (env.single_observation_space, env.observation_space):
        check_space(space, "observation", lambda s: None)
    for space in (env.single_action_space, env.action_space):
        check_space(space, "action", lambda s: None)
    obs, _ = env.reset(seed=5)
    check_obs(obs, env.observation_space, "reset")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    for _ in range(5):
        obs, *_ = env.step(env.action_space.sample())
        check_obs(obs, env.observation_space, "step")


def test_gymnasium_vector_wrappers_run_on_it(rooms):
    env = cspace.VectorEnv(rooms, 3, spread=64.0, task={"max_steps": 10}, copy=True)
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    env.reset(seed=0)
    episodes = 0
    for _ in range(25):
        _, _, _, _, infos = env.step(env.action_space.sample())
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
    assert episodes == 6, episodes

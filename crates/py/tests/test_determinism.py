"""Determinism: a random-policy episode recorded and its actions replayed give the same state
hashes and the same observation bits, on 1 and 2 threads, in one world or several (the worlds
and the interaction groups then step in parallel)."""

import numpy as np

import cspace


def episode(rooms, threads, actions=None, steps=60, worlds=1):
    env = cspace.VectorEnv(
        [rooms] * worlds, 8, spread=64.0, threads=threads, parallel_from=0, rays=4,
        task={"goal": "spawn", "max_steps": 25},
    )
    env.reset(seed=7)
    env.action_space.seed(11)
    taken, hashes, bits = [], [], []
    for t in range(steps):
        a = env.action_space.sample() if actions is None else actions[t]
        taken.append(a)
        obs, rewards, terminated, truncated, _ = env.step(a)
        hashes.append(env.state_hashes())
        bits.append(
            b"".join(obs[k].tobytes() for k in sorted(obs)) + rewards.tobytes()
            + terminated.tobytes() + truncated.tobytes()
        )
    return taken, hashes, bits


def test_a_replayed_random_episode_ends_on_the_same_bits_on_1_and_2_threads(rooms):
    actions, hashes, bits = episode(rooms, 1)
    assert len(set(h[0] for h in hashes)) > 50, "the agents move"
    for threads in (1, 2):
        _, again, again_bits = episode(rooms, threads, actions)
        assert again == hashes, threads
        assert again_bits == bits, threads


def test_several_worlds_step_in_parallel_on_the_same_bits(rooms):
    actions, hashes, bits = episode(rooms, 1, worlds=3)
    _, again, again_bits = episode(rooms, 2, actions, worlds=3)
    assert again == hashes and again_bits == bits
    # Each world's crowd has its own starts (agent i of the batch draws from its own stream).
    assert len(set(hashes[0])) == 3


def test_the_same_seed_resets_to_the_same_starts_and_another_does_not(rooms):
    env = cspace.VectorEnv(rooms, 4, spread=64.0, rays=0)
    first = env.reset(seed=3)[0]["position"].copy()
    env.step(env.action_space.sample())
    again = env.reset(seed=3)[0]["position"].copy()
    other = env.reset(seed=4)[0]["position"].copy()
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)

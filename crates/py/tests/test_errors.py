"""Errors: every Rust error is a `cspace.Error` with `sim`'s message (file:line:column where
there is one); bad actions raise `cspace.ActionError` before anything moves, naming the agent
and the value."""

import numpy as np
import pytest

import cspace
from conftest import actions


@pytest.fixture
def env(rooms):
    e = cspace.VectorEnv(rooms, 4, spread=64.0, rays=2)
    e.reset(seed=0)
    return e


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: a.update(move=np.zeros((4, 3))), r"move actions: expected shape \[4, 2\], got \[4, 3\]"),
        (lambda a: a.update(jump=np.zeros(5)), r"jump actions: expected shape \[4\], got \[5\]"),
        (lambda a: a["move"].__setitem__((2, 0), np.nan), r"agent 2: move forward NaN is not within \[-1, 1\]"),
        (lambda a: a["move"].__setitem__((1, 1), 1.5), r"agent 1: move strafe 1.5 is not within \[-1, 1\]"),
        (lambda a: a["turn"].__setitem__((3, 0), 200.0), r"agent 3: turn yaw 200 is not within \[-180, 180\]"),
        (lambda a: a["turn"].__setitem__((0, 1), np.inf), r"agent 0: turn pitch inf is not within"),
        (lambda a: a["jump"].__setitem__(1, 2.0), r"agent 1: jump 2 is not 0 or 1"),
        (lambda a: a["crouch"].__setitem__(3, 0.5), r"agent 3: crouch 0.5 is not 0 or 1"),
        (lambda a: a.pop("crouch"), r"missing \['crouch'\]"),
    ],
)
def test_bad_actions_raise_before_stepping(env, change, message):
    a = actions(4)
    change(a)
    hashes, steps = env.state_hashes(), env.steps
    with pytest.raises(cspace.ActionError, match=message):
        env.step(a)
    assert env.state_hashes() == hashes and env.steps == steps
    # An ActionError is a cspace.Error, and the environment goes on.
    assert issubclass(cspace.ActionError, cspace.Error)
    env.step(actions(4))
    assert env.steps == steps + 1


def test_actions_that_are_not_a_dict_are_refused(env):
    with pytest.raises(cspace.ActionError, match="expected a dict of arrays"):
        env.step(np.zeros((4, 6)))


def test_a_missing_map_names_the_file(tmp_path):
    missing = tmp_path / "nowhere.map"
    with pytest.raises(cspace.Error, match=f"{missing}: cannot read the world"):
        cspace.VectorEnv(missing, 2)


def test_a_malformed_map_is_located(tmp_path):
    bad = tmp_path / "bad.map"
    bad.write_text('{\n"classname" "worldspawn"\n{\n( 0 0 0 ) ( 1 0 0 ) oops\n}\n}\n')
    with pytest.raises(cspace.Error, match=rf"{bad}:4:\d+: "):
        cspace.VectorEnv(bad, 1)


def test_bad_settings_say_which(rooms):
    with pytest.raises(cspace.Error, match=r"unknown backend \"warp\""):
        cspace.VectorEnv(rooms, 1, backend="warp")
    with pytest.raises(cspace.Error, match="movement: expected"):
        cspace.VectorEnv(rooms, 1, movement="doom")
    with pytest.raises(cspace.Error, match="rays.range must be a positive number"):
        cspace.VectorEnv(rooms, 1, ray_range=-1.0)
    with pytest.raises(cspace.Error, match="agents must be at least 1"):
        cspace.VectorEnv(rooms, 0)
    with pytest.raises(cspace.Error, match="only 2 free places for 500 agents"):
        cspace.VectorEnv(rooms, 500, spread=8.0)
    with pytest.raises(cspace.Error, match=r"task: unknown keys \['goals'\]"):
        cspace.VectorEnv(rooms, 1, task={"goals": "spawn"})
    with pytest.raises(cspace.Error, match="time step must be a positive number"):
        cspace.VectorEnv(rooms, 1, time_step=0.0)


def test_a_world_without_spawn_points_has_no_spawn_goals(tmp_path):
    floor = tmp_path / "floor.toml"
    floor.write_text('[[brush]]\nbox = { min = [-512, -512, -16], max = [512, 512, 0] }\n')
    with pytest.raises(cspace.Error, match=f"{floor}: no spawn points to draw goals from"):
        cspace.VectorEnv(floor, 2, task={"goal": "spawn"})
    # Without goals it runs: the crowd stands on the floor around its centre.
    env = cspace.VectorEnv(floor, 2, task={"goal": "none"}, rays=0)
    obs, _ = env.reset(seed=0)
    assert np.all(obs["on_ground"] == 1.0)


def test_scenario_errors_are_located(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\ntime_step = -1\nsteps = 10\n[world]\n')
    with pytest.raises(cspace.Error, match=rf"{bad}:2:13: time_step must be positive"):
        cspace.run_scenario(bad)
    with pytest.raises(cspace.Error, match=rf"{bad}:2:13"):
        cspace.sweep([bad])
    with pytest.raises(cspace.Error, match='seeds "5..3": the range 5..3 is empty'):
        cspace.sweep([bad], seeds="5..3")
    with pytest.raises(cspace.Error, match="I must be between 1 and 3"):
        cspace.sweep([bad], shard=(4, 3))

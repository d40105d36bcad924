"""The same bits as the command line: a recorded episode written as a trace and as a replay
scenario; `sim run` on the scenario writes the same trace, `sim sweep` prints the environment's
state hash as the end state, and `sim plot` draws the episode against it."""

import json

import numpy as np
import pytest

import cspace


def record_episode(tmp_path, world, agents, steps, **kw):
    env = cspace.VectorEnv(
        world, agents, record=True, autoreset_mode="disabled", rays=2, name="python-episode", **kw
    )
    env.reset(seed=kw.pop("seed", 5))
    env.action_space.seed(3)
    for _ in range(steps):
        a = env.action_space.sample()
        # Some agents stand still for a while (stop events), some jump and crouch.
        a["move"][: agents // 3] = 0.0
        env.step(a)
    trace, scenario = tmp_path / "episode.trace", tmp_path / "episode.toml"
    env.record(trace, scenario=scenario)
    return env, trace, scenario


def check_against_cli(sim, env, trace, scenario, tmp_path, backend="onion"):
    line = json.loads(sim("sweep", scenario, "--backends", backend).stdout)
    assert line["passed"] and line["error"] is None
    assert line["end_state"] == f"{env.state_hash():016x}"
    assert line["steps"] == env.steps
    # `sim run` replays it and writes the trace the environment wrote, byte for byte.
    rerun = tmp_path / "rerun.trace"
    sim("run", scenario, "--backend", backend, "--trace", rerun)
    assert rerun.read_text() == trace.read_text()
    # And run_scenario from Python agrees.
    outcome = cspace.run_scenario(scenario, backend)
    assert outcome["end_state"] == line["end_state"] and outcome["passed"]
    assert outcome["trace"] == trace.read_text()
    plot = tmp_path / "episode.svg"
    sim("plot", scenario, "--backend", backend, "--against", trace, "-o", plot)
    assert plot.stat().st_size > 1000
    # `sim report` draws it too (a replay scenario has no snapshot: "not compared").
    page = tmp_path / "report.html"
    report = sim("report", scenario, "--backends", backend, "-o", page)
    assert "nothing failed" in report.stdout
    assert "python-episode" in page.read_text()


def test_a_recorded_episode_replays_on_the_command_line(sim, rooms, tmp_path):
    env, trace, scenario = record_episode(tmp_path, rooms, 6, 150, spread=64.0)
    text = trace.read_text()
    assert text.startswith("cspace trace 1\nscenario python-episode\nbackend onion\nsteps 150\n")
    check_against_cli(sim, env, trace, scenario, tmp_path)


def test_quake3_movement_on_e1m1_replays_too(sim, e1m1, tmp_path):
    env, trace, scenario = record_episode(tmp_path, e1m1, 30, 120, movement="quake3")
    check_against_cli(sim, env, trace, scenario, tmp_path)


def test_an_episode_with_an_agent_reset_cannot_be_replayed(rooms, tmp_path):
    env = cspace.VectorEnv(rooms, 3, spread=64.0, record=True, task={"goal": "none", "max_steps": 3})
    env.reset(seed=0)
    for _ in range(5):
        env.step(env.action_space.sample())
    # The trace is written; the scenario cannot say the teleports of the resets.
    with pytest.raises(cspace.Error, match="an agent was reset"):
        env.record(tmp_path / "t.trace", scenario=tmp_path / "s.toml")
    # A full reset starts a new record.
    env.reset(seed=1)
    env.step(env.action_space.sample())
    env.record(tmp_path / "t.trace", scenario=tmp_path / "s.toml")
    assert "steps 1\n" in (tmp_path / "t.trace").read_text()


def test_recording_must_be_asked_for(rooms, tmp_path):
    env = cspace.VectorEnv(rooms, 2, spread=64.0)
    env.reset(seed=0)
    with pytest.raises(cspace.Error, match="record=True"):
        env.record(tmp_path / "t.trace")

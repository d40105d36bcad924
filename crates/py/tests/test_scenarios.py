"""Scenarios and sweeps from Python: `run_scenario` agrees with `sim sweep`'s line, `sweep` and
`sweep_lines` return `sim sweep`'s lines (whole and in shards), and the Ray example's shards
merge into the whole sweep."""

import json
import os
import runpy

import pytest

import cspace

from conftest import REPO, SCENARIOS

CROWD_DROP = SCENARIOS / "sweeps" / "crowd_drop.toml"


def test_run_scenario_agrees_with_sim_sweep(sim):
    drop = SCENARIOS / "drop.toml"
    line = json.loads(sim("sweep", drop, "--backends", "exact").stdout)
    outcome = cspace.run_scenario(drop, "exact")
    assert outcome["end_state"] == line["end_state"]
    assert outcome["passed"] == line["passed"] is True
    assert outcome["steps"] == line["steps"] and outcome["agent_steps"] == line["agent_steps"]
    assert [e["check"] for e in outcome["expectations"]] == [
        e["check"] for e in line["expectations"]
    ]
    assert outcome["trace"].startswith("cspace trace 1\nscenario ")


def test_sweep_returns_sim_sweeps_lines_whole_and_in_shards(sim):
    # Run from the repository, as the lines name the files as given.
    spec = str(CROWD_DROP.relative_to(REPO))
    here = os.getcwd()
    os.chdir(REPO)
    try:
        whole = sim("sweep", spec, "--seeds", "0..2").stdout.splitlines()
        assert cspace.sweep_lines(spec, seeds="0..2", threads=2) == whole
        records = cspace.sweep(spec, seeds="0..2")
        assert records == [json.loads(line) for line in whole]
        shards = []
        for i in (1, 2, 3):
            lines = cspace.sweep_lines(spec, (i, 3), seeds="0..2", threads=1)
            assert lines == sim("sweep", spec, "--seeds", "0..2", "--shard", f"{i}/3").stdout.splitlines()
            shards.append(lines)
        example = runpy.run_path(str(REPO / "crates" / "py" / "examples" / "ray_sweep.py"))
        assert example["merge"](shards) == whole
        with pytest.raises(ValueError, match="not 0..20"):
            example["merge"](shards[:2])
    finally:
        os.chdir(here)


def test_the_ray_example_runs_its_shards_locally(tmp_path, capsys):
    example = runpy.run_path(str(REPO / "crates" / "py" / "examples" / "ray_sweep.py"))
    out = tmp_path / "merged.jsonl"
    code = example["main"]([str(SCENARIOS / "drop.toml"), "--shards", "2", "--seeds", "0..4", "--local", "--out", str(out)])
    assert code == 0
    lines = out.read_text().splitlines()
    assert [json.loads(l)["run"] for l in lines] == list(range(len(lines)))
    assert "runs in 2 shards, 0 failed" in capsys.readouterr().err

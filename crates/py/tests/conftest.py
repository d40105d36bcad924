"""Shared fixtures: the repository's paths, the `sim` binary the tests compare with, and the map
corpus (CSPACE_MAPS, as the Rust tests read it: a test that needs it is skipped by name when the
variable is unset, and fails loudly when it is set but unreadable)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SCENARIOS = REPO / "scenarios"


def sim_binary() -> Path:
    """`sim`: $CSPACE_SIM, else the workspace's debug or release build."""
    given = os.environ.get("CSPACE_SIM")
    candidates = [Path(given)] if given else [
        REPO / "target" / "debug" / "sim",
        REPO / "target" / "release" / "sim",
    ]
    for c in candidates:
        if c.is_file():
            return c
    raise RuntimeError(
        f"no sim binary at {', '.join(map(str, candidates))}: build it with "
        "`cargo build -p cspace-cli` (or set CSPACE_SIM)"
    )


@pytest.fixture(scope="session")
def sim():
    """Runs `sim ARGS` and returns the completed process (text)."""
    binary = sim_binary()

    def run(*args: str, stdin: str = "", check: bool = True) -> subprocess.CompletedProcess:
        out = subprocess.run(
            [str(binary), *map(str, args)],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=REPO,
        )
        if check and out.returncode != 0:
            raise AssertionError(f"sim {args} exited {out.returncode}: {out.stderr}")
        return out

    return run


def corpus_map(request, name: str) -> Path:
    """A map of the corpus, or a skip naming the test when CSPACE_MAPS is unset."""
    maps = os.environ.get("CSPACE_MAPS")
    if not maps:
        # The corpus contract's words (cspace-corpus, `cspace_mapfile::CORPUS_HINT`).
        pytest.skip(
            f"skipped: {request.node.name} "
            "(CSPACE_MAPS unset; from the repository root: CSPACE_MAPS=../shared/maps)"
        )
    folder = Path(maps)
    if not folder.is_absolute():
        # Relative to where the command was typed, as the Rust tests read it from the repository.
        folder = (Path.cwd() / folder) if (Path.cwd() / folder).is_dir() else REPO / folder
    path = folder / name
    if not path.is_file():
        raise RuntimeError(f"CSPACE_MAPS={maps} is set but {path} cannot be read")
    return path


@pytest.fixture
def e1m1(request) -> Path:
    return corpus_map(request, "quake_e1m1.map")


@pytest.fixture
def rooms() -> Path:
    """Two rooms and a corridor (scenarios/rooms.map), in the repository."""
    return SCENARIOS / "rooms.map"


def actions(n: int, **set_: "object") -> dict:
    """Dict actions for `n` agents: standing still, looking ahead, unless `set_` gives arrays
    (`move=...`); float64 arrays the test may change in place."""
    import numpy as np

    a = {
        "move": np.zeros((n, 2)),
        "turn": np.zeros((n, 2)),
        "jump": np.zeros(n),
        "crouch": np.zeros(n),
    }
    a.update({k: np.asarray(v, dtype=np.float64) for k, v in set_.items()})
    return a

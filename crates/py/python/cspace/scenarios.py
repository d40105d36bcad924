"""Scenarios and sweeps from Python: the runs ``sim run`` and ``sim sweep`` make."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Sequence, Union

from . import _cspace

PathLike = Union[str, "os.PathLike[str]"]


def run_scenario(path: PathLike, backend: str | None = None) -> dict[str, Any]:
    """Runs the scenario at ``path`` on ``backend`` (default: the first it names or supports).

    Returns its outcome: ``scenario``, ``backend``, ``passed``, ``end_state`` (the state
    fingerprint, 16 hex digits, as ``sim sweep`` writes it), ``steps``, ``agent_steps``,
    ``expectations`` (each ``agent``, ``check``, ``at``, ``passed``, ``failure``) and ``trace``
    (the trace text, docs/trace-format.md). A bad scenario raises :class:`cspace.Error` with
    ``sim``'s message (``file:line:column: ...``).
    """
    return _cspace.run_scenario(os.fspath(path), backend)


def _files(spec: PathLike | Sequence[PathLike]) -> list[str]:
    if isinstance(spec, (str, os.PathLike)):
        return [os.fspath(spec)]
    return [os.fspath(p) for p in spec]


def sweep_lines(
    spec: PathLike | Sequence[PathLike],
    shard: tuple[int, int] | None = None,
    *,
    backends: Iterable[str] | None = None,
    seeds: str | None = None,
    threads: int | None = None,
) -> list[str]:
    """The JSON lines ``sim sweep SPEC [--shard I/N]`` writes, byte for byte (without newlines).

    ``spec``: a sweep file, or scenario files; ``shard``: ``(i, n)``, shard ``i`` of ``n``
    counted from 1; ``backends``, ``seeds`` (``"0..100"``) and ``threads`` as ``sim sweep``'s
    options. Shards' lines merged in run order are the whole sweep's.
    """
    return _cspace.sweep_lines(
        _files(spec),
        backends=list(backends) if backends is not None else None,
        seeds=seeds,
        shard=tuple(shard) if shard is not None else None,
        threads=threads,
    )


def sweep(
    spec: PathLike | Sequence[PathLike],
    shard: tuple[int, int] | None = None,
    *,
    backends: Iterable[str] | None = None,
    seeds: str | None = None,
    threads: int | None = None,
) -> list[dict[str, Any]]:
    """The records of ``sim sweep``'s lines (:func:`sweep_lines`, each parsed): ``run``,
    ``runs``, ``scenario``, ``name``, ``map``, ``seed``, ``backend``, ``passed``, ``error``,
    ``expectations``, ``end_state``, ``steps``, ``agent_steps`` (docs/sweep.md)."""
    lines = sweep_lines(spec, shard, backends=backends, seeds=seeds, threads=threads)
    return [json.loads(line) for line in lines]

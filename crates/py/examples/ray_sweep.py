"""A sweep in shards on a Ray cluster: each shard is one Ray task running `cspace.sweep_lines`
(one shard should take minutes, not milliseconds: a task costs Ray a few milliseconds to
schedule), and the driver merges the shards' lines in run order, byte for byte the lines
`sim sweep` writes for the whole sweep.

    pip install ./crates/py "ray[default]"
    python crates/py/examples/ray_sweep.py scenarios/sweeps/crowd_drop.toml --shards 8 --seeds 0..1000

On a cluster, start Ray on the nodes (`ray start --head`, `ray start --address=...`) and run the
driver with RAY_ADDRESS set; every node needs the package and the sweep's files at the same
paths (a shared file system, or a runtime_env with a working_dir). Without Ray installed,
`--local` runs the same shards one after another in this process.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable

import cspace


def run_shard(spec: list[str], index: int, count: int, seeds: str | None, threads: int) -> list[str]:
    """Shard `index` of `count` (from 1): its JSON lines, in run order."""
    return cspace.sweep_lines(spec, (index, count), seeds=seeds, threads=threads)


def merge(shards: Iterable[list[str]]) -> list[str]:
    """The shards' lines in run order; a run missing or found twice is an error (as `sim sweep
    --merge` refuses it)."""
    lines = sorted((json.loads(line)["run"], line) for shard in shards for line in shard)
    runs = [run for run, _ in lines]
    total = json.loads(lines[0][1])["runs"] if lines else 0
    if runs != list(range(total)):
        raise ValueError(f"the shards hold runs {runs[:5]}..., not 0..{total}")
    return [line for _, line in lines]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="+", help="a sweep file, or scenario files")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--seeds", default=None)
    parser.add_argument("--threads", type=int, default=1, help="threads per shard (its CPUs)")
    parser.add_argument("--out", default="-")
    parser.add_argument("--local", action="store_true", help="no Ray: run the shards here")
    args = parser.parse_args(argv)
    n = args.shards
    if args.local:
        shards = [run_shard(args.spec, i, n, args.seeds, args.threads) for i in range(1, n + 1)]
    else:
        import ray

        ray.init()
        task = ray.remote(num_cpus=args.threads)(run_shard)
        shards = ray.get(
            [task.remote(args.spec, i, n, args.seeds, args.threads) for i in range(1, n + 1)]
        )
    lines = merge(shards)
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    with out:
        for line in lines:
            out.write(line + "\n")
    failed = sum(not json.loads(line)["passed"] for line in lines)
    print(f"{len(lines)} runs in {n} shards, {failed} failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

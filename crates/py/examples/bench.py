"""The Python benchmark: agent steps per second of `cspace.VectorEnv` stepping a crowd with
random actions, beside `sim bench`'s figure for the same crowd, in interleaved runs, medians.

    cargo build --release -p cspace-cli
    pip install ./crates/py            # a release build
    python crates/py/examples/bench.py --map ../shared/maps/quake_e1m1.map --runs 7

Each run times, in turn: the environment with the default observations and 8 depth rays, the
same without rays (so the rays' cost is the difference, and the core's own clock says it too),
and `sim bench --agents N --steps S --map MAP --backends onion --runs 1` (its onion row for the
map). The environment steps the crowd `sim bench` places (`spread` 384 units around the spawn
points, seed 11) at its time step (1/60 s); actions are drawn before the clock starts, and one
step is taken before it starts, as `sim bench` does. One thread: a per-core figure.

Reported per configuration: agent steps per second (median and range), and from the core's
clock the time per step in Rust (`step_nanos`: checks, intents, the simulation, observations),
in the simulation (`sim_nanos`) and in the rays (`ray_nanos`); the Python call overhead per step
is the wall time per step less the time in Rust.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import cspace

REPO = Path(__file__).resolve().parents[3]


def python_run(env: cspace.VectorEnv, actions: list, steps: int) -> dict:
    env.reset(seed=0)
    env.step(actions[0])
    before = env.timings()
    start = time.perf_counter()
    for a in actions[1 : steps + 1]:
        env.step(a)
    wall = time.perf_counter() - start
    after = env.timings()
    per = lambda key: (after[key] - before[key]) / steps  # noqa: E731  nanoseconds per step
    return {
        "agent_steps_per_second": env.num_envs * steps / wall,
        "wall_ns_per_step": wall * 1e9 / steps,
        "rust_ns_per_step": per("step_nanos"),
        "sim_ns_per_step": per("sim_nanos"),
        "ray_ns_per_step": per("ray_nanos"),
    }


def sim_bench_run(sim: str, map_path: str, agents: int, steps: int) -> float:
    out = subprocess.run(
        [sim, "bench", "--agents", str(agents), "--steps", str(steps), "--map", map_path,
         "--backends", "onion", "--runs", "1", "--json"],
        capture_output=True, text=True, check=True,
    )
    rows = [r for r in json.loads(out.stdout) if r["world"] != "open world"]
    return rows[0]["agent_steps_per_second"]


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f} ({min(values):,.0f} - {max(values):,.0f})"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--map", default=os.path.join("..", "shared", "maps", "quake_e1m1.map"))
    p.add_argument("--agents", type=int, default=1000)
    p.add_argument("--steps", type=int, default=120)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--rays", type=int, default=8)
    p.add_argument("--sim", default=str(REPO / "target" / "release" / "sim"))
    p.add_argument("--no-crouch", action="store_true", help="standing boxes only, as sim bench")
    args = p.parse_args(argv)
    common = dict(time_step=1.0 / 60.0, threads=1, crouch=not args.no_crouch)
    envs = {
        f"python, {args.rays} rays": cspace.VectorEnv(args.map, args.agents, rays=args.rays, **common),
        "python, no rays": cspace.VectorEnv(args.map, args.agents, rays=0, **common),
    }
    actions = {}
    for name, env in envs.items():
        env.action_space.seed(1)
        actions[name] = [env.action_space.sample() for _ in range(args.steps + 1)]
    results: dict[str, list] = {name: [] for name in envs}
    bench: list[float] = []
    for run in range(args.runs):
        for name, env in envs.items():
            results[name].append(python_run(env, actions[name], args.steps))
        bench.append(sim_bench_run(args.sim, args.map, args.agents, args.steps))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    print(f"{args.agents} agents on {args.map}, {args.steps} steps of 1/60 s, {args.runs} interleaved runs, one thread")
    print(f"| what | agent steps/s, median (range) | wall per step | in Rust | simulation | rays | Python overhead |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, runs in results.items():
        med = lambda k: statistics.median(r[k] for r in runs)  # noqa: E731
        print(
            f"| {name} | {summary([r['agent_steps_per_second'] for r in runs])} | "
            f"{med('wall_ns_per_step') / 1e3:,.0f} us | {med('rust_ns_per_step') / 1e3:,.0f} us | "
            f"{med('sim_ns_per_step') / 1e3:,.0f} us | {med('ray_ns_per_step') / 1e3:,.0f} us | "
            f"{(med('wall_ns_per_step') - med('rust_ns_per_step')) / 1e3:,.1f} us |"
        )
    print(f"| sim bench (onion) | {summary(bench)} | {args.agents / statistics.median(bench) * 1e6:,.0f} us | | | | |")
    rays = results[f"python, {args.rays} rays"]
    ray_ns = statistics.median(r["ray_ns_per_step"] for r in rays)
    per_ray = ray_ns / (args.agents * args.rays)
    target = 0.8 / (args.agents / statistics.median(bench) * 1e9 + ray_ns) * args.agents * 1e9
    got = statistics.median(r["agent_steps_per_second"] for r in rays)
    print(f"rays: {per_ray:,.0f} ns per ray ({ray_ns / 1e3:,.0f} us per step for {args.agents * args.rays} rays)")
    print(f"target: 80 % of sim bench with the rays' cost added = {target:,.0f} agent steps/s; measured {got:,.0f} ({got / target * 80:.0f} % of the bench figure with rays)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The gymnasium environments: :class:`VectorEnv` (N agents in one or several worlds) and
:class:`Env` (one agent).

The observations are NumPy arrays that the Rust core allocates once and rewrites in place at
every ``reset`` and ``step`` (with the GIL released): they are valid until the next call, as
EnvPool's and PufferLib's buffers are. Pass ``copy=True`` for fresh arrays every call (what
gymnasium's checker asks for, since users keep what they are given), or copy what you keep.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from . import _cspace

PathLike = Union[str, "os.PathLike[str]"]

#: The largest coordinate of cspace's numeric domain, units (``tolerance::MAX_COORDINATE``).
MAX_COORDINATE = 524_288.0
#: The largest speed of cspace's numeric domain, units/s (``tolerance::MAX_SPEED``).
MAX_SPEED = 65_536.0
#: The steepest view pitch either way, degrees (the core's ``MAX_PITCH``).
MAX_PITCH = 89.0
#: DeepMind Lab's look actions are in pixels per frame, within +-512 (its ``action_spec``).
DMLAB_LOOK = 512

_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}


def _task(task: Mapping[str, Any] | None) -> dict[str, Any]:
    task = dict(task or {})
    known = {"goal", "reward", "radius", "arrival", "progress_scale", "max_steps"}
    unknown = set(task) - known
    if unknown:
        raise _cspace.Error(
            f"task: unknown keys {sorted(unknown)}; expected some of {sorted(known)}"
        )
    return task


class VectorEnv(gymnasium.vector.VectorEnv):
    """N agents moving with Quake III's movement model through Quake maps, as one gymnasium
    vector environment: each agent is a sub-environment (``num_envs = agents * len(maps)``).

    Agents of one world share it and collide with each other; worlds are independent. Each
    world is one cspace simulation, driven step by step through the same ``set_intent`` calls
    scripts use, so a recorded run replays on the command line on the same bits
    (:meth:`record`, :meth:`state_hashes`).

    Args:
        maps: a ``.map`` file or TOML world, or a list of them (one simulation each; a path may
            repeat, its backend is built once).
        agents: agents per world, placed as ``sim bench`` places its crowd (within ``spread``
            units of the spawn points, seed ``placement_seed``).
        backend: the collision backend (``cspace.BACKENDS``; ``onion`` by default).
        movement: ``"cspace"`` (default) or ``"quake3"`` (docs/movement.md).
        time_step: seconds per step (1/64 by default).
        crouch: agents can crouch (a crouching box beside the standing one).
        actions: ``"dict"`` (move, turn, jump, crouch) or ``"dmlab"`` (DeepMind Lab's seven
            integers).
        turn: ``"relative"`` (degrees per step, within ``max_turn``) or ``"absolute"`` (the
            yaw and pitch themselves).
        rays, fov, ray_pitch, ray_range, ray_units: the depth rays: ``rays`` per agent in a fan
            ``fov`` degrees wide at ``ray_pitch`` (degrees, positive down) reaching
            ``ray_range`` units, as ``"fraction"`` of the range or ``"distance"`` in units.
        task: ``goal`` (``"spawn"``, ``"random"``, ``"given"`` or ``"none"``), ``reward``
            (``"progress"`` or ``"sparse"``), ``radius`` (arrival, units), ``arrival`` (its
            reward), ``progress_scale`` (reward per unit gained), ``max_steps`` (truncation;
            0: none).
        autoreset_mode: ``"next_step"`` (default), ``"same_step"`` or ``"disabled"``, or a
            :class:`gymnasium.vector.AutoresetMode`.
        dtype: ``np.float32`` (default) or ``np.float64`` for the observations.
        copy: return fresh observation arrays every call (default: the core's arrays, valid
            until the next call).
        threads: threads stepping the worlds, the interaction groups and the rays (the answers
            are the same on any number).
        parallel_from: a world's crowd steps in interaction groups from this many agents.
        record: keep the run (events, samples, intents) for :meth:`record`.
        sample_every: trajectory sampling of the record, in steps.
        name: the name of traces and replay scenarios.
        jitter: a reset moves each agent's start by up to this many units along x and y.
        degrees_per_pixel: DeepMind Lab layout only: degrees per look pixel.
    """

    def __init__(
        self,
        maps: PathLike | Sequence[PathLike],
        agents: int = 1,
        *,
        backend: str = "onion",
        movement: str = "cspace",
        time_step: float = 1.0 / 64.0,
        crouch: bool = True,
        actions: str = "dict",
        turn: str = "relative",
        max_turn: float = 180.0,
        rays: int = 8,
        fov: float = 90.0,
        ray_pitch: float = 0.0,
        ray_range: float = 1024.0,
        ray_units: str = "fraction",
        task: Mapping[str, Any] | None = None,
        autoreset_mode: str | AutoresetMode = "next_step",
        dtype: Any = np.float32,
        copy: bool = False,
        threads: int = 1,
        parallel_from: int | None = None,
        record: bool = False,
        sample_every: int = 1,
        name: str = "python",
        spread: float = 384.0,
        placement_seed: int = 11,
        jitter: float = 8.0,
        degrees_per_pixel: float = 0.1,
    ) -> None:
        if isinstance(maps, (str, os.PathLike)):
            maps = [maps]
        maps = [os.fspath(m) for m in maps]
        if isinstance(autoreset_mode, str):
            if autoreset_mode not in _MODES:
                raise _cspace.Error(
                    f"autoreset_mode: expected one of {sorted(_MODES)}, got {autoreset_mode!r}"
                )
            autoreset_mode = _MODES[autoreset_mode]
        if actions not in ("dict", "dmlab"):
            raise _cspace.Error(f'actions: expected "dict" or "dmlab", got {actions!r}')
        if actions == "dmlab" and turn != "relative":
            raise _cspace.Error('actions="dmlab" looks in pixels per frame: turn must be "relative"')
        if ray_units not in ("fraction", "distance"):
            raise _cspace.Error(f'ray_units: expected "fraction" or "distance", got {ray_units!r}')
        dtype = np.dtype(dtype)
        if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise _cspace.Error(f"dtype: expected float32 or float64, got {dtype}")
        if not (degrees_per_pixel > 0 and np.isfinite(degrees_per_pixel)):
            raise _cspace.Error(f"degrees_per_pixel must be positive, got {degrees_per_pixel}")
        task = _task(task)
        kwargs: dict[str, Any] = dict(
            backend=backend,
            movement=movement,
            time_step=float(time_step),
            crouch=bool(crouch),
            spread=float(spread),
            placement_seed=int(placement_seed),
            jitter=float(jitter),
            turn=turn,
            max_turn=float(max_turn),
            rays=int(rays),
            fov=float(fov),
            ray_pitch=float(ray_pitch),
            ray_range=float(ray_range),
            ray_distances=ray_units == "distance",
            threads=int(threads),
            sample_every=int(sample_every) if record else None,
            name=name,
            float64=dtype == np.dtype(np.float64),
            **task,
        )
        if parallel_from is not None:
            kwargs["parallel_from"] = int(parallel_from)
        self._core = _cspace.Core(maps, int(agents), **kwargs)
        self.num_envs = self._core.num_agents
        self.num_worlds = self._core.num_worlds
        self.agents_per_world = int(agents)
        self.maps = maps
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": []}
        self.render_mode = None
        self.autoreset_mode = autoreset_mode
        self._copy = bool(copy)
        self._layout = actions
        self._turn = turn
        self._degrees_per_pixel = float(degrees_per_pixel)
        self._dtype = dtype
        self._obs = dict(self._core.observations())
        self._rewards, self._terminated, self._truncated = self._core.results()
        self._autoreset = np.zeros(self.num_envs, dtype=np.bool_)
        self._next_seed = 0
        self._zeros = np.zeros(self.num_envs, dtype=np.float64)
        if rays == 0:
            del self._obs["depth"]
        self.single_observation_space = self._observation_space(rays, ray_units, ray_range)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.single_action_space = self._action_space(max_turn)
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )

    # ---- spaces ----------------------------------------------------------------------------

    def _observation_space(self, rays: int, units: str, reach: float) -> spaces.Dict:
        d = self._dtype
        box = lambda lo, hi, shape: spaces.Box(lo, hi, shape, dtype=d)  # noqa: E731
        fields = {
            "position": box(-MAX_COORDINATE, MAX_COORDINATE, (3,)),
            "velocity": box(-MAX_SPEED, MAX_SPEED, (3,)),
            "view": spaces.Box(
                np.array([-180.0, -MAX_PITCH], dtype=d),
                np.array([180.0, MAX_PITCH], dtype=d),
                dtype=d,
            ),
            "on_ground": box(0.0, 1.0, ()),
            "crouched": box(0.0, 1.0, ()),
            "goal": box(-2 * MAX_COORDINATE, 2 * MAX_COORDINATE, (3,)),
        }
        if rays > 0:
            fields["depth"] = box(0.0, 1.0 if units == "fraction" else reach, (rays,))
        return spaces.Dict(fields)

    def _action_space(self, max_turn: float) -> spaces.Space:
        if self._layout == "dmlab":
            return spaces.Box(
                low=np.array([-DMLAB_LOOK, -DMLAB_LOOK, -1, -1, 0, 0, 0], dtype=np.int32),
                high=np.array([DMLAB_LOOK, DMLAB_LOOK, 1, 1, 1, 1, 1], dtype=np.int32),
                dtype=np.int32,
            )
        if self._turn == "absolute":
            turn = spaces.Box(
                np.array([-180.0, -MAX_PITCH], dtype=np.float32),
                np.array([180.0, MAX_PITCH], dtype=np.float32),
                dtype=np.float32,
            )
        else:
            turn = spaces.Box(-max_turn, max_turn, (2,), dtype=np.float32)
        return spaces.Dict(
            {
                "move": spaces.Box(-1.0, 1.0, (2,), dtype=np.float32),
                "turn": turn,
                "jump": spaces.Discrete(2),
                "crouch": spaces.Discrete(2),
            }
        )

    # ---- actions ---------------------------------------------------------------------------

    def _split(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The batched actions as the core reads them: float64 arrays (N, 2), (N, 2), (N,),
        (N,); the core checks shapes and values and names the agent at fault."""
        f64 = lambda a: np.ascontiguousarray(a, dtype=np.float64)  # noqa: E731
        if self._layout == "dmlab":
            a = np.asarray(actions)
            if a.shape != (self.num_envs, 7):
                raise _cspace.ActionError(
                    f"dmlab actions: expected shape ({self.num_envs}, 7), got {a.shape}"
                )
            a = f64(a)
            for col, name, lo, hi in (
                (0, "look left/right", -DMLAB_LOOK, DMLAB_LOOK),
                (1, "look down/up", -DMLAB_LOOK, DMLAB_LOOK),
                (4, "fire", 0, 1),
            ):
                bad = ~((a[:, col] >= lo) & (a[:, col] <= hi))
                if bad.any():
                    i = int(np.argmax(bad))
                    raise _cspace.ActionError(
                        f"agent {i}: {name} {a[i, col]} is not within [{lo}, {hi}]"
                    )
            # Names read negative-first: LOOK_LEFT_RIGHT < 0 looks left (a positive yaw in
            # Quake's angles), LOOK_DOWN_UP < 0 looks down (a positive pitch).
            turns = np.stack([-a[:, 0], -a[:, 1]], axis=1) * self._degrees_per_pixel
            moves = np.stack([a[:, 3], a[:, 2]], axis=1)
            return f64(moves), f64(turns), f64(a[:, 5]), f64(a[:, 6])
        if not isinstance(actions, Mapping):
            raise _cspace.ActionError(
                "actions: expected a dict of arrays with keys move, turn, jump, crouch "
                f"(the action space), got {type(actions).__name__}"
            )
        missing = {"move", "turn", "jump", "crouch"} - set(actions)
        if missing:
            raise _cspace.ActionError(f"actions: missing {sorted(missing)}")
        return (
            f64(actions["move"]),
            f64(actions["turn"]),
            f64(actions["jump"]),
            f64(actions["crouch"]),
        )

    # ---- the API ---------------------------------------------------------------------------

    def _observations(self) -> dict[str, np.ndarray]:
        if self._copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return dict(self._obs)

    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Resets every agent (every world's simulation made anew: step 0, its record
        restarted), or with ``options["reset_mask"]`` the masked agents where they are.

        ``seed``: agent ``i`` draws its start, heading and goal from generators seeded with
        ``seed``, ``i`` and a stream (the sweep's rule); without it, the next seed (0 first,
        then one more each full reset). ``options["goals"]``: goals (N, 3) for
        ``task={"goal": "given"}``.
        """
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        goals = options.pop("goals", None)
        if options:
            raise _cspace.Error(
                f"reset options: unknown keys {sorted(options)}; expected reset_mask, goals"
            )
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise _cspace.Error(
                    f"reset_mask: expected a boolean array of shape ({self.num_envs},), "
                    f"got {mask.dtype} {mask.shape}"
                )
            self._core.reset(seed=seed, mask=mask)
            self._autoreset[mask] = False
        else:
            if seed is None:
                seed = self._next_seed
            self._next_seed = int(seed) + 1
            self._core.reset(seed=int(seed))
            self._autoreset[:] = False
        if goals is not None:
            self.set_goals(goals, mask)
        return self._observations(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One step of every agent: returns ``(observations, rewards, terminated, truncated,
        infos)``. Bad actions (a wrong shape, NaN, a value out of range) raise
        :class:`cspace.ActionError` naming the agent and the value, before anything moves."""
        moves, turns, jumps, crouches = self._split(actions)
        next_step = self.autoreset_mode == AutoresetMode.NEXT_STEP
        resetting = self._autoreset if next_step and self._autoreset.any() else None
        self._core.step(moves, turns, jumps, crouches, resetting)
        infos: dict[str, Any] = {}
        done = np.logical_or(self._terminated, self._truncated)
        if next_step:
            self._autoreset = done
        elif self.autoreset_mode == AutoresetMode.SAME_STEP and done.any():
            final_obs = np.empty(self.num_envs, dtype=object)
            final_info = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = {k: v[i].copy() for k, v in self._obs.items()}
                final_info[i] = {}
            infos = {
                "final_obs": final_obs,
                "_final_obs": done.copy(),
                "final_info": final_info,
                "_final_info": done.copy(),
            }
            self._core.reset(mask=done)
        if self._copy:
            return (
                self._observations(),
                self._rewards.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
                infos,
            )
        return self._observations(), self._rewards, self._terminated, self._truncated, infos

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release beyond the core, which Python frees."""

    # ---- beyond gymnasium ------------------------------------------------------------------

    def set_goals(self, goals: Any, mask: Any = None) -> None:
        """Sets the goals (N, 3 world coordinates) of the agents of ``mask`` (all without it);
        their observations are rewritten."""
        goals = np.ascontiguousarray(goals, dtype=np.float64)
        if mask is not None:
            mask = np.asarray(mask, dtype=np.bool_)
        self._core.set_goals(goals, mask)

    def goals(self) -> np.ndarray:
        """Every agent's goal, world coordinates (N, 3); NaN where the task has none."""
        return self._core.goals()

    def episode_steps(self) -> np.ndarray:
        """Each agent's steps in its current episode."""
        return self._core.episode_steps()

    def timings(self) -> dict[str, int]:
        """Where the time went since the environment was made, nanoseconds: ``steps`` (step
        calls), ``step_nanos`` (in Rust, from each call's arrival to its return), ``sim_nanos``
        (the simulations' steps, summed over worlds), ``ray_nanos`` (the depth rays). Wall time
        per step less ``step_nanos`` per step is the Python side's share."""
        return dict(self._core.timings())

    def state_hashes(self) -> list[int]:
        """Each world's state fingerprint (``Sim::state_hash``: FNV-1a over every agent's
        position, velocity, pose, ground contact and sleep bits): what ``sim`` prints as
        ``end_state`` (in hex) for the same world, agents and inputs."""
        return list(self._core.state_hashes())

    def state_hash(self, world: int = 0) -> int:
        """World ``world``'s state fingerprint (:meth:`state_hashes`)."""
        return self.state_hashes()[world]

    def spawns(self, world: int = 0) -> np.ndarray:
        """The spawn points of world ``world`` (k, 3)."""
        return np.array(self._core.spawns(world), dtype=np.float64).reshape(-1, 3)

    @property
    def steps(self) -> int:
        """Steps since the last full reset."""
        return self._core.steps

    def record(
        self, path: PathLike, *, world: int = 0, scenario: PathLike | None = None
    ) -> None:
        """Writes world ``world``'s run since the last full reset as a trace (docs/trace-
        format.md), and with ``scenario`` a scenario that replays it: the map, every agent's
        start and, every step, the intent it was given. ``sim run SCENARIO`` ends on the same
        state (:meth:`state_hashes`) and ``sim plot SCENARIO --against TRACE`` draws the run.
        Needs ``record=True``; a scenario needs a run without per-agent resets."""
        text = self._core.trace(world)
        replay = self._core.replay_scenario(world) if scenario is not None else None
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        if replay is not None:
            with open(scenario, "w", encoding="utf-8") as f:
                f.write(replay)

    def ray_segments(self, eye: Sequence[float], yaw: float, pitch: float) -> list:
        """The depth rays' segments from ``eye`` with the view (``yaw``, ``pitch``), degrees:
        ``[((x0, y0, z0), (x1, y1, z1)), ...]`` (what ``sim los`` and ``sim trace`` take)."""
        return self._core.ray_segments(tuple(float(x) for x in eye), float(yaw), float(pitch))


class Env(gymnasium.Env):
    """One agent in one world, as a plain :class:`gymnasium.Env` (a :class:`VectorEnv` of one,
    autoreset off, observations copied): what gymnasium's ``check_env`` checks. The keyword
    arguments are :class:`VectorEnv`'s."""

    metadata = {"render_modes": []}

    def __init__(self, map: PathLike, **kwargs: Any) -> None:
        kwargs.pop("autoreset_mode", None)
        kwargs.pop("agents", None)
        self._vec = VectorEnv(map, 1, autoreset_mode="disabled", **kwargs)
        self.observation_space = self._vec.single_observation_space
        self.action_space = self._vec.single_action_space

    def _one(self, obs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {k: np.array(v[0]) for k, v in obs.items()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        obs, _ = self._vec.reset(seed=seed, options=options)
        return self._one(obs), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        if isinstance(action, Mapping):
            batched = {k: np.asarray(v)[None] for k, v in action.items()}
        else:
            batched = np.asarray(action)[None]
        obs, rewards, terminated, truncated, _ = self._vec.step(batched)
        return self._one(obs), float(rewards[0]), bool(terminated[0]), bool(truncated[0]), {}

    @property
    def vector(self) -> VectorEnv:
        """The vector environment of one agent underneath."""
        return self._vec

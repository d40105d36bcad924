"""cspace from Python: agents that move with Quake III's movement model through Quake maps,
with exact collisions, stepped in batches from NumPy arrays (docs/python.md).

- :class:`VectorEnv`: a gymnasium 1.x vector environment of N agents in one or several worlds;
  :class:`Env`: one agent, a plain ``gymnasium.Env``.
- :func:`run_scenario` and :func:`sweep`: what ``sim run`` and ``sim sweep`` run, with the same
  outcomes and lines.
- :class:`Error` and :class:`ActionError`: what every Rust error becomes, with the message
  ``sim`` prints.
"""

from ._cspace import BACKENDS, ActionError, Error, __version__
from .env import Env, VectorEnv
from .scenarios import run_scenario, sweep, sweep_lines

__all__ = [
    "BACKENDS",
    "ActionError",
    "Env",
    "Error",
    "VectorEnv",
    "__version__",
    "run_scenario",
    "sweep",
    "sweep_lines",
]

"""What a game declares about how it is scored and evaluated: plain data, no code.

A game names its *metric family* (``Game.family``: whose paper's metrics and table score
it, e.g. ``"maze"``; ``"generic"`` when no paper table applies) and, when its paper had
one, its *evaluation protocol* (``Game.eval_protocol``, an :class:`EvalProtocol`): fixed
options, default sweeps, episodes, re-asks and the paper's ablation. ``langgraph_games.eval``
maps a family name to its metric functions and reads the protocol through the game
registry, so adding a game (or a plugin game) touches only its own folder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["AblationArm", "EvalProtocol"]


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class AblationArm:
    """One row of a paper's ablation, as the game declares it.

    Attributes:
        label: The row label, as the paper prints it (``"Full-Vision"``).
        options: Game options this row sets on top of the run's.
        strategy: For an ablation that varies the strategy (the protocol's
            ``ablation_takes_model``): the strategy name the row plays, joined to the
            model spec as ``strategy:model``. ``None``: the run's agent.
    """

    label: str
    options: Mapping[str, Any] = field(default_factory=dict)
    strategy: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", _frozen(self.options))


@dataclass(frozen=True)
class EvalProtocol:
    """How a game's paper evaluated it; every field is a default the user may override.

    Attributes:
        level_option: The option ``--level`` sets (``None``: the generic ``level``), and
            the option training rounds vary; a game with one plays the fixed map sets.
        options: Fixed options the paper used.
        sweep: Options swept when the user sets neither the option nor a sweep of it,
            e.g. ``{"mines": (1, 2, 3)}``.
        map_sets: Maps per fixed set (``{"eval": 30, "train": 10}``): when the
            ``map_set`` option names one of them and ``map_index`` is not given, every
            map of the set is played (a ``map_index`` sweep from 1).
        repeats: Episodes per combination when the user gives no ``--episodes``.
        repeats_per_map: Episodes per combination when the maps are swept.
        max_retries: Re-asks per decision when the user gives no ``--max-retries``
            (``None``: the loop's default).
        ablation: The rows of the paper's ablation, in the paper's order.
        ablation_takes_model: The ablation varies the strategy, so it needs a model
            spec, not an agent spec.
    """

    level_option: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    sweep: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    map_sets: Mapping[str, int] = field(default_factory=dict)
    repeats: int = 10
    repeats_per_map: int = 1
    max_retries: int | None = None
    ablation: tuple[AblationArm, ...] = ()
    ablation_takes_model: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", _frozen(self.options))
        object.__setattr__(self, "sweep", _frozen({k: tuple(v) for k, v in self.sweep.items()}))
        object.__setattr__(self, "map_sets", _frozen(self.map_sets))

    def default_sweep(self, options: Mapping[str, Any]) -> dict[str, list[Any]]:
        """The sweeps this protocol adds to ``options`` (the fixed and given options).

        Example:
            >>> p = EvalProtocol(sweep={"level": (1, 2)}, map_sets={"eval": 3})
            >>> p.default_sweep({"map_set": "eval"})
            {'map_index': [1, 2, 3], 'level': [1, 2]}
            >>> p.default_sweep({"map_set": "eval", "map_index": 2, "level": 1})
            {}
        """
        out: dict[str, list[Any]] = {}
        maps = self.map_sets.get(options.get("map_set", ""))
        if maps is not None and options.get("map_index") is None:
            out["map_index"] = list(range(1, maps + 1))
        for key, values in self.sweep.items():
            if key not in options:
                out[key] = list(values)
        return out

    def default_repeats(self, sweep: Mapping[str, Any]) -> int:
        """Episodes per combination, given the sweeps of the run."""
        return self.repeats_per_map if "map_index" in sweep else self.repeats

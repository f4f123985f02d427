"""Rating systems: Elo in closed form and openskill's Bayesian models, both order-free.

Both are *sequential*: a match moves its two players' ratings, so the result depends on
the order the matches are taken in. Results files have no meaningful order (matches run
concurrently, files can be given in any order), so :func:`rate` takes the matches in
content order (see :mod:`~langgraph_games.eval.ratings.matches`), plays them in
``orderings`` seeded random permutations of that order and averages each player's
rating over the permutations. The result depends on the seed and the matches, never on
the order of files or lines.

- **Elo** (no maintained package fits: the ones on PyPI are unmaintained or
  single-purpose): expected score ``E_a = 1 / (1 + 10 ** ((R_b - R_a) / scale))``,
  update ``R_a += K * (S_a - E_a)`` with ``S_a`` 1 for a win, 0.5 for a draw, 0 for a
  loss (and the opposite for ``b``). Defaults: 1500, ``K = 32``, ``scale = 400``.
- **Skill** (TrueSkill-style, from the maintained `openskill
  <https://openskill.me>`_ package): Weng and Lin's Bayesian approximation with a
  Bradley-Terry (default), Plackett-Luce or Thurstone-Mosteller likelihood; a player is
  ``mu`` (25 at the start) and ``sigma`` (uncertainty, 25/3 at the start); a draw is a
  tie in rank, which the models score as half a win. ``mu`` and ``sigma`` are averaged
  over the permutations like Elo. openskill is optional (the ``ratings`` extra): without
  it :func:`skill_unavailable` says why and the leaderboard shows Elo alone.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SKILL_MODELS",
    "EloSettings",
    "Ratings",
    "elo_once",
    "rate",
    "skill_once",
    "skill_unavailable",
]

SKILL_MODELS = {
    "bradley_terry": "BradleyTerryFull",
    "plackett_luce": "PlackettLuce",
    "thurstone_mosteller": "ThurstoneMostellerFull",
}
"""openskill's model classes by our name (``--skill-model``)."""

Game = tuple[str, str, float]
"""``(player a, player b, a's score)``: 1 win, 0.5 draw, 0 loss."""


@dataclass(frozen=True)
class EloSettings:
    """Elo's constants.

    Attributes:
        base: Every player's starting rating.
        k: How far one match moves a rating.
        scale: Rating difference at which the stronger player's expected score is 10/11.
    """

    base: float = 1500.0
    k: float = 32.0
    scale: float = 400.0


@dataclass(frozen=True)
class Ratings:
    """Each player's Elo, skill ``mu`` and ``sigma``."""

    elo: dict[str, float]
    mu: dict[str, float]
    sigma: dict[str, float]


def elo_once(games: Sequence[Game], settings: EloSettings | None = None) -> dict[str, float]:
    """Elo ratings after the games, in the order given.

    Example:
        >>> elo_once([("a", "b", 1.0)])
        {'a': 1516.0, 'b': 1484.0}
    """
    settings = settings or EloSettings()
    ratings: dict[str, float] = {}
    for a, b, score in games:
        ra = ratings.setdefault(a, settings.base)
        rb = ratings.setdefault(b, settings.base)
        expected = 1.0 / (1.0 + 10.0 ** ((rb - ra) / settings.scale))
        ratings[a] = ra + settings.k * (score - expected)
        ratings[b] = rb - settings.k * (score - expected)
    return ratings


def skill_unavailable() -> str | None:
    """Why openskill's ratings cannot be computed here, or ``None`` when they can."""
    try:
        importlib.import_module("openskill.models")
    except ImportError as exc:
        return (
            f"skill ratings skipped: openskill is not installed ({exc}); install the "
            "'ratings' extra: pip install -e '.[ratings]' in a source checkout"
        )
    return None


def _skill_model(name: str) -> Any:
    if name not in SKILL_MODELS:
        raise ValueError(f"skill model {name!r}: accepted {', '.join(sorted(SKILL_MODELS))}")
    return getattr(importlib.import_module("openskill.models"), SKILL_MODELS[name])()


def skill_once(
    games: Sequence[Game], model: str = "bradley_terry"
) -> dict[str, tuple[float, float]]:
    """The openskill ``(mu, sigma)`` of each player after the games, in the order given.

    Raises:
        ImportError: openskill is not installed.
        ValueError: An unknown model.

    Example:
        >>> after = skill_once([("a", "b", 0.5)])
        >>> after["a"] == after["b"], round(after["a"][0], 6)
        (True, 25.0)
    """
    rater = _skill_model(model)
    ratings: dict[str, Any] = {}
    for a, b, score in games:
        ra = ratings.setdefault(a, rater.rating(name=a))
        rb = ratings.setdefault(b, rater.rating(name=b))
        ranks = [0, 1] if score > 0.5 else [1, 0] if score < 0.5 else [0, 0]
        [[ratings[a]], [ratings[b]]] = rater.rate([[ra], [rb]], ranks=ranks)
    return {name: (float(r.mu), float(r.sigma)) for name, r in ratings.items()}


def rate(
    games: Sequence[Game],
    rng: random.Random,
    *,
    orderings: int = 1,
    elo: EloSettings | None = None,
    model: str | None = "bradley_terry",
) -> Ratings:
    """Elo and skill averaged over ``orderings`` random permutations of ``games``.

    Args:
        games: The matches, in content order.
        rng: Draws the permutations (seeded by the caller).
        orderings: Permutations to average over (at least 1).
        elo: Elo's constants.
        model: The openskill model (see :data:`SKILL_MODELS`); ``None``: Elo alone (the
            skill tables stay empty).

    Raises:
        ValueError: ``orderings`` below 1 or an unknown model.
        ImportError: A model is asked for and openskill is not installed.
    """
    if orderings < 1:
        raise ValueError(f"orderings must be at least 1, got {orderings}")
    if model is not None:
        _skill_model(model)
    elo_sum: dict[str, float] = {}
    mu_sum: dict[str, float] = {}
    sigma_sum: dict[str, float] = {}
    order = list(games)
    for _ in range(orderings):
        rng.shuffle(order)
        for name, value in elo_once(order, elo).items():
            elo_sum[name] = elo_sum.get(name, 0.0) + value
        if model is None:
            continue
        for name, (mu, sigma) in skill_once(order, model).items():
            mu_sum[name] = mu_sum.get(name, 0.0) + mu
            sigma_sum[name] = sigma_sum.get(name, 0.0) + sigma
    return Ratings(
        elo={n: v / orderings for n, v in elo_sum.items()},
        mu={n: v / orderings for n, v in mu_sum.items()},
        sigma={n: v / orderings for n, v in sigma_sum.items()},
    )

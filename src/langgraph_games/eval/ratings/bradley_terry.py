"""The ranking rating: a Bradley-Terry fit of every match at once, on Elo's scale.

Elo and openskill (:mod:`~langgraph_games.eval.ratings.systems`) update ratings one match
at a time, so a player's rating reflects its opponents' ratings *when they met*, not the
opponents' final strength: a player that drew and lost against ``random`` early on keeps
a rating above ``random`` once ``random`` has lost many more matches to others. The
ranking rating is fitted to all matches together instead, so every head-to-head counts
against the opponents' final ratings, and has a standard error that shrinks with the
matches played:

- A player's rating ``R`` predicts its score against ``B`` as
  ``E = 1 / (1 + 10 ** ((R_b - R_a) / scale))``, as Elo does (a draw scores half).
- The ratings maximise the log-likelihood of the observed scores
  ``sum s log E + (1 - s) log (1 - E)`` plus a normal prior around ``base`` with standard
  deviation ``prior_sd`` on every rating (so an unbeaten player stays finite and a player
  with few matches stays near ``base``); Newton's method from ``base``.
- The standard error of each rating is from the inverse Hessian at the optimum (the
  normal approximation to the posterior), of the rating less the mean rating (matches
  only tell differences apart; the mean is ``base`` at the optimum); the interval is
  ``rating ± z se``. Its low end is the *conservative* rating the leaderboard ranks by: a
  player with few matches has a wide interval and ranks below a player of
  the same rating with many.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["BradleyTerrySettings", "Fitted", "fit_bradley_terry"]

Game = tuple[str, str, float]
"""``(player a, player b, a's score)``: 1 win, 0.5 draw, 0 loss."""


@dataclass(frozen=True)
class BradleyTerrySettings:
    """The fit's constants.

    Attributes:
        base: The prior's centre (every player's rating before any match).
        scale: Rating difference at which the stronger player's expected score is 10/11.
        prior_sd: The prior's standard deviation, in rating points.
    """

    base: float = 1500.0
    scale: float = 400.0
    prior_sd: float = 400.0


@dataclass(frozen=True)
class Fitted:
    """A player's fitted rating and its standard error."""

    rating: float
    se: float

    def interval(self, z: float) -> tuple[float, float]:
        """``rating ± z se``."""
        return self.rating - z * self.se, self.rating + z * self.se


def fit_bradley_terry(
    games: Sequence[Game], settings: BradleyTerrySettings | None = None
) -> dict[str, Fitted]:
    """Every player's rating and standard error from all the games at once.

    The result does not depend on the order of ``games``.

    Example:
        >>> fitted = fit_bradley_terry([("a", "b", 1.0), ("a", "b", 0.5)])
        >>> round(fitted["a"].rating - 1500) == round(1500 - fitted["b"].rating) > 0
        True
        >>> fit_bradley_terry([("a", "b", 0.5)])["a"].rating
        1500.0
    """
    settings = settings or BradleyTerrySettings()
    names = sorted({name for a, b, _ in games for name in (a, b)})
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    if n == 0:
        return {}
    a_idx = np.array([index[a] for a, _, _ in games], dtype=int)
    b_idx = np.array([index[b] for _, b, _ in games], dtype=int)
    scores = np.array([float(s) for _, _, s in games], dtype=float)
    c = math.log(10.0) / settings.scale
    precision = 1.0 / settings.prior_sd**2
    theta = np.zeros(n)  # ratings minus base
    hessian = np.eye(n) * precision
    for _ in range(100):
        expected = 1.0 / (1.0 + np.exp(-c * (theta[a_idx] - theta[b_idx])))
        residual = c * (scores - expected)
        gradient = -precision * theta
        np.add.at(gradient, a_idx, residual)
        np.add.at(gradient, b_idx, -residual)
        weight = c * c * expected * (1.0 - expected)
        hessian = np.eye(n) * precision
        np.add.at(hessian, (a_idx, a_idx), weight)
        np.add.at(hessian, (b_idx, b_idx), weight)
        np.add.at(hessian, (a_idx, b_idx), -weight)
        np.add.at(hessian, (b_idx, a_idx), -weight)
        step = np.linalg.solve(hessian, gradient)
        theta = theta + step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    # Matches tell only differences apart; the ratings' common level comes from the prior
    # alone (their mean is ``base`` at the optimum). The errors are of each rating less
    # the mean, so that level's uncertainty, shared by every player, does not widen them.
    centre = np.eye(n) - np.full((n, n), 1.0 / n)
    covariance = centre @ np.linalg.inv(hessian) @ centre
    se = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return {
        name: Fitted(settings.base + float(theta[i]), float(se[i])) for name, i in index.items()
    }

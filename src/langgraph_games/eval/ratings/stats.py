"""Interval estimates: bootstrap percentiles, and how many matches a pair needs to be told apart.

**Bootstrap** (:func:`percentile_interval`): the 2.5th and 97.5th percentiles (for 95%)
of a statistic over resampled match sets, linear interpolation between order statistics
(numpy's default).

**Matches to tell a pair apart** (:func:`matches_to_separate`), a normal approximation:
``x_1 .. x_n`` are A's scores against B (1 win, 0.5 draw, 0 loss) and ``p = mean(x)``,
so the observed difference of the two win rates is ``p - (1 - p) = 2p - 1``. The
per-match variance ``s^2`` is the sample variance of the scores *with one win and one
loss added* (``n + 2`` values, divisor ``n + 1``), so a pair whose every match went the
same way still has a positive variance. The 95% interval ``p ± z s / sqrt(n)``
(``z = 1.96``) excludes 1/2, the two players are told apart, when
``n > (z s / (p - 1/2))^2``; the matches needed in all are the smallest such ``n``,
``floor((z s / (p - 1/2))^2) + 1``, assuming ``p`` and ``s`` stay as observed. With
``p = 1/2`` no number of matches separates them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

__all__ = ["Estimate", "Separation", "matches_to_separate", "percentile_interval", "z_value"]


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile: 1.959964 for 95%.

    Raises:
        ValueError: ``confidence`` is not strictly between 0 and 1.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1 (exclusive), got {confidence}")
    return NormalDist().inv_cdf(1.0 - (1.0 - confidence) / 2.0)


@dataclass(frozen=True)
class Estimate:
    """A point estimate and its interval (``None`` where there is none).

    Attributes:
        value: From all the matches.
        low: Lower end of the bootstrap interval.
        high: Upper end.
        samples: Bootstrap replicates in which the statistic existed (a player who drew
            no match in a replicate has no rating there).
    """

    value: float | None
    low: float | None = None
    high: float | None = None
    samples: int = 0

    def excludes(self, point: float) -> bool:
        """Whether the interval lies wholly on one side of ``point``."""
        if self.low is None or self.high is None:
            return False
        return self.low > point or self.high < point


def percentile_interval(
    values: Sequence[float], confidence: float = 0.95
) -> tuple[float, float] | None:
    """The central ``confidence`` interval of ``values`` (``None`` when empty).

    Example:
        >>> percentile_interval([0.0, 1.0, 2.0, 3.0, 4.0], confidence=0.5)
        (1.0, 3.0)
    """
    if not values:
        return None
    tail = 100.0 * (1.0 - confidence) / 2.0
    low, high = np.percentile(np.asarray(values, dtype=float), [tail, 100.0 - tail])
    return float(low), float(high)


def estimate(value: float | None, samples: Sequence[float], confidence: float) -> Estimate:
    """An :class:`Estimate` from the point value and the bootstrap replicates."""
    interval = percentile_interval(samples, confidence)
    if value is None or interval is None:
        return Estimate(value, samples=len(samples))
    return Estimate(value, interval[0], interval[1], len(samples))


@dataclass(frozen=True)
class Separation:
    """Whether a pair's head-to-head tells the two apart, or how many matches would.

    Attributes:
        matches: Matches played.
        score_rate: A's mean score against B (draws half).
        std: The per-match standard deviation used (see the module docstring).
        needed: Matches needed in all (``None`` when no number would do).
        more: Matches still to play (0 when already separated, ``None`` as ``needed``).
    """

    matches: int
    score_rate: float
    std: float
    needed: int | None
    more: int | None

    @property
    def separated(self) -> bool:
        """Whether the 95% interval of the score rate already excludes 1/2."""
        return self.more == 0

    def describe(self) -> str:
        """In words: ``already separated``, ``17 more (22 in all)``, ``no difference ...``."""
        if self.needed is None:
            return "no difference observed"
        if self.separated:
            return "already separated"
        return f"{self.more} more ({self.needed} in all)"


def matches_to_separate(scores: Sequence[float], confidence: float = 0.95) -> Separation:
    """How many matches a pair needs for its score rate's interval to exclude 1/2.

    Args:
        scores: A's score in each match against B: 1, 0.5 or 0.
        confidence: Of the normal interval.

    Example:
        >>> s = matches_to_separate([1, 1, 1, 0, 0.5])  # 3 wins, 1 loss, 1 draw
        >>> s.score_rate, s.needed, s.more, s.describe()
        (0.7, 22, 17, '17 more (22 in all)')

    Raises:
        ValueError: No scores, or a score outside [0, 1].
    """
    if not scores:
        raise ValueError("a pair needs at least one match")
    if any(not 0.0 <= float(s) <= 1.0 for s in scores):
        raise ValueError(f"scores must lie in [0, 1] (1 win, 0.5 draw, 0 loss), got {scores}")
    n = len(scores)
    rate = sum(float(s) for s in scores) / n
    padded = [float(s) for s in scores] + [1.0, 0.0]
    mean = sum(padded) / len(padded)
    variance = sum((x - mean) ** 2 for x in padded) / (len(padded) - 1)
    std = math.sqrt(variance)
    gap = abs(rate - 0.5)
    if gap == 0.0:
        return Separation(n, rate, std, None, None)
    needed = math.floor((z_value(confidence) * std / gap) ** 2) + 1
    return Separation(n, rate, std, needed, max(0, needed - n))

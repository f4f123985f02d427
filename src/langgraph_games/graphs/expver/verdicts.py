"""What the verification replay decided about an experience: :class:`ReplayVerdict`.

The ExpVer graph carries the verdict in its state next to the experience, so no node reads
the experience back from the store to learn its fate. The verdict is decided from the play's
and the replay's metrics alone (:func:`judge_replay`), so a resumed run decides it again the
same way; the experience records it in words (``provenance["verdict"]``) and in its status.
"""

from __future__ import annotations

from enum import Enum

from langgraph_games.graphs.expver.parts import ExpVerOptions
from langgraph_games.memory.records import ExperienceStatus

__all__ = ["ReplayVerdict", "judge_replay"]


class ReplayVerdict(Enum):
    """The fate of an experience, decided by its verification replay."""

    PENDING = "pending"
    """Written, not verified yet."""
    PROMOTED = "promoted"
    """The replay (with the experience) succeeded and beat the play (without it)."""
    REPLAY_FAILED = "replay-failed"
    """The replay did not succeed (``require_success``)."""
    NO_GAIN = "no-gain"
    """The replay did not beat the play by more than ``min_score_gain``."""
    UNUSABLE = "unusable"
    """The reflection could not be read: nothing to verify."""

    @property
    def status(self) -> ExperienceStatus:
        """The experience's stored status for this verdict."""
        if self is ReplayVerdict.PENDING:
            return ExperienceStatus.PENDING
        if self is ReplayVerdict.PROMOTED:
            return ExperienceStatus.PROMOTED
        return ExperienceStatus.REJECTED

    def describe(self, gain: float, min_gain: float) -> str:
        """The verdict in words, as the experience's provenance records it."""
        if self is ReplayVerdict.PROMOTED:
            return f"promoted: the replay succeeded and scored {gain:+g}"
        if self is ReplayVerdict.REPLAY_FAILED:
            return "rejected: the replay did not succeed"
        if self is ReplayVerdict.NO_GAIN:
            return f"rejected: the replay scored {gain:+g} (needs > {min_gain:+g})"
        return str(self.value)


def judge_replay(options: ExpVerOptions, gain: float, succeeded: bool) -> ReplayVerdict:
    """The paper's rule: the replay's score ``gain`` over the play, and whether it succeeded.

    Example:
        >>> judge_replay(ExpVerOptions(), 12.0, True), judge_replay(ExpVerOptions(), 12.0, False)
        (<ReplayVerdict.PROMOTED: 'promoted'>, <ReplayVerdict.REPLAY_FAILED: 'replay-failed'>)
    """
    if options.require_success and not succeeded:
        return ReplayVerdict.REPLAY_FAILED
    if gain <= options.min_score_gain:
        return ReplayVerdict.NO_GAIN
    return ReplayVerdict.PROMOTED

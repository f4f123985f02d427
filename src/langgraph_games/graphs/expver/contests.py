"""The loop's arbiter: two contradicting lessons are settled by replaying levels with each.

When TruthWeaver finds that a promoted candidate contradicts an active truth, it asks the
arbiter (:class:`~langgraph_games.memory.contest.Arbiter`) which one stays. This one
plays, with the same seeds, the candidate's level and the truth's own level (where it
came from, when it is one of the run's levels), once with the policy as it is (the truth
in it) and once with the truth replaced by the candidate. The side whose summed score is
higher wins; a tie keeps the truth. Every contest episode goes to the ledger under a
stable id (``r<round>/contest/<pair>/<level>/<with|without>``), so a resumed run replays
nothing and decides the same.

TruthWeaver runs in a worker thread (its store calls are synchronous); the arbiter hands
the episodes to the loop's event loop and waits for them there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from langgraph_games.graphs.expver.context import ExpVerContext
from langgraph_games.graphs.expver.parts import Level
from langgraph_games.graphs.expver.steps import ledger_episode, play_levels
from langgraph_games.memory._weave_state import digest
from langgraph_games.memory.contest import Contest
from langgraph_games.memory.records import Candidate
from langgraph_games.memory.truth_record import Truth

__all__ = ["ReplayArbiter"]


class ReplayArbiter:
    """Settles a contradiction by replays (module docstring).

    Args:
        ctx: The loop's context (levels, episode runner, ledger, scoring).
        round_: The loop's round (ledger ids).
        loop: The event loop the episodes run on (the graph's).
    """

    def __init__(self, ctx: ExpVerContext, round_: int, loop: asyncio.AbstractEventLoop) -> None:
        self.ctx = ctx
        self.round = round_
        self.loop = loop
        known = [Level.model_validate(x) for x in ctx.pool] + list(ctx.tests)
        self.levels = {level.id: level for level in known}

    def __call__(self, candidate: Candidate, incumbent: Truth, active: Sequence[Truth]) -> Contest:
        """Play the contest on the loop and wait for it (called from TruthWeaver's thread)."""
        work = self.contest(candidate, incumbent, active)
        return asyncio.run_coroutine_threadsafe(work, self.loop).result()

    async def contest(
        self, candidate: Candidate, incumbent: Truth, active: Sequence[Truth]
    ) -> Contest:
        """The contest's episodes (from the ledger when played before) and its outcome."""
        ids = [i for i in dict.fromkeys([candidate.level, incumbent.level]) if i in self.levels]
        levels = [self.levels[i] for i in ids]
        if not levels:
            return Contest(
                candidate_wins=True,
                detail="no level of this run to replay: the newer verified lesson replaces",
            )
        pair = digest(candidate.id, incumbent.id)
        without = [t.text for t in active]
        with_it = [candidate.text if t.id == incumbent.id else t.text for t in active]
        scores = {}
        for side, truths in (("with", with_it), ("without", without)):
            work = [(f"r{self.round}/contest/{pair}/{lv.id}/{side}", lv) for lv in levels]
            found = {i: self.ctx.ledger.get(i) for i, _ in work}
            missing = [(i, lv) for i, lv in work if found[i] is None]
            for record in await play_levels(self.ctx, missing, truths, self.round, "contest"):
                found[record["id"]] = record
            records = [ledger_episode(r, i) for i, r in found.items() if r is not None]
            scores[side] = sum(self.ctx.score(r["metrics"]) for r in records)
        new, old = scores["with"], scores["without"]
        return Contest(
            candidate_wins=new > old,
            levels=tuple(ids),
            candidate_score=new,
            incumbent_score=old,
            detail=f"replayed {', '.join(ids)}: {new:g} with the new lesson, {old:g} with "
            f"{incumbent.id}",
        )

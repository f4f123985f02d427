"""TruthWeaver's ``rewrite`` mode: the model tidies the whole list, as the released code did.

The released Agent-ExpVer code replaced the truth list with the model's rewrite and kept
nothing else. Here every old entry is attributed to the rewritten
lesson most similar to it; a rewritten lesson becomes a merged entry that records the
entries it replaces (ids, texts, provenance), so the rewrite can be reverted like any
merge. A rewritten lesson that drops a number of its sources, or drifts away from one of
them, is not applied: those entries stay as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig

from langgraph_games.memory import merge_prompts as prompts
from langgraph_games.memory._weave_state import State, WeaveReport, common, digest
from langgraph_games.memory.meaning import lost_markers
from langgraph_games.memory.records import MergedSource, Truth, TruthStatus


class Weaver(Protocol):
    """What the rewrite needs of a :class:`~langgraph_games.memory.truth_weaver.TruthWeaver`."""

    game: str
    game_name: str
    model: BaseChatModel | None
    min_merged_similarity: float
    _vectors: dict[str, np.ndarray]

    def _embed(self, texts: Sequence[str]) -> None: ...

    def _save(self, state: State, changed: Sequence[Truth]) -> None: ...


def rewrite_truths(
    weaver: Weaver,
    state: State,
    round_: int,
    report: WeaveReport,
    config: RunnableConfig | None = None,
) -> None:
    """Apply one model rewrite of the active entries (see module docstring)."""
    active = sorted(
        (t for t in state.truths.values() if t.status == TruthStatus.ACTIVE),
        key=lambda t: (t.order, t.id),
    )
    if len(active) < 2 or weaver.model is None:
        return
    try:
        reply = prompts.ask(
            weaver.model,
            prompts.rewrite_messages(weaver.game_name, [t.text for t in active]),
            config,
        )
    except Exception:  # noqa: BLE001 - a failing model must not lose the round's truths
        report.merge_failures += 1
        report.failure_reasons["model-error"] += 1
        return
    items = prompts.parse_rewrite_reply(reply)
    if items is None:
        report.merge_failures += 1
        report.failure_reasons["no-list"] += 1
        return
    weaver._embed([t.text for t in active] + items)
    new = np.stack([weaver._vectors[i] for i in items])
    groups: dict[int, list[Truth]] = {}
    for truth in active:
        scores = new @ weaver._vectors[truth.text]
        groups.setdefault(int(np.argmax(scores)), []).append(truth)
    changed: list[Truth] = []
    order = state.next_order()
    for index, group in sorted(groups.items()):
        text = items[index]
        if len(group) == 1 and prompts.normalize_text(group[0].text) == prompts.normalize_text(
            text
        ):
            continue
        lost = lost_markers(text, [t.text for t in group])
        vector = weaver._vectors[text]
        drift = min(float(weaver._vectors[t.text] @ vector) for t in group)
        if lost or drift < weaver.min_merged_similarity:
            report.merge_failures += 1
            if lost:
                numeric = any(m[:1].isdigit() for m in lost)
                report.failure_reasons["lost-number" if numeric else "lost-meaning"] += 1
            else:
                report.failure_reasons["drifted"] += 1
            continue
        merged = Truth(
            id=f"r-{digest(weaver.game, round_, sorted(t.id for t in group), text)}",
            game=weaver.game,
            text=text,
            round=round_,
            order=order,
            kind="merged" if len(group) > 1 else group[0].kind,
            level=common(t.level for t in group),
            episode=common(t.episode for t in group),
            provenance=[s for t in group for s in t.provenance],
            merged_from=[MergedSource(id=t.id, text=t.text, round=t.round) for t in group],
        )
        changed.append(merged)
        changed.extend(
            t.model_copy(
                update={
                    "status": TruthStatus.MERGED,
                    "merged_into": merged.id,
                    "merged_round": round_,
                }
            )
            for t in group
        )
        report.rewritten += 1
        order += 1
    if changed:
        weaver._save(state, changed)

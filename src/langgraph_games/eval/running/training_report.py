"""How a training run reads to a person: its per-round table and its progress lines.

:func:`round_table` turns the ledger's round records into the table ``train`` prints and
writes to its summary; :func:`describe_event` turns one of the ExpVer graph's stream
events into a progress line. Both are re-exported by
:mod:`langgraph_games.eval.running.training`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from langgraph_games.eval.scoring.tables import markdown_table
from langgraph_games.graphs.expver.records import (
    ExpVerEvent,
    RoundRecord,
    TestRound,
    TrainRound,
    woven,
)

__all__ = ["ROUND_HEADERS", "describe_event", "round_table"]

ROUND_HEADERS = [
    "round",
    "train success %",
    "train score",
    "steps",
    "promoted",
    "added",
    "merged",
    "superseded",
    "refused",
    "test success %",
    "test score",
    "change",
    "decision",
    "reverted",
    "active truths",
]


def round_table(records: Sequence[RoundRecord]) -> str:
    """One line per round: training plays, what TruthWeaver did, the test and the decision.

    Round 0 is the starting policy's test (eq. 6's first baseline). The truth columns are
    :func:`~langgraph_games.graphs.expver.records.woven`'s. ``decision``: ``kept``,
    ``reverted`` (the test score dropped; ``reverted`` counts the truths it took back), or
    ``unchanged`` (no truth changed, so the test was not played again).
    """
    trains: dict[int, TrainRound] = {}
    tests: dict[int, TestRound] = {}
    for record in records:
        if record["split"] == "train":
            trains[record["round"]] = record
        else:
            tests[record["round"]] = record
    rows = []
    for number in sorted({*trains, *tests}):
        train, test = trains.get(number), tests.get(number)  # round 0 has no training
        counts = woven(train) if train is not None else {}
        rows.append(
            [
                number,
                *(
                    [None] * 8
                    if train is None
                    else [
                        100 * float(train["success_rate"]),
                        train["score"],
                        train["steps"],
                        train["promoted"],
                        counts["added"],
                        counts["merged"],
                        counts["superseded"],
                        counts["refused"],
                    ]
                ),
                *(
                    [None] * 6
                    if test is None
                    # Round 0's baseline has no delta; older files no truths_reverted.
                    else [
                        100 * float(test["success_rate"]),
                        test["score"],
                        test.get("delta"),
                        test["decision"],
                        test.get("truths_reverted"),
                        test["truths_active"],
                    ]
                ),
            ]
        )
    return markdown_table(ROUND_HEADERS, rows)


def _score(metrics: Mapping[str, object], key: str) -> str:
    value = metrics.get(key)
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


_EVENTS = ("baseline", "round", "plan", "play", "replay", "reflect", "promote")


def describe_event(event: ExpVerEvent, score_key: str = "score") -> str | None:
    """One progress line for a stream event of the ExpVer graph (``None``: nothing to say)."""
    if event.get("event") not in _EVENTS:  # another writer's custom event
        return None
    if event["event"] == "baseline" or event["event"] == "round":
        r = event["record"]
        again = " (recorded earlier)" if event.get("cached") else ""
        delta = f", change {r['delta']:+.1f}" if "delta" in r else ""  # round 0 has none
        return (
            f"round {r['round']} test: success {100 * float(r['success_rate']):.0f}%, "
            f"score {float(r['score']):.1f}{delta}: {r['decision']}{again}"
        )
    if event["event"] == "plan":
        return f"round {event['round']}: training on {', '.join(event['levels'])}"
    where = f"round {event['round']} {event['level']}".rstrip()
    if event["event"] == "promote":
        weave = event["weave"]
        woven = ""
        if weave:
            merged = weave["duplicates"] + weave["same_meaning"] + weave["supported"]
            woven = (
                f"; truths +{weave['added']} added, {merged + weave['merged']} merged, "
                f"{weave['superseded'] + weave['refined']} superseded, "
                f"{weave['restored']} restored, {weave['refused']} refused, "
                f"{weave['already_present']} already there"
            )
        kept_out = f"; {event['not_promoted']}" if event["not_promoted"] else ""
        return f"{where}: {event['verdict'] or event['status']}{woven}{kept_out}"
    again = " (recorded earlier)" if event["cached"] else ""
    if event["event"] == "reflect":
        exp = event["experience"]
        provenance = exp.get("provenance")
        verdict = provenance.get("verdict", "") if isinstance(provenance, dict) else ""
        text = exp.get("text") or verdict
        return f"{where}: experience{again}: {str(text)[:100]}"
    m = event["metrics"]
    ok = "success" if m.get("success") else "no success"
    return f"{where}: {event['event']} score {_score(m, score_key)}, {ok}{again}"

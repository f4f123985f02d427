"""Writing replay pages: one self-contained HTML file per match or episode, and an index.

A page holds everything inline (CSS, the script, the replay data as JSON, boards drawn
as SVG by the script), so it opens from disk or an e-mail attachment with no network.
"""

from __future__ import annotations

import html
import json
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from langgraph_games.eval.reports.replay.build import (
    build_replay,
    outcome_text,
    record_id,
    seat_names,
)
from langgraph_games.eval.running.records import ResultsLine, is_failed
from langgraph_games.games.errors import GameError
from langgraph_games.games.registry import make

__all__ = ["IndexEntry", "ReplaySet", "render_page", "write_replays"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def _asset(name: str) -> str:
    folder = resources.files("langgraph_games.eval.reports.replay") / "assets"
    return (folder / name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    """JSON that cannot close the ``<script>`` element it sits in."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=_jsonable)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def render_page(replay: Mapping[str, Any], index_href: str | None = "index.html") -> str:
    """The HTML of one replay page (see :func:`~.build.build_replay`)."""
    title = f"{replay['gameName']} · {replay['kind']} {replay['id']}"
    players = (
        " vs ".join(replay["seats"]) if len(replay["seats"]) > 1 else ", ".join(replay["seats"])
    )
    if replay.get("label") and replay["label"] not in replay["seats"]:
        players += f" · {replay['label']}"
    options = ", ".join(f"{k}={v}" for k, v in replay["options"].items())
    setting = f"{replay['game']} seed {replay['seed']}" + (f" ({options})" if options else "")
    metrics = replay.get("metrics") or {}
    shown = {k: v for k, v in metrics.items() if isinstance(v, (int, float, str, bool))}
    metrics_line = " · ".join(
        f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in shown.items()
    )
    back = f' · <a href="{html.escape(index_href)}">all replays</a>' if index_href else ""
    e = html.escape
    template = string.Template(_asset("replay.html"))
    return template.substitute(
        title=e(title),
        css=_asset("replay.css"),
        players=e(players),
        setting=e(setting),
        back=back,
        outcome=e(replay["outcome"]),
        metrics=f'<p class="metrics">{e(metrics_line)}</p>' if metrics_line else "",
        data=_script_json(replay),
        script=_asset("replay.js"),
    )


@dataclass
class IndexEntry:
    """A line of the index page."""

    record_id: str
    kind: str
    game: str
    players: str
    outcome: str
    steps: int | None
    href: str | None
    source: str


@dataclass
class ReplaySet:
    """What :func:`write_replays` wrote and what it could not replay (with the reason)."""

    index: Path
    pages: list[Path] = field(default_factory=list)
    entries: list[IndexEntry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def page_name(record: ResultsLine) -> str:
    """``<game>-<id>.html`` with only safe characters."""
    game = str(record.get("game", "game")).split("-v")[0]
    return _UNSAFE.sub("_", f"{game}-{record_id(record)}") + ".html"


def write_replays(
    records: Sequence[tuple[str, ResultsLine]],
    out_dir: str | Path,
    *,
    notes: Sequence[str] = (),
) -> ReplaySet:
    """Write a page per replayable record and ``index.html`` listing them all.

    Args:
        records: ``(source description, record)`` pairs, e.g. ``("run.jsonl line 3", r)``.
        out_dir: Folder for the pages (created).
        notes: Lines already skipped while reading (shown on the index).

    Returns:
        The pages written, the index entries and what was skipped and why.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = ReplaySet(index=out / "index.html", skipped=list(notes))
    for source, record in records:
        played = None if record["kind"] == "round" or is_failed(record) else record
        try:
            options = {} if record["kind"] == "round" else record.get("options", {})
            game = make(str(record["game"]), **options)
        except (GameError, KeyError, TypeError) as exc:
            game = None
            reason = f"{source}: cannot load game {record.get('game')!r}: {exc}"
        entry = IndexEntry(
            record_id=record_id(record),
            kind=record["kind"],
            game=str(record.get("game", "?")),
            players=" vs ".join(seat_names(record, game)),
            outcome=outcome_text(record, game),
            steps=None if played is None else played["result"].get("steps"),
            href=None,
            source=source,
        )
        written.entries.append(entry)
        if game is None:
            written.skipped.append(reason)
            continue
        if played is None or "record" not in played["result"]:
            written.skipped.append(
                f"{source}: {entry.record_id} has no game to replay ({entry.outcome})"
            )
            continue
        try:
            replay = build_replay(record)
        except (GameError, ValueError, KeyError, TypeError) as exc:
            written.skipped.append(f"{source}: {entry.record_id} does not replay: {exc}")
            continue
        path = out / page_name(record)
        path.write_text(render_page(replay), encoding="utf-8")
        written.pages.append(path)
        entry.href = path.name
    written.index.write_text(render_index(written), encoding="utf-8")
    return written


def render_index(replays: ReplaySet) -> str:
    """The index page: every match or episode with its outcome and a link."""
    e = html.escape
    rows = []
    for entry in replays.entries:
        link = (
            f'<a href="{e(entry.href)}">{e(entry.record_id)}</a>'
            if entry.href
            else e(entry.record_id)
        )
        rows.append(
            f"<tr><td>{link}</td><td>{e(entry.kind)}</td><td>{e(entry.game)}</td>"
            f"<td>{e(entry.players)}</td><td>{e(entry.outcome)}</td>"
            f"<td>{'' if entry.steps is None else entry.steps}</td><td>{e(entry.source)}</td></tr>"
        )
    skipped = "".join(f"<li>{e(note)}</li>" for note in replays.skipped)
    skipped_block = f'<h2>Skipped</h2><ul id="skipped">{skipped}</ul>' if skipped else ""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Replays</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 20px; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ddd; padding: 4px 8px; text-align: left; }}
th {{ background: #eceff1; }}
</style>
</head>
<body>
<h1>Replays ({len(replays.pages)} of {len(replays.entries)} records)</h1>
<table id="replays">
<thead><tr><th>id</th><th>kind</th><th>game</th><th>players</th><th>outcome</th><th>steps</th>
<th>from</th></tr></thead>
<tbody>
{"".join(rows)}
</tbody>
</table>
{skipped_block}
</body>
</html>
"""

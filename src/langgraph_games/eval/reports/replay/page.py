"""Writing replay pages: one self-contained HTML file per match or episode, and an index.

A page holds everything inline (CSS, the script, the replay data as JSON, boards drawn
as SVG by the script), so it opens from disk or an e-mail attachment with no network.

Whatever a record holds, a page is written and reads back: the data block escapes every
``<``, ``>`` and ``&`` (and U+2028, U+2029 and lone surrogates) as JSON unicode
escapes, so no text a model wrote can end the ``<script>`` element or open a comment in
it, and ``JSON.parse`` gives back the text as it was; a page's file name keeps only safe
characters of the game and the id, at most :data:`PAGE_NAME_CHARS` of them, with a hash
of the id when it had to change it, and a number when two records would share a name.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import string
from collections.abc import Callable, Mapping, Sequence
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

__all__ = [
    "PAGE_NAME_CHARS",
    "IndexEntry",
    "ReplaySet",
    "page_name",
    "render_page",
    "write_replays",
]

PAGE_NAME_CHARS = 100
"""The longest page file name, ``.html`` included (file systems allow 255 bytes)."""

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029\ud800-\udfff]")


def _asset(name: str) -> str:
    folder = resources.files("langgraph_games.eval.reports.replay") / "assets"
    return (folder / name).read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    """JSON that cannot close the ``<script>`` element it sits in, and parses back as is.

    ``<``, ``>`` and ``&`` become JSON unicode escapes (so neither ``</script>`` nor
    ``<!--`` can appear), and so do U+2028 and U+2029 (line ends to older script parsers)
    and lone surrogates (which UTF-8 cannot hold): all valid JSON escapes, so
    ``JSON.parse`` reads back the exact text.
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=_jsonable)
    return _SCRIPT_UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


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
    """``<game>-<id>.html``, with only safe characters and at most :data:`PAGE_NAME_CHARS`.

    Unsafe characters (anything but letters, digits, ``_``, ``.``, ``-``) become ``_``; a
    name that had to change or be cut ends in 12 hex digits of the id's hash, so two ids
    that read alike still get two names.

    Example:
        >>> page_name({"kind": "match", "game": "tictactoe-v1", "match_id": "a1b2"})
        'tictactoe-a1b2.html'
        >>> page_name({"kind": "episode", "game": "maze-v1", "episode_id": "r0/test/L1"})
        'maze-r0_test_L1-1db13a73a220.html'
    """
    game = str(record.get("game", "game")).split("-v")[0]
    plain = f"{game}-{record_id(record)}"
    stem = _UNSAFE.sub("_", plain)
    limit = PAGE_NAME_CHARS - len(".html")
    if stem != plain or len(stem) > limit:
        digest = hashlib.sha256(plain.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        stem = f"{stem[: limit - 13]}-{digest}"
    return stem + ".html"


def _unique(name: str, taken: set[str]) -> str:
    """``name``, or ``<stem>-2.html``, ``-3`` ... when a page of this run has it already."""
    stem, number = name.removesuffix(".html"), 1
    while name in taken:
        number += 1
        name = f"{stem}-{number}.html"
    taken.add(name)
    return name


def _write(path: Path, text: str) -> None:
    """Write a page as UTF-8; a lone surrogate a record held is written as its escape."""
    path.write_text(text, encoding="utf-8", errors="backslashreplace")


def write_replays(
    records: Sequence[tuple[str, ResultsLine]],
    out_dir: str | Path,
    *,
    notes: Sequence[str] = (),
    on_page: Callable[[], None] | None = None,
) -> ReplaySet:
    """Write a page per replayable record and ``index.html`` listing them all.

    Args:
        records: ``(source description, record)`` pairs, e.g. ``("run.jsonl line 3", r)``.
        out_dir: Folder for the pages (created).
        notes: Lines already skipped while reading (shown on the index).
        on_page: Called once per record, written or skipped (a progress bar's tick).

    Returns:
        The pages written, the index entries and what was skipped and why.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = ReplaySet(index=out / "index.html", skipped=list(notes))
    taken = {"index.html"}
    for source, record in records:
        if on_page is not None:
            on_page()
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
        path = out / _unique(page_name(record), taken)
        _write(path, render_page(replay))
        written.pages.append(path)
        entry.href = path.name
    _write(written.index, render_index(written))
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

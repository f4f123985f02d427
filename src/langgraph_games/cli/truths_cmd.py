"""``langgraph-games truths ACTION STORE``: see and edit what a training run learned.

``STORE`` is a truth store spec, as ``train`` prints it: a Chroma directory,
``sqlite:PATH`` or ``postgres://...`` (``memory:`` is refused: it holds nothing once the
process that wrote it ended). Actions: ``list`` (the truths
with status, strength and support), ``show ID`` (text, sources, evidence, history),
``history [ID]`` (one truth's changes, or every change by round), ``revert ID``,
``delete ID`` and ``restore ID`` (recorded in the truth's history, by hand), ``export``
(JSON lines) and ``import FILE``. An ``ID`` may be the start of a truth's id.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.store.base import BaseStore

from langgraph_games._files import write_atomic
from langgraph_games.cli import _truths_view as view
from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.memory.embeddings import minilm_index
from langgraph_games.memory.stores import NOT_KEPT, open_store, parse_store
from langgraph_games.memory.truth_book import TruthBook, truth_games
from langgraph_games.memory.truth_record import TruthStatus

__all__ = ["add_parser", "run"]

_ACTIONS = ("list", "show", "history", "revert", "delete", "restore", "export", "import")
_WRITES = ("revert", "delete", "restore", "import")


def add_parser(sub: Subcommands) -> None:
    """Register the ``truths`` sub-command."""
    parser = add_command(
        sub,
        "truths",
        description="See and edit a truth store: list, show, history, revert, delete, "
        "restore, export and import truths. Changes are recorded in each truth's history.",
    )
    parser.add_argument("action", choices=_ACTIONS)
    parser.add_argument(
        "store",
        help="a truth store, as train prints it: a Chroma directory, sqlite:PATH or postgres://...",
    )
    parser.add_argument(
        "target",
        nargs="?",
        default=None,
        help="a truth id or its start (show, history, revert, delete, restore); the file to "
        "read (import)",
    )
    parser.add_argument("--game", default=None, help="the game (default: the store's only one)")
    parser.add_argument(
        "--all", action="store_true", help="list/export: every truth, not only the active ones"
    )
    parser.add_argument("--reason", default="", help="revert/delete/restore: why, for the record")
    parser.add_argument(
        "--out", default=None, metavar="FILE", help="export: the file to write (default stdout)"
    )
    parser.set_defaults(run=run)


@contextmanager
def _opened(spec: str, writes: bool) -> Iterator[BaseStore]:
    chosen = parse_store(spec)
    if not chosen.lasts:
        raise ValueError(NOT_KEPT)
    if chosen.kind == "chroma":
        folder = Path(chosen.location)
        if not (folder / "chroma.sqlite3").is_file() and not (writes and not folder.exists()):
            raise ValueError(
                f"{spec} is no truth store (no chroma.sqlite3 in it); give the store "
                "that `train` printed"
            )
    index = minilm_index(["text"]) if writes else None
    with open_store(chosen, index=index, create=writes) as store:
        yield store


def run(args: argparse.Namespace) -> int:
    """Carry out one action."""
    needs_target = args.action not in ("list", "history", "export")
    if needs_target and not args.target:
        raise ValueError(
            f"truths {args.action} needs a {'FILE' if args.action == 'import' else 'truth id'}"
        )
    with _opened(args.store, args.action in _WRITES) as store:
        game = args.game
        if game is None:
            games = truth_games(store)
            if args.action == "import" and not games:
                raise ValueError("the store holds no truths yet: say which game with --game")
            if len(games) != 1:
                raise ValueError(
                    f"{args.store} holds truths of {', '.join(games) or 'no game'}; "
                    "choose one with --game"
                )
            game = games[0]
        book = TruthBook(store, game)
        action = args.action
        if action == "list":
            print(view.listing(book.truths(None if args.all else TruthStatus.ACTIVE), game))
        elif action == "show":
            print(view.details(book.get(args.target)))
        elif action == "history":
            truths = [book.get(args.target)] if args.target else book.truths()
            print(view.timeline(truths))
        elif action in ("revert", "delete"):
            changed = getattr(book, action)(args.target, args.reason)
            print(f"{changed.id}: {changed.status.value} ({changed.history[-1].detail})")
        elif action == "restore":
            for truth in book.restore(args.target, args.reason):
                print(f"{truth.id}: {truth.status.value} ({truth.history[-1].detail})")
        elif action == "export":
            statuses = None if args.all else [TruthStatus.ACTIVE]
            if args.out is None:
                count = book.export(sys.stdout, statuses)
            else:
                text = io.StringIO()
                count = book.export(text, statuses)
                write_atomic(args.out, text.getvalue())
            print(f"exported {count} truth(s) of {game}", file=sys.stderr)
        else:
            report = book.import_file(args.target)
            print(f"imported {report.added} of {report.read} truth(s) into {game}")
            for truth_id, why in report.skipped:
                print(f"  skipped {truth_id}: {why}")
    return 0

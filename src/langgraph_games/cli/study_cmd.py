"""``langgraph-games study [DOCUMENT]``: read a document into a game context C (SPRING).

The study graph keeps the paragraphs a model finds relevant, asks SPRING's four game
questions about each and merges the answers. The result is cached (SQLite, keyed by the
document, the model and the settings), so a second study of the same document with the
same model makes no call. Before any call it prints how many model calls the study can
make; ``--max-calls N`` refuses a study that could make more. The context goes to stdout
or ``--output FILE``; pass that file to ``langgraph-games eval crafter --agent spring
--context FILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._options import add_model_flags, model_settings
from langgraph_games.cli._paths import output_file
from langgraph_games.eval.running.contexts import DEFAULT_CACHE, game_document, study_document
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.games.registry import make
from langgraph_games.graphs.study.graph import (
    DEFAULT_STUDY_CONCURRENCY,
    read_document,
    study_calls,
)
from langgraph_games.models.factory import load_chat_model

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``study`` sub-command."""
    parser = add_command(sub, "study")
    parser.add_argument(
        "document",
        nargs="?",
        default=None,
        help="LaTeX, Markdown or text file (default: the game's own manual)",
    )
    parser.add_argument("--game", default="crafter", help="the game it is about (default crafter)")
    parser.add_argument("--model", default="local", help="model spec (default local)")
    parser.add_argument(
        "--format",
        choices=["auto", "latex", "markdown", "text"],
        default="auto",
        help="document format (default: detected)",
    )
    parser.add_argument(
        "--merge",
        choices=["items", "model"],
        default="items",
        help="drop repeated answer items without the model (default), or ask the model to "
        "'Remove duplicate items.' as the paper did",
    )
    parser.add_argument(
        "--cache",
        default=str(DEFAULT_CACHE),
        help=f"SQLite cache of whole studies (default {DEFAULT_CACHE}); "
        "--model-cache caches single model calls",
    )
    parser.add_argument("--no-cache", action="store_true", help="study again, cache nothing")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_STUDY_CONCURRENCY,
        metavar="N",
        help=f"model calls at once (default {DEFAULT_STUDY_CONCURRENCY}; lower it for a "
        "rate-limited endpoint)",
    )
    parser.add_argument(
        "--max-calls",
        type=int,
        default=None,
        metavar="N",
        help="refuse, before any call, a study that could make more than N model calls "
        "(the number it can make is printed first)",
    )
    parser.add_argument("--output", "-o", default=None, help="write the context to FILE")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_model_flags(parser, cache_flag="--model-cache")  # --cache: the studies' own cache
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Study the document and print (or write) the context."""
    if args.output:
        output_file("--output", args.output)
    if not args.no_cache:
        output_file("--cache", args.cache)
    if args.concurrency < 1:
        raise ValueError(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.max_calls is not None and args.max_calls < 1:
        raise ValueError(f"--max-calls must be at least 1, got {args.max_calls}")
    game = make(args.game)
    text = read_document(Path(args.document)) if args.document else game_document(game)
    name = args.document or f"the {game.name} manual"
    print(f"studying {name}: {study_calls(text, args.format, args.merge).describe()}",
          file=sys.stderr)  # fmt: skip
    model = load_chat_model(args.model, **model_settings(args))
    studied = run_loop(
        study_document(
            model,
            text,
            game_name=game.name,
            cache=None if args.no_cache else args.cache,
            merge=args.merge,
            format=args.format,
            concurrency=args.concurrency,
            progress=not args.quiet,
            max_calls=args.max_calls,
        )
    )
    print(f"studied {name}: {studied.summary()}", file=sys.stderr)
    if args.output:
        out = Path(args.output)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(studied.context + "\n", encoding="utf-8")
        print(f"context written to {out}", file=sys.stderr)
    else:
        print(studied.context)
    return 0

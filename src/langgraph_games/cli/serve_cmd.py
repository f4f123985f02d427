"""``langgraph-games serve [--port N] [--out DIR]``: play against an agent in the browser.

The page lists the two-player games and the registered player specs; a person picks a game,
an opponent and a seat, and plays by clicking. Each finished match is appended to
``<out>/serve.jsonl`` as a match record (``langgraph-games replay`` and ``report`` read it)
and its replay page is written to ``<out>/replays/``.

The page may only start matches against the opponents offered here (``--opponents``; by
default every player in its plain form, LLM strategies on the embedded local model), so
no request can name a model endpoint or spend a key; requests are checked for Host,
Origin and the page's per-start token (see :mod:`langgraph_games.eval.serve.guard`).
"""

from __future__ import annotations

import argparse

from langgraph_games.cli import ignore_interrupts
from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._options import add_episode_flags, add_model_flags, model_settings
from langgraph_games.cli._paths import output_dir
from langgraph_games.cli._players import players_epilog
from langgraph_games.eval.running.players import ModelPool
from langgraph_games.eval.serve.app import PlayServer, check_host
from langgraph_games.eval.serve.matches import MatchTable
from langgraph_games.eval.serve.opponents import Opponents
from langgraph_games.graphs.episode.options import EpisodeOptions

__all__ = ["add_parser", "run"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``serve`` sub-command."""
    parser = add_command(
        sub,
        "serve",
        epilog=players_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other than 127.0.0.1, localhost or ::1",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name browsers reach the server by, besides localhost and IP addresses "
        "(repeat for several; needed for a DNS name with --allow-remote)",
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="port (default 8765; 0: any free port)"
    )
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=[],
        metavar="SPEC",
        help="the player specs the page may start matches against, e.g. minimax "
        "gamebot:openai:gpt-4o-mini (default: every player in its plain form, LLM "
        "strategies on the local model); a request can name no other",
    )
    parser.add_argument(
        "--out", default="runs", metavar="DIR", help="folder of serve.jsonl and replays/"
    )
    parser.add_argument(
        "--max-matches", type=int, default=16, help="matches open at once (default 16)"
    )
    parser.add_argument(
        "--idle", type=float, default=1800.0, metavar="S",
        help="drop a match untouched for S seconds (default 1800)",
    )  # fmt: skip
    add_episode_flags(parser)
    add_model_flags(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    check_host(args.host, args.allow_remote)
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0 (any free port) to 65535, got {args.port}")
    if args.max_matches < 1:
        raise ValueError(f"--max-matches must be at least 1, got {args.max_matches}")
    opponents = Opponents(args.opponents)
    out = output_dir("--out", args.out)
    table = MatchTable(
        out,
        models=ModelPool(**model_settings(args)),
        max_matches=args.max_matches,
        idle_s=args.idle,
        options=EpisodeOptions(
            max_retries=args.max_retries, fallback=args.fallback, max_steps=args.max_steps
        ),
        opponents=opponents,
    )
    server = PlayServer(table, host=args.host, port=args.port, allowed_hosts=args.allowed_host)
    print(f"Serving on {server.url} (results: {table.results.path}); Ctrl-C stops.", flush=True)
    print(f"Opponents offered: {', '.join(opponents.offered())}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:  # how a server is stopped: not an interrupted run
        ignore_interrupts()  # a second Ctrl-C while closing adds nothing
        print("stopped")
    return 0

"""``langgraph-games mcp``: serve the game tools over the Model Context Protocol.

Needs the ``mcp`` extra. Over HTTP the server has no authentication, so it binds to the
loopback address unless ``--allow-remote`` says otherwise.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from langgraph_games.cli._commands import Subcommands, add_command

__all__ = ["LOOPBACK_HOSTS", "add_parser", "run"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def add_parser(sub: Subcommands) -> None:
    """Register the ``mcp`` sub-command."""
    parser = add_command(
        sub,
        "mcp",
        description=(
            "Serve the game tools over the Model Context Protocol, on stdio (for a client "
            "that launches this command) or streamable HTTP at http://HOST:PORT/mcp. Each "
            "MCP session sees only the games it started."
        ),
    )
    parser.add_argument(
        "--transport", choices=("stdio", "http"), default="stdio", help="default: stdio"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="HTTP address to bind (default: 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default: 8000)")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other than the loopback address (the server has no authentication)",
    )
    parser.add_argument(
        "--max-games",
        type=int,
        default=16,
        metavar="N",
        help="open games one client may hold (default: 16)",
    )
    parser.add_argument(
        "--idle-minutes",
        type=float,
        default=60.0,
        metavar="M",
        help="drop a game unused for this long (default: 60)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the settings, then serve until stopped."""
    if args.transport == "http" and args.host not in LOOPBACK_HOSTS and not args.allow_remote:
        raise ValueError(
            f"refusing to listen on {args.host}: the MCP server has no authentication, so it "
            f"binds only to a loopback address ({', '.join(LOOPBACK_HOSTS)}); pass "
            "--allow-remote to listen on another address"
        )
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1-65535, got {args.port}")
    if args.max_games < 1 or args.idle_minutes <= 0:
        raise ValueError("--max-games and --idle-minutes must be positive")
    try:
        server = importlib.import_module("langgraph_games.integrations.mcp_server")
        sessions = importlib.import_module("langgraph_games.integrations.mcp_sessions")
    except ImportError as exc:
        raise ValueError(
            "the mcp command needs the 'mcp' extra: pip install -e '.[mcp]' in a source "
            f"checkout ({exc})"
        ) from exc
    store = sessions.GameSessions(
        max_games_per_client=args.max_games, idle_timeout_s=args.idle_minutes * 60
    )
    if args.transport == "http":
        print(
            f"serving the game tools on http://{args.host}:{args.port}/mcp (Ctrl-C stops)",
            file=sys.stderr,
        )
    server.serve(args.transport, host=args.host, port=args.port, sessions=store)
    return 0

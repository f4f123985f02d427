"""``langgraph-games play GAME --players A B``: one game, the board after every move."""

from __future__ import annotations

import argparse
from typing import Any

from langgraph_games.cli._options import parse_options
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.players import make_player, request_for

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """Register the ``play`` sub-command."""
    parser = sub.add_parser("play", help="play one game and print the board after each move")
    parser.add_argument("game", help="game id, e.g. tictactoe or othello-v1")
    parser.add_argument(
        "--players",
        nargs="+",
        default=["minimax", "random"],
        metavar="SPEC",
        help="one spec per seat, e.g. minimax random, minimax:depth=3 (default: minimax random)",
    )
    parser.add_argument("--seed", type=int, default=0, help="episode seed (default 0)")
    parser.add_argument(
        "--option", "-o", action="append", metavar="KEY=VALUE", help="game option (repeatable)"
    )
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the game and print each move, the board and the result."""
    game = make(args.game, **parse_options(args.option))
    if len(args.players) != game.num_players:
        raise ValueError(
            f"{game.id} has {game.num_players} seats ({', '.join(game.player_names)}); "
            f"got {len(args.players)} player spec(s): {' '.join(args.players)}"
        )
    players = [make_player(spec, seed=args.seed + seat) for seat, spec in enumerate(args.players)]
    session = GameSession(game, seed=args.seed)
    names = [f"{game.player_label(i)} ({spec})" for i, spec in enumerate(args.players)]
    print(f"{game.name} (seed {args.seed}): " + " vs ".join(names))
    if not args.quiet:
        print(session.render())
    while not session.done:
        joint = {}
        for seat in session.current_players:
            decision = players[seat].decide(request_for(session, seat))
            if decision.action is None:
                raise ValueError(f"player {names[seat]} returned no action")
            joint[seat] = decision.action
        session.step(joint)
        if not args.quiet:
            moves = ", ".join(f"{game.player_label(p)} plays {a}" for p, a in joint.items())
            print(f"\nMove {len(session.actions)}: {moves}")
            print(session.render())
    result = session.result()
    if result["winners"]:
        outcome = " and ".join(names[w] for w in result["winners"]) + " wins"
    else:
        outcome = "draw"
    returns = ", ".join(f"{game.player_label(i)} {r:+g}" for i, r in enumerate(result["returns"]))
    print(f"\nResult after {result['steps']} moves: {outcome} ({returns})")
    return 0

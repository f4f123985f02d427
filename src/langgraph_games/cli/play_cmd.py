"""``langgraph-games play GAME --players A B``: one game, the board after every move.

One-player games take one spec (``play bandit --players smartplay:local``; the default is
``random``) and report how the episode ended, the return and, for SmartPlay settings, the
SmartPlay score, instead of a winner.

With an LLM player (``gamebot:local``, ...) each move also shows the model's answer, its
intermediate results with their scores against ground truth, and rejected answers.

A ``human`` seat is a person at the terminal: at each of their moves the episode graph
stops on its interrupt, the command shows the legal moves and a prompt, reads one line
from standard input and resumes the graph with it; an answer that names no legal move is
asked again with the reason. End of input or Ctrl-C abandons the game (exit code 1 and
130), without a traceback. A human seat with standard input closed (``<&-``, a service
started without one) is refused before the game starts, with one line and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Mapping
from typing import Any, TextIO

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from langgraph_games.cli._commands import Subcommands, add_command
from langgraph_games.cli._game_options import OPTION_HELP, game_options_epilog
from langgraph_games.cli._options import (
    add_episode_flags,
    add_model_flags,
    add_reader_flag,
    check_numbers,
    model_settings,
    parse_options,
    with_reader,
)
from langgraph_games.cli._players import PLAYER_SPEC_HELP, players_epilog
from langgraph_games.eval.running.event_loop import run as run_loop
from langgraph_games.eval.running.players import ModelPool, check_models, resolve
from langgraph_games.games.base import Game
from langgraph_games.games.parts import parts_of
from langgraph_games.games.registry import make
from langgraph_games.games.session import GameSession
from langgraph_games.games.smartplay import metrics as smartplay_metrics
from langgraph_games.games.state import GameState
from langgraph_games.graphs.episode.context import EpisodeContext
from langgraph_games.graphs.episode.graph import create_episode_graph
from langgraph_games.graphs.episode.options import EpisodeOptions, EpisodeState
from langgraph_games.graphs.episode.records import (
    EpisodeResult,
    SessionRecord,
    Step,
    first_answers,
)
from langgraph_games.players.base import Player

__all__ = ["add_parser", "run", "stdin_closed"]


def add_parser(sub: Subcommands) -> None:
    """Register the ``play`` sub-command."""
    parser = add_command(
        sub,
        "play",
        epilog=players_epilog() + "\n\n" + game_options_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", help="game id, e.g. tictactoe or othello-v1")
    parser.add_argument(
        "--players",
        nargs="+",
        default=None,
        metavar="SPEC",
        help=f"one spec per seat, {PLAYER_SPEC_HELP} (default: minimax random for two-player "
        "games, random for one-player games)",
    )
    parser.add_argument("--seed", type=int, default=0, help="episode seed (default 0)")
    parser.add_argument("--option", "-o", action="append", metavar="KEY=VALUE", help=OPTION_HELP)
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    parser.add_argument("--full", action="store_true", help="print model answers in full")
    add_episode_flags(parser)
    add_model_flags(parser)
    add_reader_flag(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play the game and print each move, the board and the result."""
    check_numbers(args)
    game = make(args.game, **parse_options(args.option))
    if args.players is None:
        args.players = default_players(game)
    args.players = with_reader(args.players, args.reader)
    if len(args.players) != game.num_players:
        raise ValueError(
            f"{game.id} has {game.num_players} seats ({', '.join(game.player_names)}); "
            f"got {len(args.players)} player spec(s): {' '.join(args.players)}"
        )
    models = ModelPool(**model_settings(args))
    recipes = [resolve(spec, models) for spec in args.players]
    players = [recipe.build(game, seed=args.seed + seat) for seat, recipe in enumerate(recipes)]
    people = [
        spec for spec, player in zip(args.players, players, strict=True) if player.interactive
    ]
    if people and stdin_closed():
        raise ValueError(
            f"{people[0]!r} is a person who types moves on standard input, which is closed; "
            "run the command at a terminal or pipe the moves in, one per line"
        )
    check_models(recipes)
    names = [f"{game.player_label(i)} ({spec})" for i, spec in enumerate(args.players)]
    print(f"{game.name} (seed {args.seed}): " + " vs ".join(names))
    options = EpisodeOptions(
        max_retries=args.max_retries, fallback=args.fallback, max_steps=args.max_steps
    )
    try:
        result = run_loop(_play(game, players, args, options, names))
    except (EOFError, KeyboardInterrupt) as exc:
        if not any(player.interactive for player in players):
            raise
        ended = "input ended" if isinstance(exc, EOFError) else "interrupted"
        print(f"\nGame abandoned ({ended}).")
        return 1 if isinstance(exc, EOFError) else 130
    print()
    forfeit = result["forfeit"]
    if result["status"] == "forfeit" and forfeit is not None:
        print(f"{names[forfeit]} forfeits after unusable answers.")
    print(outcome_line(game, result, names))
    for seat, counters in enumerate(result["players"]):
        if counters["model_calls"]:
            print(
                f"{names[seat]}: {counters['decisions']} decisions, "
                f"{counters['invalid_answers']} invalid answers, {counters['fallbacks']} "
                f"fallbacks, {counters['input_tokens']}+{counters['output_tokens']} tokens"
            )
    return 0


def stdin_closed() -> bool:
    """Whether standard input cannot be read at all (closed, not merely at its end)."""
    if sys.stdin is None or sys.stdin.closed:
        return True
    try:
        descriptor = sys.stdin.fileno()
    except (OSError, ValueError):
        return False  # a stream without a descriptor (a test's): it reads
    try:
        os.fstat(descriptor)
    except OSError:
        return True
    return False


def default_players(game: Game[GameState]) -> list[str]:
    """The ``--players`` default: ``minimax random`` for two seats, else ``random`` per seat."""
    if game.num_players == 2:
        return ["minimax", "random"]
    return ["random"] * game.num_players


def outcome_line(game: Game[GameState], result: EpisodeResult, names: list[str]) -> str:
    """The result line: winners for games between players, score and return for one player.

    A one-player game has no winner, so its line gives how it ended, the return and, for a
    SmartPlay setting, the SmartPlay score (normalised where the paper has a human score).
    """
    steps = result["steps"]
    if game.num_players == 1:
        ended = {
            "finished": "finished",
            "truncated": "stopped at the step limit",
            "forfeit": "forfeited",
        }.get(result["status"], result["status"])
        parts = [f"return {result['returns'][0]:+g}"]
        score = _smartplay_score(result)
        if score:
            parts.append(score)
        return f"Result after {steps} moves: {ended}; " + "; ".join(parts)
    if result["winners"]:
        outcome = " and ".join(names[w] for w in result["winners"]) + " wins"
    else:
        if result["status"] == "truncated":
            outcome = "stopped (step limit)"
        elif any(result["returns"]):
            outcome = "tie"  # equal non-zero returns, e.g. an even Negotiation deal
        else:
            outcome = "draw"
    returns = ", ".join(f"{game.player_label(i)} {r:+g}" for i, r in enumerate(result["returns"]))
    return f"Result after {steps} moves: {outcome} ({returns})"


def _smartplay_score(result: EpisodeResult) -> str | None:
    session = GameSession.from_dict(result["record"])
    try:
        column = smartplay_metrics.smartplay_column(session)
        outcome = smartplay_metrics.smartplay_outcome(session)
    except ValueError:  # not a SmartPlay setting
        return None
    text = f"SmartPlay score {outcome.score:g} ({column}"
    normalized = smartplay_metrics.normalize_score(column, outcome.score)
    if normalized is not None:
        text += f", human-normalised {normalized:.2f}"
    if parts_of(session.game).objective:
        text += ", completed" if outcome.completed else ", not completed"
    return text + ")"


async def _play(
    game: Game[GameState],
    players: list[Player],
    args: argparse.Namespace,
    options: EpisodeOptions,
    names: list[str],
) -> EpisodeResult:
    people = any(player.interactive for player in players)
    graph = create_episode_graph(checkpointer=InMemorySaver() if people else None)
    context = EpisodeContext(players=players, game=game, options=options)
    record: SessionRecord = {
        "game": game.versioned_id,
        "options": game.options_dict(),
        "seed": args.seed,
        "actions": [],
    }
    if not args.quiet:
        print(GameSession.from_dict(record).render())
    config: RunnableConfig = {"recursion_limit": 10**6}
    if not args.quiet:
        config["callbacks"] = [Thinking(sys.stderr)]
    if people:
        config["configurable"] = {"thread_id": f"play-{args.seed}"}
    graph_input: EpisodeState | Command[Any] = {"record": record, "trajectory": []}
    result: EpisodeResult | None = None
    moves: list[str | dict[str, str]] = []  # a step's update: the moves it played, not all
    while True:
        request: Mapping[str, Any] | None = None
        async for update in graph.astream(
            graph_input, config, context=context, stream_mode="updates"
        ):
            played = update.get("step") or {}
            if "record" in played:
                moves += played["record"]["actions"]
                # a step plays instant seats' moves after the first: each has its own board
                # (a forfeit's step, which plays no move, has none)
                for step in (s for s in played["trajectory"] if s["actions"]):
                    if not args.quiet:
                        board: SessionRecord = {**record, "actions": moves[: step["step"] + 1]}
                        _print_step(game, step, board, names, args.full)
            for changes in update.values():  # the ending step's update, or finish's
                if isinstance(changes, dict) and changes.get("result") is not None:
                    result = changes["result"]
            if "__interrupt__" in update:
                request = update["__interrupt__"][0].value
        if request is None:
            if result is None:
                raise RuntimeError("the episode graph stopped without a result")
            return result
        graph_input = Command(resume=_ask_person(request, names, args.quiet))


class Thinking(BaseCallbackHandler):
    """Shows ``thinking...`` on ``stream`` while a chat model decides.

    On a terminal the line is cleared when the answer comes (the move is printed next);
    elsewhere (a pipe, a file) each model call leaves one ``thinking...`` line. Every
    model call of an episode gets the run's config, so its callbacks, which is how this
    handler sees the calls.
    """

    run_inline = True  # in order with the moves the graph prints

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.terminal = stream.isatty()

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[Any]], **kwargs: Any
    ) -> None:
        """A model was asked: say so."""
        model = (kwargs.get("metadata") or {}).get("ls_model_name")
        line = f"thinking... ({model})" if model else "thinking..."
        self.stream.write(f"\r{line}" if self.terminal else f"{line}\n")
        self.stream.flush()

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        """The answer came: clear the line on a terminal."""
        if self.terminal:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def on_llm_error(self, error: BaseException, **kwargs: Any) -> None:
        """The call failed (it may be retried): clear the line as for an answer."""
        self.on_llm_end(None)


def _ask_person(request: Mapping[str, Any], names: list[str], quiet: bool) -> str:
    """Show a human seat's request and read one line (``EOFError`` at the end of input)."""
    if request.get("feedback"):
        print(f"  {request['feedback']}")
    else:
        print(f"\n{names[request['seat']]} to move.")
        if quiet:
            print(request["board"])
        print(textwrap.fill("Legal moves: " + ", ".join(request["legal_moves"]), width=100))
    print(request["prompt"])
    return input("> ")


def _print_step(
    game: Game[GameState], step: Step, record: SessionRecord, names: list[str], full: bool
) -> None:
    moves = ", ".join(f"{game.player_label(int(p))} plays {a}" for p, a in step["actions"].items())
    print(f"\nMove {step['step'] + 1}: {moves}")
    for seat, decision in step["decisions"].items():
        attempts = decision["attempts"]
        if not any(a["raw_outputs"] for a in attempts):
            continue
        for number, attempt in enumerate(attempts, start=1):
            text = "\n".join(attempt["raw_outputs"]).strip() or "(empty answer)"
            if not full:
                text = textwrap.shorten(text.replace("\n", " / "), width=600)
            print(f"  {names[int(seat)]} answer {number} [{attempt['status']}]:")
            print(textwrap.indent(text, "    | "))
            if attempt.get("feedback"):
                print(f"    -> {attempt['feedback']}")
        which = " in answer 1" if len(attempts) > 1 else ""  # I scores the first answer
        for score in first_answers(decision)[1]:
            mark = "right" if score["correct"] else "wrong"
            said = "no answer" if not score["answered"] else score["parsed"]
            print(
                f"    subproblem {score['index']}: said {said}{which}, truth {score['truth']} "
                f"-> {mark} ({score['metric']} {score['value']:.2f})"
            )
        if decision.get("fallback"):
            print(f"    fallback ({decision['fallback']}): {decision['action']}")
    print(GameSession.from_dict(record).render())

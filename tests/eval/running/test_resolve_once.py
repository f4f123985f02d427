"""Runs resolve specs once: one engine per game spec, spellings and spec hashes kept."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from langgraph_games.eval.protocols.plans import plan_ablation, plan_eval
from langgraph_games.eval.protocols.smartplay import smartplay_specs
from langgraph_games.eval.protocols.spring_ablation import ablation_runs
from langgraph_games.eval.running.arena import ArenaSpec, run_arena
from langgraph_games.eval.running.players import STRATEGIES, build_player, is_llm_spec
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.eval.running.training import TrainSpec
from langgraph_games.games import make, registry
from langgraph_games.graphs import gamebot_player
from langgraph_games.graphs.episode.options import EpisodeOptions
from langgraph_games.models import ScriptedChatModel
from support import install_strategy, oracle

Calls = Counter[tuple[str, str]]
"""``make`` calls by (calling module, game id with its options)."""

DECISION_GRAPHS = "langgraph_games.graphs.common.decision"
"""Decision graphs rebuild an engine from their JSON input (once per process and game)."""


@pytest.fixture
def make_calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Count every ``make`` call of the package, wherever a module imported it."""
    calls: Calls = Counter()
    original = registry.make

    def counted(module: str) -> Callable[..., Any]:
        def make_counted(game_id: str, **options: Any) -> Any:
            calls[(module, f"{game_id} {sorted(options.items())}")] += 1
            return original(game_id, **options)

        return make_counted

    for name, module in list(sys.modules.items()):
        if name.startswith("langgraph_games") and getattr(module, "make", None) is original:
            monkeypatch.setattr(module, "make", counted(name))
    return calls


def _by_game(calls: Calls, skip: str = "") -> Counter[str]:
    out: Counter[str] = Counter()
    for (module, game), count in calls.items():
        if module != skip:
            out[game] += count
    return out


@pytest.mark.parametrize("matches", [2, 6])
async def test_an_arena_makes_its_game_once_whatever_the_matches(
    matches: int, tmp_path: Path, make_calls: Calls
) -> None:
    spec = ArenaSpec(game="tictactoe", players=["minimax:depth=1", "random"], matches=matches)
    report = await run_arena(spec, tmp_path, progress=False, scoring=None)
    assert report.played == matches and report.errors == 0
    # Once to play every match, once to read the results file back for the summary (as
    # any report does: by the game id the records hold).
    assert _by_game(make_calls) == {"tictactoe []": 1, "tictactoe-v1 []": 1}
    assert make_calls[("langgraph_games.eval.running.arena", "tictactoe []")] == 1


async def test_an_arena_with_an_llm_strategy_makes_no_engine_per_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_calls: Calls
) -> None:
    def perfect(model: Any, game: Any, name: str) -> Any:
        return gamebot_player(ScriptedChatModel(script=oracle("right")), game, name=name)

    install_strategy(monkeypatch, "perfect", perfect, "oracle")
    spec = ArenaSpec(game="tictactoe", players=["perfect", "minimax:depth=1"], matches=4)
    report = await run_arena(spec, tmp_path, progress=False)
    assert report.played == 12 and report.errors == 0
    assert _by_game(make_calls, skip=DECISION_GRAPHS) == {"tictactoe []": 1, "tictactoe-v1 []": 1}
    assert sum(n for (m, _), n in make_calls.items() if m == DECISION_GRAPHS) <= 1


async def test_an_eval_makes_each_options_combination_once(
    tmp_path: Path, make_calls: Calls
) -> None:
    spec = EvalSpec(
        game="maze",
        options={"map_set": "eval", "level": 1},
        agent="maze_explorer",
        sweep={"map_index": [1, 2]},
        repeats=3,
        episode=EpisodeOptions(max_steps=5),
    )
    report = await run_eval(spec, tmp_path, progress=False)
    assert report.played == 6 and report.errors == 0
    base = "maze [('level', 1), ('map_set', 'eval')]"
    one = "maze [('level', 1), ('map_index', 1), ('map_set', 'eval')]"
    two = "maze [('level', 1), ('map_index', 2), ('map_set', 'eval')]"
    assert _by_game(make_calls) == {base: 1, one: 1, two: 1}
    make_calls.clear()
    plain = EvalSpec(game="tictactoe", agent="random", opponents=["minimax:depth=1"], repeats=4)
    report = await run_eval(plain, tmp_path, progress=False)
    assert report.played == 4 and _by_game(make_calls) == {"tictactoe []": 1}


async def test_old_spellings_name_the_players_of_results_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def perfect(model: Any, game: Any, name: str) -> Any:
        return gamebot_player(ScriptedChatModel(script=oracle("right")), game, name=name)

    install_strategy(monkeypatch, "perfect", perfect, "oracle")
    spec = ArenaSpec(
        game="tictactoe",
        players=["perfect:local", "minimax:depth=1", "MINIMAX:depth=2"],
        matches=1,
        baseline=False,
    )
    report = await run_arena(spec, tmp_path, progress=False)
    seats = {s for r in ResultsFile(report.results_path).read().records for s in r["seats"]}
    assert seats == {"perfect:local", "minimax:depth=1", "MINIMAX:depth=2"}
    assert {r["player"] for r in report.rows} == seats
    game = make("minesweeper")
    for spec in ("minesweeper:variant=memory:fake", "gamebot:variant=cot:fake", "spring:fake"):
        assert spec.split(":")[0] in STRATEGIES and is_llm_spec(spec)
    assert not is_llm_spec("maze_explorer") and not is_llm_spec("nobody")
    assert not is_llm_spec("ms_memory:fake")  # a former name names no player
    player = build_player("minesweeper:variant=memory:local", game)
    assert player.name == "minesweeper:variant=memory:local"


# Spec hashes, pinned: every spec string is hashed as written, so results files and resume
# keep working across releases. The Minesweeper and SPRING ablation rows name their players
# in the current spelling (``minesweeper:variant=tips``, ``spring:variant=no_dag``), so their
# pins are those of the spellings, not of the former names (``ms_tips``, ``spring_no_dag``).
BEFORE = {
    "arena": "6dd49cb77998",
    "ms_ablation": [
        ("minesweeper:variant=baseline:local", "b3a8a93b8f2d"),
        ("minesweeper:variant=examples:local", "642c9fc59f0c"),
        ("minesweeper:variant=step_back:local", "646d1c137c95"),
        ("minesweeper:variant=tips:local", "1d4b319e9860"),
        ("minesweeper:variant=memory:local", "e5154550b062"),
    ],
    "spring_ablation": [
        ("spring:local", "63973bace9a9"),
        ("spring:variant=actions:local", "68279ef4f29e"),
        ("spring:variant=no_context:local", "1398a9119bd4"),
        ("spring:variant=step_by_step:local", "5720731a4771"),
        ("spring:variant=no_dag:local", "c1caadbdce88"),
        ("spring:variant=action_only:local", "0225b9ef7a64"),
    ],
    "smartplay": [
        ("smartplay:question=paper:local", "bandit", "39a71003c29a"),
        ("smartplay:question=paper:local", "hanoi", "a9f9a6f9ef07"),
        ("random", "bandit", "37d3020dd5ee"),
        ("random", "hanoi", "b10d1779511c"),
    ],
    "maze": "9d760b8a4305",
    "train": "2c4f06d6019b",
    "eval_gamebot": "f76b32803947",
}


def test_spec_hashes_are_unchanged() -> None:
    arena = ArenaSpec(
        game="tictactoe",
        players=["gamebot:variant=cot:openai:gpt-4o", "minimax:depth=3", "gamebot:local"],
        matches=2,
    )
    assert arena.spec_hash() == BEFORE["arena"]
    assert arena.schedule()[0].match_id == "1b56404df1c687ec"
    ms = [(s.agent, s.spec_hash()) for s in plan_ablation("minesweeper", "local")]
    assert ms == BEFORE["ms_ablation"]
    spring = [(r.spec.agent, r.spec.spec_hash()) for r in ablation_runs("local", context="C")]
    assert spring == BEFORE["spring_ablation"]
    specs = smartplay_specs(
        ["smartplay:question=paper:local", "random"], ["Bandit", "Hanoi"], history={"Bandit": 3}
    )
    assert [(s.agent, s.game, s.spec_hash()) for s in specs] == BEFORE["smartplay"]
    assert plan_eval("maze", "eeb:local", level=2).spec_hash() == BEFORE["maze"]
    assert TrainSpec(game="maze", agent="eeb:local").spec_hash() == BEFORE["train"]
    gamebot = EvalSpec(
        game="tictactoe", agent="gamebot:variant=reasoning:local", opponents=["minimax:depth=2"]
    )
    assert gamebot.spec_hash() == BEFORE["eval_gamebot"]
    # Passing the engine a run made already gives the same hash.
    assert gamebot.spec_hash(make("tictactoe")) == BEFORE["eval_gamebot"]

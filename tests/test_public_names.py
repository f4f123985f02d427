"""Every public name of the top-level packages stays importable after the folder moves.

The three lists are the ``__all__`` lists of ``langgraph_games``, ``langgraph_games.graphs``
and ``langgraph_games.eval`` before ``graphs/`` and ``eval/`` got a folder per concept;
users' imports of these names must keep working.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import pytest

import langgraph_games
import langgraph_games.eval
import langgraph_games.graphs

TOP = ["GameSession", "IllegalActionError", "__version__", "list_games", "make"]
GRAPHS = [
    "MS_STRATEGIES",
    "SPRING_EDGES",
    "SPRING_QUESTIONS",
    "VARIANTS",
    "DagError",
    "DagPlan",
    "DecisionInput",
    "EpisodeContext",
    "EpisodeOptions",
    "EpisodeState",
    "GraphPlayer",
    "MinesweeperPlayer",
    "QuestionDagInput",
    "QuestionDagOutput",
    "SmartPlayPlayer",
    "SpringPlayer",
    "SpringVariant",
    "StudyError",
    "build_gamebot_messages",
    "create_eeb_agent",
    "create_episode_graph",
    "create_gamebot_agent",
    "create_minesweeper_agent",
    "create_question_dag",
    "create_smartplay_agent",
    "create_spring_agent",
    "create_spring_decision_graph",
    "create_study_graph",
    "eeb_player",
    "gamebot_player",
    "minesweeper_player",
    "plan_question_dag",
    "read_document",
    "request_to_input",
    "run_episode",
    "smartplay_player",
    "spring_context",
    "spring_player",
]
EVAL = [
    "PROTOCOLS",
    "STRATEGIES",
    "ArenaReport",
    "ArenaSpec",
    "MatchSpec",
    "ModelPool",
    "ReadReport",
    "ResultsFile",
    "Scoring",
    "SmartPlayReport",
    "SmartPlaySummary",
    "build_player",
    "is_llm_spec",
    "outcome_score",
    "pairwise_wdl",
    "plan_ablation",
    "plan_eval",
    "player_rows",
    "run_arena",
    "run_smartplay",
    "run_specs",
    "smartplay_specs",
    "smartplay_summary",
    "summarize",
]
CASES = [
    (langgraph_games, TOP),
    (langgraph_games.graphs, GRAPHS),
    (langgraph_games.eval, EVAL),
]


@pytest.mark.parametrize(("package", "names"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_every_earlier_public_name_is_still_exported(package: ModuleType, names: list[str]) -> None:
    missing = [name for name in names if not hasattr(package, name)]
    assert missing == []
    assert set(names) <= set(package.__all__)
    for name in names:  # `from package import name` works for each
        exec(f"from {package.__name__} import {name}", {})


@pytest.mark.parametrize("package", [langgraph_games.graphs, langgraph_games.eval])
def test_re_exports_are_the_defining_modules_objects(package: ModuleType) -> None:
    """A re-exported class or function comes from a module inside the package."""
    for name in package.__all__:
        value = getattr(package, name)
        module = getattr(value, "__module__", None)
        if callable(value) and module is not None and module.startswith("langgraph_games"):
            assert module.startswith(package.__name__ + "."), (name, module)
            assert getattr(importlib.import_module(module), name, value) is value


def _subpackages(package: ModuleType) -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        if info.ispkg
    ]


@pytest.mark.parametrize(
    "name", _subpackages(langgraph_games.graphs) + _subpackages(langgraph_games.eval)
)
def test_every_subpackage_export_resolves(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__, f"{name} says what it holds"
    missing = [n for n in getattr(module, "__all__", []) if not hasattr(module, n)]
    assert missing == []

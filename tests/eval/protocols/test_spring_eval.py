"""SPRING through the eval runner, strategy settings, and the Table 3 ablation layout."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.eval.protocols.spring_ablation import (
    ablation_runs,
    ablation_table,
    run_spring_ablation,
)
from langgraph_games.eval.running import players as eval_players
from langgraph_games.eval.running.players import build_player
from langgraph_games.eval.running.results import ResultsFile
from langgraph_games.eval.running.runner import EvalSpec, run_eval
from langgraph_games.games import make
from langgraph_games.graphs import EpisodeOptions
from langgraph_games.graphs.spring.graph import SPRING_QUESTIONS
from langgraph_games.graphs.study.graph import GAME_QUESTIONS
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import PlayerSettingError

FINAL = SPRING_QUESTIONS["qa"]


class Recorder:
    """A scripted model factory: the final answer cycles; every prompt is kept."""

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.count = 0
        self.prompts: list[list[BaseMessage]] = []

    def __call__(self, spec: str, **settings: Any) -> ScriptedChatModel:
        def script(messages: Sequence[BaseMessage]) -> str:
            self.prompts.append(list(messages))
            if messages[-1].content != FINAL:
                return "ok"
            self.count += 1
            return self.answers[(self.count - 1) % len(self.answers)]

        return ScriptedChatModel(script=script)


@pytest.fixture
def fake_models(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder(["Move West", "Move West", "nothing to say"])
    monkeypatch.setattr(eval_players, "load_chat_model", recorder)
    return recorder


def spec(**kwargs: Any) -> EvalSpec:
    base: dict[str, Any] = {
        "game": "crafter",
        "agent": "spring:variant=step_by_step:fake",
        "repeats": 2,
        "concurrency": 1,
        "episode": EpisodeOptions(max_steps=3),
    }
    base.update(kwargs)
    return EvalSpec(**base)


async def test_spring_through_the_eval_runner(tmp_path: Path, fake_models: Recorder) -> None:
    report = await run_eval(spec(agent_settings={"context": "CONTEXT-X"}), tmp_path, progress=False)
    assert report.played == 2 and report.errors == 0
    for metrics in report.metrics:
        assert metrics["decisions"] == 3 and metrics["length"] == 3
        assert metrics["api_calls"] == 6  # two questions per step
        assert metrics["defaulted"] == 1  # the third answer names no action
        assert metrics["rejected_answers"] == 1 and metrics["valid_responses"] == 3
        assert metrics["input_tokens"] > 0 and metrics["latency_s"] > 0
    assert all(p[1].content.startswith("CONTEXT-X\n\nThe actions") for p in fake_models.prompts)
    lines = report.table.strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| agent"))
    header, _, row = lines[start : start + 3]
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "agent", "episodes", "score %", "reward", "depth", "steps",
        "defaulted %", "calls/step", "tokens/step", "s/step",
    ]  # fmt: skip
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:3] == ["spring:variant=step_by_step:fake", "2", "0.00"]
    assert cells[6:8] == ["33.33", "2.00"]
    records = ResultsFile(report.results_path).read().records
    steps = records[0]["trajectory"]
    assert [s["decisions"]["0"]["status"] for s in steps] == ["ok", "ok", "fallback"]
    manifest = json.loads(report.results_path.with_suffix(".manifest.json").read_text())
    assert manifest["spec"]["agent_settings"] == {"context": "CONTEXT-X"}


def test_settings_change_the_hash_and_their_absence_keeps_it() -> None:
    plain = spec()
    assert spec(agent_settings={"context": "a"}).spec_hash() != plain.spec_hash()
    assert spec(agent_settings={"context": "a"}).spec_hash() != (
        spec(agent_settings={"context": "b"}).spec_hash()
    )
    # Fields added later (agent settings, truths) are left out of the hash while unset.
    unset = {"agent_settings", "truths", "truth_limit", "truths_digest"}
    how = {"concurrency", "workers", "executor", "ray_address"}  # how a run runs: not hashed
    data = plain.model_dump(mode="json", exclude={*how, "label", *unset})
    data["game"] = make("crafter").versioned_id
    import hashlib

    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    assert plain.spec_hash() == hashlib.sha256(blob.encode()).hexdigest()[:12]


def test_every_spring_strategy_is_registered(fake_models: Recorder) -> None:
    game = make("crafter")
    expected = {
        "spring": 9, "spring:variant=actions": 9, "spring:variant=no_context": 9,
        "spring:variant=step_by_step": 2, "spring:variant=no_dag": 9,
        "spring:variant=action_only": 1,
    }  # fmt: skip
    for name, questions in expected.items():
        player = build_player(f"{name}:fake", game)
        assert player.describe()["questions"] == questions and player.name == f"{name}:fake"
    with pytest.raises(PlayerSettingError, match=r"'gamebot' has no setting 'context'.*variant"):
        build_player("gamebot:fake", game, settings={"context": "x"})
    with pytest.raises(PlayerSettingError, match=r"'random' has no setting 'context'.*seed"):
        build_player("random", game, settings={"context": "x"})
    with pytest.raises(PlayerSettingError, match="'maze_explorer' takes no settings"):
        build_player("maze_explorer", game, settings={"context": "x"})


def episode(reward: float, depth_names: Sequence[str], decisions: int = 10, **extra: Any) -> dict:
    from langgraph_games.games.crafter.metrics import achievement_depth

    return {
        "reward": reward,
        "length": decisions,
        "done": False,
        "died": False,
        "unlocked": dict.fromkeys(depth_names, 1),
        "num_unlocked": len(depth_names),
        "depth": achievement_depth(depth_names),
        "decisions": decisions,
        "api_calls": extra.get("api_calls", 9 * decisions),
        "defaulted": extra.get("defaulted", 0),
        "input_tokens": 100,
        "output_tokens": 10,
        "latency_s": 1.0,
    }


def test_ablation_table_layout() -> None:
    wood_table = ["collect_wood", "place_table"]
    rows = {
        "no_dag": (9, [episode(2.0, wood_table), episode(4.0, ["collect_wood"], defaulted=5)]),
        "full": (9, [episode(3.0, ["collect_wood", "place_table", "make_wood_pickaxe"])]),
        "no_context": (9, [episode(0.5, [])]),
        "action_only": (1, [episode(1.0, ["collect_wood"], api_calls=10)]),
    }
    lines = ablation_table(rows).splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == [
        "Method", "Achievement Depth", "Reward", "Questions per Step",
        "calls/step", "defaulted %", "episodes",
    ]  # fmt: skip
    body = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    assert body == [
        ["SPRING + C", "2", "3.0 ± 0.0", "9", "9.00", "0.00", "1"],
        ["SPRING w/o C", "0", "0.5 ± 0.0", "9", "9.00", "0.00", "1"],
        ["SPRING + C", "2", "3.0 ± 0.0", "9", "9.00", "0.00", "1"],
        ["QA w/o DAG + C", "1", "3.0 ± 1.0", "9", "9.00", "25.00", "2"],
        ["w/o QA + C", "0", "1.0 ± 0.0", "1", "1.00", "0.00", "1"],
    ]
    # With one group only, the full row is given once.
    one_group = ablation_table({k: rows[k] for k in ("full", "no_dag")}).splitlines()[2:]
    assert [line.split("|")[1].strip() for line in one_group] == ["SPRING + C", "QA w/o DAG + C"]
    with pytest.raises(ValueError, match="at least one row"):
        ablation_table({})


def test_ablation_runs_are_specs_per_row() -> None:
    runs = ablation_runs(
        "openai:gpt-4o",
        variants=["full", "actions", "no_dag"],
        context="MY C",
        modified_context="MY C without the table",
        repeats=5,
        episode=EpisodeOptions(max_steps=100),
    )
    assert [(r.key, r.label, r.questions) for r in runs] == [
        ("full", "SPRING + C", 9),
        ("modified", "SPRING + modified C", 9),
        ("actions", "SPRING + action descriptions", 9),
        ("no_dag", "QA w/o DAG + C", 9),
    ]
    assert [r.spec.agent for r in runs] == [
        "spring:openai:gpt-4o",
        "spring:openai:gpt-4o",
        "spring:variant=actions:openai:gpt-4o",
        "spring:variant=no_dag:openai:gpt-4o",
    ]
    assert [r.spec.agent_settings.get("context") for r in runs] == [
        "MY C", "MY C without the table", None, "MY C",
    ]  # fmt: skip
    assert len({r.spec.spec_hash() for r in runs}) == 4
    assert all(r.spec.repeats == 5 and r.spec.episode.max_steps == 100 for r in runs)
    assert [r.context_source for r in runs] == [
        "the given context",
        "the given context",
        "the game's action descriptions (the given context has no studied actions answer)",
        "the given context",
    ]
    with pytest.raises(ValueError, match="needs Crafter's metrics"):
        ablation_runs("local", game="maze")
    with pytest.raises(ValueError):
        ablation_runs("local", variants=["bogus"])


async def test_run_spring_ablation_end_to_end(tmp_path: Path, fake_models: Recorder) -> None:
    runs = ablation_runs(
        "fake",
        variants=["full", "action_only"],
        repeats=1,
        episode=EpisodeOptions(max_steps=3),
        concurrency=1,
    )
    seen: list[str] = []
    report = await run_spring_ablation(
        runs, tmp_path, progress=False, on_run=lambda run, _: seen.append(run.key)
    )
    assert seen == ["full", "action_only"]
    body = [[c.strip() for c in line.strip("|").split("|")] for line in report.table.splitlines()]
    assert [row[0] for row in body[2:]] == ["SPRING + C", "w/o QA + C"]
    assert [row[3:5] for row in body[2:]] == [["9", "9.00"], ["1", "1.00"]]
    assert {r.played for r in report.reports.values()} == {1}
    again = await run_spring_ablation(runs, tmp_path, progress=False)
    assert {r.skipped for r in again.reports.values()} == {1}
    assert again.table == report.table


STUDIED = (
    f"Question: {GAME_QUESTIONS[0]}\nAnswer:\n1. Trees give wood.\n\n"
    f"Question: {GAME_QUESTIONS[3]}\nAnswer:\n1. Do: needs a facing object.\n2. Sleep: at night."
)
STUDIED_ACTIONS = (
    f"Question: {GAME_QUESTIONS[3]}\nAnswer:\n1. Do: needs a facing object.\n2. Sleep: at night."
)


def test_the_action_descriptions_row_uses_the_studied_actions_answer() -> None:
    runs = ablation_runs("fake", variants=["full", "actions", "no_context"], context=STUDIED)
    assert [r.spec.agent_settings.get("context") for r in runs] == [STUDIED, STUDIED_ACTIONS, None]
    assert [r.context_source for r in runs] == [
        "the given context",
        "the actions answer of the given studied context",
        "none",
    ]
    default = ablation_runs("fake", variants=["actions"])[0]
    assert default.spec.agent_settings == {}
    assert default.context_source == "the game's action descriptions"


async def test_the_action_descriptions_row_prompts_hold_only_the_actions_answer(
    tmp_path: Path, fake_models: Recorder
) -> None:
    runs = ablation_runs(
        "fake",
        variants=["actions"],
        context=STUDIED,
        repeats=1,
        episode=EpisodeOptions(max_steps=1),
    )
    report = await run_spring_ablation(runs, tmp_path, progress=False)
    contexts = {
        str(p[1].content).split("\n\nThe actions you can take:")[0] for p in fake_models.prompts
    }
    assert contexts == {STUDIED_ACTIONS}
    assert report.sources == [
        "SPRING + action descriptions: C = the actions answer of the given studied context"
    ]

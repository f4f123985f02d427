"""The SPRING commands with scripted models: eval crafter, --ablation, --context, study."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from langgraph_games.cli import eval_cmd, main, study_cmd
from langgraph_games.eval.running import players as eval_players
from langgraph_games.games import make
from langgraph_games.graphs.spring.graph import SPRING_QUESTIONS
from langgraph_games.graphs.study.documents import split_paragraphs
from langgraph_games.models import ScriptedChatModel


class Models:
    """Scripted models for every place the CLI loads one; counts calls, keeps prompts."""

    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def script(self, messages: Sequence[BaseMessage]) -> str:
        self.prompts.append(list(messages))
        question = str(messages[-1].content)
        if question.endswith("Answer yes or no."):
            return "Yes."
        if question.startswith("Paragraph:"):
            return "1. Trees give wood.\n2. A table needs wood."
        return "Move West" if question == SPRING_QUESTIONS["qa"] else "ok"

    def __call__(self, spec: str, **settings: Any) -> ScriptedChatModel:
        return ScriptedChatModel(script=self.script)


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch) -> Models:
    fake = Models()
    for module in (eval_players, eval_cmd, study_cmd):
        monkeypatch.setattr(module, "load_chat_model", fake)
    return fake


def rows(text: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("|") and not line.startswith("|-")
    ]


def test_eval_crafter_with_spring(tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["eval", "crafter", "--agent", "spring", "--model", "fake", "--steps", "3"]
    argv += ["--episodes", "2", "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = rows(out)
    assert table[0] == [
        "agent", "episodes", "score %", "reward", "depth", "steps",
        "defaulted %", "calls/step", "tokens/step", "s/step",
    ]  # fmt: skip
    assert table[1][:8] == ["spring:fake", "2", "0.00", "0.0±0.0", "0", "3.00", "0.00", "9.00"]
    assert len(models.prompts) == 2 * 3 * 9
    assert "(2 played now, 0 already done, 0 errors)" in out
    assert main(argv) == 0  # a rerun resumes: nothing left to play
    assert "(0 played now, 2 already done, 0 errors)" in capsys.readouterr().out
    assert len(models.prompts) == 2 * 3 * 9


def test_eval_ablation_prints_table_3(tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    modified = tmp_path / "modified.txt"
    modified.write_text("A pickaxe needs only wood.\n", encoding="utf-8")
    argv = ["eval", "crafter", "--agent", "spring:fake", "--ablation", "--steps", "2"]
    argv += ["--variants", "full,action_only", "--modified-context", str(modified)]
    argv += ["--episodes", "1", "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(
        "## SPRING ablations (Table 3 layout): crafter-v1 with fake, 1 episode(s) per row, "
        "at most 2 steps each; C = the game's manual\n"
    )
    table = rows(captured.out)
    assert table[0][:4] == ["Method", "Achievement Depth", "Reward", "Questions per Step"]
    assert [(r[0], r[3], r[4]) for r in table[1:]] == [
        ("SPRING + C", "9", "9.00"),
        ("SPRING + modified C", "9", "9.00"),
        ("SPRING + C", "9", "9.00"),
        ("w/o QA + C", "1", "1.00"),
    ]
    assert captured.err.count("(1 played now, 0 already done, 0 errors)") == 3
    contexts = {p[1].content.split("\n\n")[0] for p in models.prompts}
    assert "A pickaxe needs only wood." in contexts and "# Crafter" in contexts


def test_study_writes_and_caches_a_context(tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    output, cache = tmp_path / "ctx.txt", tmp_path / "cache.sqlite"
    argv = ["study", "--model", "fake", "--cache", str(cache), "--output", str(output), "-q"]
    assert main(argv) == 0
    paragraphs = len(split_paragraphs(make("crafter").manual()))
    err = capsys.readouterr().err
    assert f"{paragraphs} of {paragraphs} paragraphs relevant" in err
    assert f"({6 * paragraphs} model calls" in err  # 2 relevance + 4 game questions each
    context = output.read_text(encoding="utf-8")
    assert context.startswith(
        "Question: Write all information helpful for the game in a numbered list.\n"
        "Answer:\n1. Trees give wood.\n2. A table needs wood.\n\n"
    )
    calls = len(models.prompts)
    assert main(argv) == 0
    assert "from the cache" in capsys.readouterr().err and len(models.prompts) == calls

    # The written context is what --context passes to SPRING.
    assert main(["eval", "crafter", "--agent", "spring:variant=action_only:fake", "--context",
                 str(output), "--steps", "1", "--episodes", "1", "--out", str(tmp_path),
                 "-q"]) == 0  # fmt: skip
    assert models.prompts[-1][1].content.startswith(context.strip() + "\n\nThe actions")


def test_eval_study_studies_then_plays(tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    document = tmp_path / "guide.md"
    document.write_text("# Guide\n\nChop trees to get wood.\n\nDrink from lakes.\n")
    argv = ["eval", "crafter", "--agent", "spring:variant=action_only", "--model", "fake"]
    argv += ["--study", str(document), "--steps", "1", "--episodes", "1"]
    argv += ["--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"studied {document}: 2 of 2 paragraphs relevant" in err
    assert (tmp_path / "study.sqlite").is_file()
    assert models.prompts[-1][1].content.startswith(
        "Question: Write all information helpful for the game in a numbered list.\nAnswer:\n"
        "1. Trees give wood."
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--context", "missing.txt"], "cannot read document 'missing.txt': no such file"),
        (["--agent", "gamebot:fake", "--context", "EMPTY"], "context file"),
        (["--agent", "gamebot:fake", "--context", "CTX"], "'gamebot' has no setting 'context'"),
        (["--agent", "gamebot:fake", "--ablation"], "--ablation runs SPRING's Table 3"),
        (["--ablation", "--variants", "full,bogus"], "unknown SPRING variant 'bogus'"),
        (
            ["--ablation", "--variants", "full,spring_no_dag"],
            "unknown SPRING variant 'spring_no_dag': renamed to 'no_dag'",
        ),
        (
            ["--agent", "spring_no_dag:fake"],
            "error: Unknown player 'spring_no_dag' (in 'spring_no_dag:fake'): renamed to "
            "'spring:variant=no_dag'\n",
        ),
        (["--variants", "full"], "--variants selects the rows of --ablation"),
        (["--context", "CTX", "--study", "CTX"], "either --context FILE or --study"),
        (["--agent", "random", "--study", "CTX"], "--study needs an LLM agent"),
        (["--study", "CTX", "--study-concurrency", "0"], "--study-concurrency must be at least 1"),
    ],
)
def test_bad_spring_input_exits_2(  # type: ignore[no-untyped-def]
    extra: list[str], message: str, tmp_path: Path, models: Models, capsys
) -> None:
    (tmp_path / "EMPTY").write_text("  \n")
    (tmp_path / "CTX").write_text("Trees give wood.\n")
    extra = [str(tmp_path / e) if e in ("EMPTY", "CTX") else e for e in extra]
    argv = ["eval", "crafter", "--agent", "spring:fake", "--steps", "1", "--episodes", "1"]
    argv += ["--out", str(tmp_path), "-q", *extra]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    assert models.prompts == []


def test_ablation_needs_crafter(tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["eval", "maze", "--agent", "spring:fake", "--ablation", "--out", str(tmp_path)]
    assert main(argv) == 2
    assert "needs Crafter's metrics" in capsys.readouterr().err


class SlowModels(Models):
    """Scripted models that take a moment per call and record how many overlap."""

    def __init__(self) -> None:
        super().__init__()
        self.now = self.peak = 0

    def __call__(self, spec: str, **settings: Any) -> ScriptedChatModel:
        outer = self

        class Slow(ScriptedChatModel):
            async def _agenerate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
                outer.now += 1
                outer.peak = max(outer.peak, outer.now)
                try:
                    return await super()._agenerate(messages, *args, **kwargs)
                finally:
                    outer.now -= 1

        return Slow(script=self.script, latency_s=0.002, name_="slow-study")


@pytest.mark.parametrize(("flags", "peak"), [([], 8), (["--concurrency", "3"], 3)])
def test_study_bounds_its_calls_at_once(  # type: ignore[no-untyped-def]
    flags: list[str], peak: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    slow = SlowModels()
    monkeypatch.setattr(study_cmd, "load_chat_model", slow)
    document = tmp_path / "guide.md"
    document.write_text("\n\n".join(f"Trees give wood, note {i}." for i in range(12)))
    argv = ["study", str(document), "--model", "fake", "--no-cache", "-q", *flags]
    assert main(argv) == 0
    assert "(72 model calls" in capsys.readouterr().err  # 12 x (2 relevance + 4 questions)
    assert slow.peak == peak


def test_study_refuses_a_concurrency_below_one(tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["study", "--model", "fake", "--concurrency", "0", "--no-cache"]) == 2
    assert "--concurrency must be at least 1, got 0" in capsys.readouterr().err
    assert models.prompts == []


@pytest.mark.parametrize("game", ["bandit", "rock_paper_scissors", "hanoi", "messenger"])
def test_eval_spring_on_smartplay_games(game: str, tmp_path: Path, models: Models, capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["eval", game, "--agent", "spring", "--model", "fake", "--steps", "2"]
    argv += ["--episodes", "2", "--out", str(tmp_path), "-q"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "(2 played now, 0 already done, 0 errors)" in out
    engine = make(game)
    manuals = {engine.manual_text(engine.initial_state(seed)) for seed in (0, 1)}  # type: ignore[attr-defined]
    used = {
        str(p[1].content).rsplit("\n\nThe actions you can take: ", 1)[0] for p in models.prompts
    }
    assert used == manuals


def test_study_says_how_many_calls_it_can_make_and_takes_a_cap(  # type: ignore[no-untyped-def]
    tmp_path: Path, models: Models, capsys
) -> None:
    document = tmp_path / "guide.md"
    document.write_text("\n\n".join(f"Trees give wood, note {i}." for i in range(12)))
    argv = ["study", str(document), "--model", "fake", "--no-cache", "-q"]
    assert main([*argv, "--max-calls", "71"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"studying {document}: 12 paragraphs: 24 relevance calls, then up to 48 answer "
        "calls: at most 72 model calls (none if this study is cached)\n"
    )
    assert "could make up to 72 model calls" in err and "more than the cap of 71" in err
    assert models.prompts == []  # refused before any call
    assert main([*argv, "--max-calls", "72", "--merge", "model"]) == 2
    assert "up to 4 merge calls: at most 76" in capsys.readouterr().err
    assert main([*argv, "--max-calls", "72"]) == 0
    assert len(models.prompts) == 72
    assert main([*argv, "--max-calls", "0"]) == 2
    assert "--max-calls must be at least 1, got 0" in capsys.readouterr().err

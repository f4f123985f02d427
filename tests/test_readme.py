"""The README as written: every Python snippet runs, every command runs or at least parses.

Snippets and commands are read from README.md itself, so an edit there is tested here.
Models are scripted: every place that loads a model spec gets :class:`ReadmeModel`, which
plays the first legal move a GAMEBoT prompt lists (or, when an answer is constrained to
the legal moves, the first move the JSON schema allows). Commands that only make sense
against a real endpoint, run for hours or serve until stopped are parsed by the real
argument parser, and the players, games and models they name are checked to exist.
"""

from __future__ import annotations

import glob
import io
import json
import re
import runpy
import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import Field

import langgraph_games.cli.eval_cmd as eval_cmd
import langgraph_games.cli.study_cmd as study_cmd
import langgraph_games.eval.running.players as eval_players
import langgraph_games.models as models_package
import langgraph_games.models.factory as factory
from direction_support import direction_script
from langgraph_games.cli import build_parser, main
from langgraph_games.games import game_class, list_games
from langgraph_games.models import ModelUnavailableError, ScriptedChatModel
from langgraph_games.players import parse_spec

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_LEGAL = re.compile(r"moves: \[(.*?)\]")
INSTALL_COMMANDS = 2
"""The README's first two bash blocks install the package; CI runs them itself."""


def blocks(language: str) -> list[str]:
    """The README's fenced blocks of ``language`` ("" for a plain fence), in order."""
    return [body for lang, body in _FENCE.findall(README) if lang == language]


def commands() -> list[str]:
    """Every command the README shows, comments dropped, in order.

    The bash blocks after the install commands, and the ``$ `` lines of console
    transcripts (plain fences).
    """
    lines = [line for body in blocks("bash")[INSTALL_COMMANDS:] for line in body.splitlines()]
    lines += [
        normal(line[2:])
        for body in blocks("")
        for line in body.splitlines()
        if line.startswith("$ ")
    ]
    found = [normal(line) for line in lines]
    return [command for command in found if command]


def normal(line: str) -> str:
    """A command line in one spelling: its words, comments dropped, quoted as needed."""
    return shlex.join(shlex.split(line, comments=True))


def words_of(command: str) -> list[str]:
    """A README command's words after the program name (a Ray head's placeholder filled)."""
    words = shlex.split(command)
    assert words[0] == "langgraph-games", command
    return [word.replace("<head>:6379", "127.0.0.1:6379") for word in words[1:]]


def expanded(words: Sequence[str]) -> list[str]:
    """``words`` with shell globs expanded as the shell would (a glob that matches nothing
    stays as written)."""
    out: list[str] = []
    for word in words:
        matches = sorted(glob.glob(word)) if "*" in word else []
        out.extend(matches or [word])
    return out


# ---------------------------------------------------------------------------- the model


def first_legal_move(messages: Sequence[BaseMessage]) -> str:
    """A GAMEBoT answer with the first legal move the prompt lists; any other prompt (an
    EvoEmpirBench player, the Agent-ExpVer coach) gets the maze-training script's answer."""
    found = _LEGAL.findall(messages[-1].text)
    if not found:
        return direction_script(messages)
    legal = re.findall(r"'([^']+)'", found[-1])
    return f"[Intermediate Thinking Results 1: None]\nChosen Move: {legal[0]}"


class ConstrainableModel(ScriptedChatModel):
    """An endpoint that can be held to the legal moves (``response_format``): it answers
    with the first move the schema allows, as JSON."""

    model_kwargs: dict[str, Any] = Field(default_factory=dict)

    def _next(self, messages: Sequence[BaseMessage]) -> str | AIMessage:
        self.calls.append(list(messages))
        legal = self.model_kwargs["response_format"]["json_schema"]["schema"]["properties"]
        move = legal["move"]["enum"][0]
        return json.dumps({"reasoning": "[Intermediate Thinking Results 1: None]", "move": move})


def install_models(monkeypatch: pytest.MonkeyPatch, *, constrainable: bool = False) -> None:
    """Every model spec, from Python or from the command line, loads a scripted model."""

    def load(spec: str, **settings: Any) -> ScriptedChatModel:
        if constrainable:
            return ConstrainableModel(name_=spec)
        return ScriptedChatModel(script=first_legal_move, name_=spec)

    for module in (models_package, factory, eval_players, eval_cmd, study_cmd):
        monkeypatch.setattr(module, "load_chat_model", load)


@pytest.fixture
def scripted_models(monkeypatch: pytest.MonkeyPatch) -> None:
    install_models(monkeypatch)
    monkeypatch.delenv("LANGSMITH_API_KEY", raising=False)
    monkeypatch.delenv("LANGSMITH_TRACING", raising=False)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.chdir(tmp_path)
    yield tmp_path


# ---------------------------------------------------------------------------- snippets


def first_legal_move_typed(prompt: str) -> str:
    """A person at the terminal who types the first move the prompt shows."""
    return re.findall(r"\(\d,\d\)", prompt)[0]


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_every_python_snippet_runs_as_written(
    index: int, scripted_models: None, workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    snippet = blocks("python")[index]
    monkeypatch.setattr("builtins.input", first_legal_move_typed)
    path = workdir / f"snippet_{index}.py"
    path.write_text(snippet, encoding="utf-8")
    runpy.run_path(str(path), run_name="__main__")


# ---------------------------------------------------------------------------- commands

PARSED_ONLY = {
    "langgraph-games arena tictactoe --players gamebot:openai:gpt-4o-mini random": (
        "a real endpoint"
    ),
    "langgraph-games arena negotiation --players gamebot:openai:qwen2.5@http://localhost:8000/v1"
    " negotiator": "a real endpoint",
    "langgraph-games arena othello --players gamebot:anthropic:claude-sonnet-4-5 minimax"
    " --rate-limit 0.5": "a real endpoint",
    "langgraph-games arena connect4 --players gamebot:openai:gpt-4o-mini minimax --matches 200"
    " --concurrency 32": "a real endpoint, 200 matches",
    "langgraph-games arena connect4 --players gamebot:local minimax --executor ray"
    " --ray-address '<head>:6379'": "a Ray cluster",
    "langgraph-games serve --port 8765": "serves until stopped",
    "langgraph-games serve --opponents minimax gamebot:openai:gpt-4o-mini": "serves until stopped",
    "langgraph-games mcp": "serves until stopped",
    "langgraph-games mcp --transport http --port 8000": "serves until stopped",
}
"""README commands that are parsed and checked, not run, and why."""

TRANSCRIPT = [
    normal(line[2:]) for body in blocks("") for line in body.splitlines() if line.startswith("$ ")
]
"""The commands of the README's console transcript (the leaderboard example)."""

PAPER = r"""\section{Gameplay}
Trees give wood. A table needs wood: collect wood before you craft one.
"""
"""What ``study paper.tex`` reads: the README's paper is the user's own."""

CELLS = "".join(f"({row},{col})\n" for row in range(3) for col in range(3))
"""A person at the terminal who types every cell in turn (taken ones are asked again)."""


def is_cli(command: str) -> bool:
    return command.startswith("langgraph-games ")


def run_command(command: str, monkeypatch: pytest.MonkeyPatch, capsys) -> str:  # type: ignore[no-untyped-def]
    """Run a README command through ``main``; its standard output, after checking it
    exited 0. ``<hash>`` is the one the run before wrote (a glob finds it)."""
    install_models(monkeypatch, constrainable="constrain=true" in command)
    monkeypatch.setattr("sys.stdin", io.StringIO(CELLS))
    words = expanded([word.replace("<hash>", "*") for word in words_of(command)])
    code = main(words)
    out, err = capsys.readouterr()
    assert code == 0, f"{command} exited {code}: {err[-2000:]}"
    return out


def write_readme_files(folder: Path) -> list[str]:
    """The README's TOML examples, each written to the file its first line names."""
    names = []
    for body in blocks("toml"):
        name = body.splitlines()[0].removeprefix("# ").split(":")[0]
        (folder / name).write_text(body, encoding="utf-8")
        names.append(name)
    return names


def test_every_readme_command_is_run_parsed_or_checked() -> None:
    """A new command in the README is run by the test below unless listed here."""
    found = commands()
    assert not set(PARSED_ONLY) - set(found), "listed as parsed only but not in the README"
    assert TRANSCRIPT and all(command in found for command in TRANSCRIPT)
    assert any(is_cli(command) for command in found if command not in PARSED_ONLY)


def test_the_readme_commands_run_as_written(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Every command that needs neither an endpoint nor a server, in the README's order, in
    one folder (so report, replay, leaderboard and export read what the arenas wrote)."""
    assert write_readme_files(workdir) == ["arena.toml", "prices.toml"]
    (workdir / "paper.tex").write_text(PAPER, encoding="utf-8")
    outputs = {}
    for command in commands():
        if is_cli(command) and command not in PARSED_ONLY and command not in TRANSCRIPT:
            outputs[command] = run_command(command, monkeypatch, capsys)
    assert len(outputs) >= 20
    by_word = {command.split()[1]: out for command, out in outputs.items()}
    assert all(info.id in by_word["games"] for info in list_games())
    none = next(out for command, out in outputs.items() if "--protocol none" in command)
    assert "matches per pair 10 (paper: 20), re-asks 2 (paper: 0)" in none  # as its comment says
    labelled = next(out for command, out in outputs.items() if "--label cot=" in command)
    assert "| cot " in labelled
    assert "Result after" in outputs["langgraph-games play tictactoe --players human gamebot:local"]
    costed = outputs[next(c for c in outputs if "--prices prices.toml" in c)]
    assert "Prices: prices.toml and the shipped prices" in costed
    assert "gamebot:openai:gpt-4o-mini" in costed  # the players from arena.toml
    for made in (
        "runs/report",
        "runs/replays",
        "runs/decisions.csv",
        "ctx.txt",
        "runs/calls.sqlite",
    ):
        assert (workdir / made).exists(), made


def _table(text: str, heading: str) -> dict[str, list[str]]:
    """The rows of the first Markdown table after ``heading``, by their second cell."""
    rows = text.split(heading, 1)[1].split("\n\n", 2)[1].splitlines()[2:]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    return {row[1]: row for row in cells}


def test_the_leaderboard_transcript_prints_what_the_readme_shows(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    """The transcript's matches are seeded: the same counts and W-D-L come out."""
    *arenas, leaderboard = TRANSCRIPT
    for command in arenas:
        run_command(command, monkeypatch, capsys)
    out = run_command(leaderboard, monkeypatch, capsys)
    shown = next(body for body in blocks("") if body.startswith("$ "))
    heading = "leaderboard over 60 matches"
    assert heading in shown and heading in out
    printed, expected = _table(out, heading), _table(shown, heading)
    assert sorted(printed) == sorted(expected) == ["d1", "minimax", "random"]
    for player, row in expected.items():
        assert printed[player][2:4] == row[2:4], player  # matches, W-D-L


def _model_exists(spec: str) -> None:
    """Build the spec's model (offline: nothing is called), or accept the one-line refusal
    that names the provider package to install."""
    try:
        factory.load_chat_model(spec)
    except ModelUnavailableError as exc:
        assert "pip install" in str(exc), exc


@pytest.mark.parametrize("command", sorted(PARSED_ONLY))
def test_commands_not_run_parse_and_name_what_exists(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-readme-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-readme-test")
    words = words_of(command)
    args = build_parser(words[0]).parse_args(words)
    if getattr(args, "game", None):
        game_class(args.game)
    specs = list(getattr(args, "players", None) or []) + list(
        getattr(args, "opponents", None) or []
    )
    assert specs or args.command in ("mcp", "serve"), command
    for text in specs:
        spec = parse_spec(text)
        if spec.model:
            _model_exists(spec.model)


def test_other_tools_name_files_that_exist() -> None:
    """The README's commands of other tools (pip, ruff, the benchmarks): the scripts and
    extras they name exist."""
    others = [command for command in commands() if not is_cli(command)]
    assert others
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for command in others:
        for word in shlex.split(command):
            if word.endswith(".py"):
                assert (ROOT / word).is_file(), f"{command}: {word} does not exist"
            for extra in re.findall(r"\.\[([\w,]+)\]", word):
                for name in extra.split(","):
                    assert re.search(rf"^{name} = \[", pyproject, re.MULTILINE), name
            if word == "dev" or command == "langgraph dev":
                assert (ROOT / "langgraph.json").is_file() and "dev = [" in pyproject

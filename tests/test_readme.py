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
from langgraph_games.cli import build_parser, main
from langgraph_games.games import game_class
from langgraph_games.models import ScriptedChatModel
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
        line[2:] for body in blocks("") for line in body.splitlines() if line.startswith("$ ")
    ]
    found = [shlex.join(shlex.split(line, comments=True)) for line in lines]
    return [command for command in found if command]


def words_of(command: str) -> list[str]:
    """A README command's words after the program name, with placeholders filled in."""
    words = shlex.split(command)
    assert words[0] == "langgraph-games", command
    filled = {"<head>:6379": "127.0.0.1:6379", "<hash>": "0123abcd"}
    out = []
    for word in words[1:]:
        for placeholder, value in filled.items():
            word = word.replace(placeholder, value)
        out.append(word)
    return out


def expanded(words: Sequence[str]) -> list[str]:
    """``words`` with shell globs expanded as the shell would (a glob that matches nothing
    stays as written)."""
    out: list[str] = []
    for word in words:
        matches = sorted(glob.glob(word)) if "*" in word else []
        out.extend(matches or [word])
    return out


# ---------------------------------------------------------------------------- the model


class ReadmeModel(ScriptedChatModel):
    """Plays the first legal move: as listed in a GAMEBoT prompt, or as a JSON answer
    from the schema when the answer is constrained (an endpoint's ``response_format``)."""

    model_kwargs: dict[str, Any] = Field(default_factory=dict)

    def _next(self, messages: Sequence[BaseMessage]) -> str | AIMessage:
        self.calls.append(list(messages))
        schema = self.model_kwargs.get("response_format")
        if schema is not None:
            legal = schema["json_schema"]["schema"]["properties"]["move"]["enum"]
            return json.dumps(
                {"reasoning": "[Intermediate Thinking Results 1: None]", "move": legal[0]}
            )
        found = _LEGAL.findall(messages[-1].text)
        if not found:
            return "Action: 1"
        legal = re.findall(r"'([^']+)'", found[-1])
        return f"[Intermediate Thinking Results 1: None]\nChosen Move: {legal[0]}"


def load_readme_model(spec: str, **settings: Any) -> ReadmeModel:
    return ReadmeModel(name_=spec)


@pytest.fixture
def scripted_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every model spec, from Python or from the command line, loads a ReadmeModel."""
    for module in (models_package, factory, eval_players, eval_cmd, study_cmd):
        monkeypatch.setattr(module, "load_chat_model", load_readme_model)
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

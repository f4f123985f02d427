"""Every reader of model output, with what counts as a proper result of each.

A reader takes any text and must end in a parsed answer or a reported unusable one: an
action (or value) of the right type, or ``None`` / a parse status / a problem that says
why not. Each :class:`Reader` pairs the call with a check of that contract and, where
the reader has a final answer, an answer it reads (for the "text after the answer does
not change it" property).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph_games.games import list_games, make
from langgraph_games.games._answer import AnswerStatus, Reading
from langgraph_games.games._parsed import ParsedAnswer
from langgraph_games.games.match2.render import parse_match2_answer
from langgraph_games.games.matching import ActionRule, match_action
from langgraph_games.games.maze.parsing import parse_maze_answer
from langgraph_games.games.minesweeper.render import parse_triple
from langgraph_games.games.negotiation.rules import read_proposal
from langgraph_games.games.subproblems import (
    AnswerKind,
    Subproblem,
    extract_intermediate,
    parse_answer,
    score_answer,
)
from langgraph_games.graphs.eeb.graph import parse_eeb_reply
from langgraph_games.graphs.expver.lessons import read_typed_reflection, read_types
from langgraph_games.graphs.expver.prompts import Reflection, parse_reflection
from langgraph_games.graphs.gamebot.graph import parse_gamebot_reply
from langgraph_games.graphs.gamebot.released import RELEASED_GAMES
from langgraph_games.graphs.minesweeper.graph import (
    parse_minesweeper_reply,
    score_reported_cells,
)
from langgraph_games.graphs.smartplay.prompts import match_action as smartplay_match
from langgraph_games.graphs.study.documents import is_yes, merge_items, split_items
from langgraph_games.memory.meaning import lost_markers
from langgraph_games.memory.merge_prompts import normalize_text, parse_rewrite_reply
from langgraph_games.memory.relations import Meaning, read_relation
from langgraph_games.models.structured import read_json_object
from langgraph_games.players.base import Decision, ParseStatus

__all__ = ["READERS", "Reader"]


@dataclass(frozen=True)
class Reader:
    """A reader of model text and the contract its results keep.

    Attributes:
        name: Test id.
        read: The reader applied to a reply.
        check: Asserts that a result is a parsed answer or a reported unusable one.
        answer: A reply with a final answer this reader reads (``None``: no final answer,
            e.g. a yes/no test or a list splitter).
        answer_of: The answer part of a result (a decision also keeps the raw reply).
    """

    name: str
    read: Callable[[str], Any]
    check: Callable[[Any], None]
    answer: str | None = None
    answer_of: Callable[[Any], Any] = lambda result: result


def _optional_str(result: Any) -> None:
    assert result is None or isinstance(result, str), result


def _parsed(result: Any) -> None:
    assert isinstance(result, ParsedAnswer), result
    if result.action is None:
        assert isinstance(result.reason, str) and result.reason, result
    else:
        assert isinstance(result.action, str) and result.reason is None, result


def _reading(result: Any) -> None:
    assert isinstance(result, Reading), result
    if result.status is AnswerStatus.FOUND:
        assert isinstance(result.action, str) and result.named == (result.action,), result
    else:
        assert result.action is None and not result.legal, result
    if result.status is AnswerStatus.AMBIGUOUS:
        assert len(result.named) >= 2, result


def _decision_dict(result: Any) -> None:
    if isinstance(result, Decision):
        result = result.to_dict()
    assert isinstance(result, dict), result
    status = ParseStatus(result["status"])
    if status is ParseStatus.OK:
        assert isinstance(result["action"], str), result
    else:
        assert status in (ParseStatus.UNPARSABLE, ParseStatus.ILLEGAL, ParseStatus.AMBIGUOUS)
        assert isinstance(result["info"].get("problem"), str) and result["info"]["problem"]
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in result["intermediate"].items())
    assert all(len(text) <= 210_000 for text in result["raw_outputs"])


def _decision_answer(result: Any) -> Any:
    if isinstance(result, Decision):
        result = result.to_dict()
    return result["action"], result["status"], result["intermediate"]


def _triple(result: Any) -> None:
    action, status, info = result
    assert isinstance(status, ParseStatus), result
    if status is ParseStatus.OK:
        assert isinstance(action, str), result
    if action is None or status is not ParseStatus.OK:
        assert isinstance(info.get("problem"), str) and info["problem"], result


def _intermediate(result: Any) -> None:
    assert isinstance(result, dict), result
    assert all(isinstance(k, int) and 0 <= k < 10_000 for k in result), result
    assert all(isinstance(v, str) for v in result.values()), result


def _proposal(result: Any) -> None:
    if result is not None:
        assert len(result) == 6 and all(0 <= n <= 999_999 for n in result), result


def _bool(result: Any) -> None:
    assert isinstance(result, bool), result


def _str_list(result: Any) -> None:
    assert isinstance(result, list) and all(isinstance(x, str) for x in result), result


def _reflection(result: Any) -> None:
    assert isinstance(result, Reflection), result
    assert result.usable or (isinstance(result.problem, str) and result.problem), result


def _typed_reflection(result: Any) -> None:
    if result is None:
        return
    assert isinstance(result, Reflection) and result.typed, result
    assert result.usable or (isinstance(result.problem, str) and result.problem), result
    assert all(x.kind in ("advice", "observation") and len(x.text) >= 8 for x in result.lessons)


def _types(result: Any) -> None:
    assert result is None or (len(result) == 2 and set(result) <= {"advice", "observation"})


def _relation(result: Any) -> None:
    meaning, reason = result
    assert isinstance(reason, str), result
    if meaning is None:
        assert reason.startswith("unresolved"), result
    else:
        assert isinstance(meaning, Meaning), result


def _json_object(result: Any) -> None:
    data, problem = result
    assert (data is not None) == (problem == "ok"), result
    assert data is None or isinstance(data, dict), result


def _rewrite(result: Any) -> None:
    assert result is None or (result and all(isinstance(x, str) for x in result)), result


def _answer_value(sub: Subproblem) -> Callable[[Any], None]:
    kinds: dict[AnswerKind, tuple[type, ...]] = {
        AnswerKind.SET: (frozenset,),
        AnswerKind.BOOL: (bool,),
        AnswerKind.NUMBER: (float,),
        AnswerKind.LABEL: (str,),
        AnswerKind.MAPPING: (tuple,),
    }

    def check(result: Any) -> None:
        assert result is None or isinstance(result, kinds[sub.kind]), result
        if isinstance(result, float):
            assert abs(result) < 1e19, result  # a bounded number, never inf or nan

    return check


def _in(options: Any) -> Callable[[Any], None]:
    def check(result: Any) -> None:
        assert result is None or result in options, result

    return check


_ANSWERS = {  # answers in the format of the game's paper, where an action is not one
    "maze": "Action: 0",
    "match2": '{"action": {"type": "eliminate", "pos": [0, 0]}}',
}


def _game_readers() -> list[Reader]:
    readers = []
    for info in list_games():
        game = make(info.id)
        state = game.initial_state(0)
        player = game.current_players(state)[0]
        legal = game.legal_actions(state, player)
        label = (game.answer_labels or ("Chosen Move",))[0]
        answer = _ANSWERS.get(info.id, f"{label}: {legal[0]}" if game.answer_labels else legal[0])

        def parse(text: str, g: Any = game, s: Any = state, p: int = player) -> Any:
            return g.parse_action(s, p, text)

        readers.append(Reader(f"{info.id}.parse_action", parse, _in(legal), answer))

        def read(text: str, g: Any = game, s: Any = state, p: int = player) -> Any:
            return g.read_action(s, p, text)

        readers.append(Reader(f"{info.id}.read_action", read, _reading, answer))

        def gamebot(text: str, g: Any = game, s: Any = state, p: int = player) -> Any:
            return parse_gamebot_reply(g, s, p, text)

        readers.append(
            Reader(f"{info.id}.gamebot", gamebot, _decision_dict, answer, _decision_answer)
        )
        if info.id in RELEASED_GAMES:

            def released(text: str, g: Any = game, s: Any = state, p: int = player) -> Any:
                return parse_gamebot_reply(g, s, p, text, reader="released")

            readers.append(
                Reader(
                    f"{info.id}.gamebot_released",
                    released,
                    _decision_dict,
                    answer,
                    _decision_answer,
                )
            )
        for sub in game.subproblems:

            def value(text: str, sub: Subproblem = sub) -> Any:
                return parse_answer(sub, text)

            name = f"{info.id}.answer{sub.index}"
            readers.append(Reader(name, value, _answer_value(sub)))
    return readers


def _score(text: str) -> Any:
    sub = make("tictactoe").subproblems[0]
    score = score_answer(sub, text, frozenset({"(0,0)"}))
    assert 0.0 <= score.value <= 1.0
    return score


_MAZE = make("maze")
_MATCH2 = make("match2")
_MINES = make("minesweeper")
_CRAFTER_ACTIONS = ("Noop", "Move West", "Move East", "Do", "Sleep", "Place Table")
_RPS = ("Rock", "Paper", "Scissor")

READERS: list[Reader] = [
    *_game_readers(),
    Reader(
        "extract_intermediate",
        extract_intermediate,
        _intermediate,
        "[Intermediate Thinking Results 1: (0,1), (2,2)]",
    ),
    Reader("score_answer", _score, lambda r: None),
    Reader("maze.first", parse_maze_answer, _parsed, "Moving right. Action: 9"),
    Reader("maze.last", lambda t: parse_maze_answer(t, pick="last"), _parsed),
    Reader(
        "match2.bare",
        parse_match2_answer,
        _parsed,
        '{"action": {"type": "eliminate", "pos": [4, 3]}}',
    ),
    Reader(
        "match2.fence",
        lambda t: parse_match2_answer(t, require_fence=True),
        _parsed,
        '```json\n{"action": {"type": "row", "index": 2}}\n```',
    ),
    Reader("match2.last", lambda t: parse_match2_answer(t, pick="last"), _parsed),
    Reader("minesweeper.triple", lambda t: parse_triple(t, 9, 9), _parsed, "so r,4,4"),
    Reader("negotiation.proposal", read_proposal, _proposal),
    Reader(
        "eeb.maze",
        lambda t: parse_eeb_reply(_MAZE, _MAZE.initial_state(0), t),
        _triple,
        "Action: 9",
    ),
    Reader(
        "eeb.match2",
        lambda t: parse_eeb_reply(_MATCH2, _MATCH2.initial_state(0), t),
        _triple,
        '{"action": {"type": "eliminate", "pos": [4, 3]}}',
    ),
    Reader(
        "minesweeper.reply",
        lambda t: parse_minesweeper_reply(_MINES, _MINES.initial_state(0), t),
        _triple,
        "r,4,4",
    ),
    Reader(
        "minesweeper.cells",
        lambda t: score_reported_cells(_MINES, _MINES.initial_state(0), t),
        lambda r: _intermediate(r[0]),
    ),
    *(
        Reader(
            f"match_action.{rule.value}",
            lambda t, rule=rule: match_action(t, _CRAFTER_ACTIONS, rule),
            _in(_CRAFTER_ACTIONS),
            "Place Table",
        )
        for rule in ActionRule
    ),
    Reader(
        "smartplay.match",
        lambda t: smartplay_match(t, _RPS, default=None),
        _in(range(len(_RPS))),
        "Paper",
    ),
    Reader("expver.reflection", parse_reflection, _reflection),
    Reader("expver.typed_reflection", read_typed_reflection, _typed_reflection),
    Reader("expver.types", lambda t: read_types(t, 2), _types),
    Reader(
        "truths.relation",
        read_relation,
        _relation,
        '{"relation": "same", "reason": "x"}',
        lambda result: result[0],
    ),
    Reader("json_object", read_json_object, _json_object),
    Reader("truths.rewrite", parse_rewrite_reply, _rewrite),
    Reader("truths.normalize", normalize_text, lambda r: _optional_str(r)),
    Reader("truths.lost_markers", lambda t: lost_markers(t, ["Never hit 2 walls."]), _str_list),
    Reader("study.split_items", split_items, _str_list),
    Reader("study.merge_items", lambda t: merge_items([t, t]), _str_list),
    Reader("study.is_yes", is_yes, _bool),
]
"""Every reader of model output, each with its contract."""

"""The one player spec syntax, the one registry and their typed errors."""

from __future__ import annotations

from typing import Any

import pytest

import langgraph_games  # noqa: F401 - completes the registry with the LLM strategies
from langgraph_games.games import GameSession, make
from langgraph_games.graphs.spring.graph import SpringVariant
from langgraph_games.models import ScriptedChatModel
from langgraph_games.players import (
    NoSettings,
    PlayerEntry,
    PlayerRegistry,
    PlayerSettingError,
    PlayerSpec,
    PlayerSpecError,
    UnknownPlayerError,
    complete_model,
    format_value,
    make_player,
    parse_spec,
    player_entries,
    player_entry,
    request_for,
    split_spec,
)

SAME_PLAYER = [
    ("MINIMAX:depth=3", "minimax:depth=3"),
    ("gamebot:local", "gamebot:local"),
    ("gamebot:variant=cot:reader=rule:local", "gamebot:reader=rule:variant=cot:local"),
]


@pytest.mark.parametrize(("one", "other"), SAME_PLAYER)
def test_two_spellings_of_one_player_parse_to_the_same_spec(one: str, other: str) -> None:
    before, after = parse_spec(one), parse_spec(other)
    assert before == after
    assert (before.text, after.text) == (one, other)  # the spelling is kept, not compared
    assert before.canonical == after.canonical == other


RENAMED = [
    ("gamebot_action", "gamebot:variant=action_only"),
    ("gamebot_cot", "gamebot:variant=cot"),
    ("gamebot_reasoning", "gamebot:variant=reasoning"),
    ("ms_baseline", "minesweeper:variant=baseline"),
    ("ms_examples", "minesweeper:variant=examples"),
    ("ms_step_back", "minesweeper:variant=step_back"),
    ("ms_tips", "minesweeper:variant=tips"),
    ("ms_memory", "minesweeper:variant=memory"),
    ("ms_cells", "minesweeper:variant=cells"),
    ("smartplay_paper", "smartplay:question=paper"),
    ("spring_actions", "spring:variant=actions"),
    ("spring_no_context", "spring:variant=no_context"),
    ("spring_step_by_step", "spring:variant=step_by_step"),
    ("spring_no_dag", "spring:variant=no_dag"),
    ("spring_action_only", "spring:variant=action_only"),
]


@pytest.mark.parametrize(("former", "current"), RENAMED)
def test_a_former_name_is_refused_with_its_current_spelling(former: str, current: str) -> None:
    with pytest.raises(UnknownPlayerError) as caught:
        parse_spec(former)
    assert str(caught.value) == f"Unknown player {former!r}: renamed to {current!r}"
    assert caught.value.name == former
    with pytest.raises(UnknownPlayerError) as in_spec:  # with a model part too, on one line
        parse_spec(f"{former.upper()}:local")
    message = str(in_spec.value)
    assert message == (
        f"Unknown player {former!r} (in '{former.upper()}:local'): renamed to {current!r}"
    )
    assert "\n" not in message and "Accepted players" not in message
    assert parse_spec(f"{current}:local").canonical == f"{current}:local"  # the new one works


def test_every_former_name_is_known_and_no_other_name_is_refused_as_renamed() -> None:
    formers = {former for entry in player_entries() for former in entry.renamed}
    assert formers == {former for former, _ in RENAMED}
    for near in ("ms_memor", "gamebot_", "spring_full", "smartplay_code"):
        with pytest.raises(UnknownPlayerError, match="Accepted players:") as caught:
            parse_spec(near)
        assert "renamed" not in str(caught.value)


def test_the_parse_table() -> None:
    table: dict[str, PlayerSpec] = {
        "minimax:depth=3:seed=1": PlayerSpec("minimax", {"depth": 3, "seed": 1}),
        "random": PlayerSpec("random"),
        "gamebot": PlayerSpec("gamebot"),
        "gamebot:openai:gpt-4o@http://host:8000/v1": PlayerSpec(
            "gamebot", {}, "openai:gpt-4o@http://host:8000/v1"
        ),
        "spring:variant=no_dag:local": PlayerSpec(
            "spring", {"variant": SpringVariant.NO_DAG}, "local"
        ),
        "spring:history_window=3:local": PlayerSpec("spring", {"history_window": 3}, "local"),
        "pong_tracker:aim=false": PlayerSpec("pong_tracker", {"aim": False}),
        "smartplay:question=paper:history_length=4": PlayerSpec(
            "smartplay", {"question": "paper", "history_length": 4}
        ),
        "eeb:": PlayerSpec("eeb"),  # an empty model part is no model
    }
    for text, expected in table.items():
        assert parse_spec(text) == expected, text


def test_a_model_spec_may_hold_colons_and_equals_signs() -> None:
    # Settings stop at the first part without '=': the model's kind, which never has one.
    assert split_spec("gamebot:variant=cot:openai:m@http://h:1/v1?key=a=b") == (
        "gamebot",
        [("variant", "cot")],
        "openai:m@http://h:1/v1?key=a=b",
    )
    assert split_spec("eeb:local:/models/x=y.gguf") == ("eeb", [], "local:/models/x=y.gguf")
    # A setting after the model is part of the model spec (the rule: settings first).
    assert parse_spec("gamebot:local:variant=cot").model == "local:variant=cot"
    assert split_spec("spring:context=a=b") == ("spring", [("context", "a=b")], None)


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("gpt4", UnknownPlayerError, r"Unknown player 'gpt4'\. Accepted players: .*'minimax\["),
        ("gpt4:local", UnknownPlayerError, r"Unknown player 'gpt4' \(in 'gpt4:local'\).*gamebot"),
        ("", PlayerSpecError, r"has no name; the form is name\[:key=value\.\.\.\]"),
        ("minimax:width=3", PlayerSettingError, r"'minimax' has no setting 'width'.*depth \(int"),
        ("minimax:depth=x", PlayerSettingError, r"depth='x' must be int"),
        ("minimax:3", PlayerSettingError, r"'3' is not key=value, and 'minimax' plays without"),
        ("random:local", PlayerSettingError, r"'local' is not key=value.*random\[:seed=<int>\]"),
        ("maze_explorer:fast=1", PlayerSettingError, r"'maze_explorer' takes no settings"),
        ("minimax:=3", PlayerSettingError, r"setting '=3' has no name"),
        ("minimax:depth=2:depth=3", PlayerSettingError, r"depth is given twice"),
        (
            "gamebot:variant=fast",
            PlayerSettingError,
            r"variant='fast' must be one of gamebot, action_only, cot, reasoning",
        ),
        ("pong_tracker:aim=maybe", PlayerSettingError, r"aim='maybe' must be true or false"),
        ("spring:history_window=0", PlayerSettingError, r"history_window='0' must be int"),
    ],
)
def test_each_bad_spec_gets_its_typed_error(
    spec: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as caught:
        parse_spec(spec)
    assert type(caught.value) is error  # the most precise class, not only the base


def test_errors_from_building_are_typed_too() -> None:
    with pytest.raises(PlayerSettingError, match="late <= floor <= start"):
        make_player("negotiator:start=10:floor=20")
    with pytest.raises(PlayerSpecError, match="'gamebot' is an LLM strategy and needs a chat"):
        make_player("gamebot:local", make("tictactoe"))
    with pytest.raises(PlayerSpecError, match="'minimax' plays without a model"):
        make_player("minimax", model=ScriptedChatModel())
    with pytest.raises(PlayerSettingError, match="already sets depth"):
        make_player("minimax:depth=2", settings={"depth": 3})
    with pytest.raises(PlayerSettingError, match="'random' has no setting 'context'"):
        make_player("random", settings={"context": "x"})


def test_every_entry_is_listed_in_unknown_player_errors() -> None:
    with pytest.raises(UnknownPlayerError) as caught:
        parse_spec("nobody")
    text = str(caught.value)
    for entry in player_entries():
        assert f"'{entry.form()}'" in text
    assert "<model>: 'local'" in text
    assert "gamebot_cot" not in text  # former names are not offered


def _game_for(entry: PlayerEntry) -> str:
    return entry.games[0] if entry.games else "tictactoe"


def _model() -> ScriptedChatModel:
    return ScriptedChatModel(script=lambda messages: "I am not sure.")


@pytest.mark.parametrize("name", [e.name for e in player_entries()])
async def test_every_entry_builds_and_decides_for_a_game_it_plays(name: str) -> None:
    entry = player_entry(name)
    game = make(_game_for(entry))
    model = _model() if entry.needs_model else None
    player = make_player(name, game, model=model, seed=3)
    assert player.name == name
    if player.interactive:  # asks a person through an interrupt: only inside a graph run
        with pytest.raises(RuntimeError, match="only inside a graph run"):
            await player.adecide(request_for(GameSession(game, seed=1)))
        return
    decision = await player.adecide(request_for(GameSession(game, seed=1)))
    assert decision.status is not None
    if model is not None:
        assert model.calls, f"{name} did not call its model"
    if "seed" in entry.settings.model_fields:
        assert player.describe()["seed"] == 3  # the caller's seed fills an unset seed


@pytest.mark.parametrize(("former", "current"), RENAMED)
def test_a_current_spelling_builds_the_player_of_its_settings(former: str, current: str) -> None:
    entry = player_entry(current.split(":")[0])
    game = make(_game_for(entry))
    player = make_player(current, game, model=_model())
    plain = make_player(entry.name, game, model=_model())
    assert player.name == current  # results tables keep the spelling given
    fields = entry.settings.model_fields
    changes = any(
        format_value(value) != format_value(fields[key].default)
        for key, value in entry.renamed[former].items()
    )
    assert (player.describe() != plain.describe()) == changes


def test_complete_model_adds_the_model_to_llm_specs_without_one() -> None:
    assert complete_model("spring", "local") == "spring:local"
    assert complete_model("gamebot:variant=cot", "openai:m") == "gamebot:variant=cot:openai:m"
    assert complete_model("gamebot:openai:m", "local") == "gamebot:openai:m"
    assert complete_model("maze_explorer", "local") == "maze_explorer"
    assert complete_model("spring", None) == "spring"
    with pytest.raises(UnknownPlayerError):
        complete_model("nobody", "local")


def test_a_registry_refuses_clashing_names_and_bad_former_names() -> None:
    players = PlayerRegistry()

    def build(request: Any) -> Any:
        return make_player("random")

    players.register(PlayerEntry("mine", build, "a test player"))
    with pytest.raises(ValueError, match="'mine' is already registered"):
        players.register(PlayerEntry("mine", build, "again"))
    with pytest.raises(ValueError, match="must be lower case"):
        players.register(PlayerEntry("Mine:2", build, "bad name"))
    with pytest.raises(PlayerSettingError, match="takes no settings"):
        players.register(PlayerEntry("other", build, "x", NoSettings, renamed={"o": {"k": 1}}))
    players.register(PlayerEntry("new", build, "x", renamed={"old": {}}))
    with pytest.raises(ValueError, match="'old' is already registered"):
        players.register(PlayerEntry("old", build, "a name still given as former"))
    with pytest.raises(UnknownPlayerError, match=r"^Unknown player 'old': renamed to 'new'$"):
        players.parse("old")
    players.unregister("new")
    with pytest.raises(UnknownPlayerError, match="Accepted players"):
        players.parse("old")  # gone with its entry
    players.register(PlayerEntry("mine", build, "replaced"), replace=True)
    assert players.entry("mine").description == "replaced"
    copy = players.copy()
    copy.unregister("mine")
    assert players.names() == ["mine"] and copy.names() == []
    with pytest.raises(UnknownPlayerError, match="Unknown player 'mine'"):
        copy.parse("mine")

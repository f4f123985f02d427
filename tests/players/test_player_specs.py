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

OLD_AND_NEW = [
    ("gamebot_cot:openai:gpt-4o", "gamebot:variant=cot:openai:gpt-4o"),
    ("gamebot_action:local", "gamebot:variant=action_only:local"),
    ("gamebot_reasoning", "gamebot:variant=reasoning"),
    ("spring_no_dag", "spring:variant=no_dag"),
    ("spring_step_by_step:local", "spring:variant=step_by_step:local"),
    ("smartplay_paper:local", "smartplay:question=paper:local"),
    ("ms_memory", "minesweeper:variant=memory"),
    ("ms_cells:local", "minesweeper:variant=cells:local"),
    ("MINIMAX:depth=3", "minimax:depth=3"),
    ("gamebot:local", "gamebot:local"),
]


@pytest.mark.parametrize(("old", "new"), OLD_AND_NEW)
def test_old_and_new_spellings_parse_to_the_same_spec(old: str, new: str) -> None:
    before, after = parse_spec(old), parse_spec(new)
    assert before == after
    assert (before.text, after.text) == (old, new)  # the spelling is kept, not compared
    assert before.canonical == after.canonical == new


def test_the_parse_table() -> None:
    table: dict[str, PlayerSpec] = {
        "minimax:depth=3:seed=1": PlayerSpec("minimax", {"depth": 3, "seed": 1}),
        "random": PlayerSpec("random"),
        "gamebot": PlayerSpec("gamebot"),
        "gamebot:openai:gpt-4o@http://host:8000/v1": PlayerSpec(
            "gamebot", {}, "openai:gpt-4o@http://host:8000/v1"
        ),
        "spring_no_dag:local": PlayerSpec("spring", {"variant": SpringVariant.NO_DAG}, "local"),
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
        ("gamebot_cot:variant=cot", PlayerSettingError, r"the name 'gamebot_cot' sets variant"),
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


def test_every_entry_and_older_name_is_listed_in_unknown_player_errors() -> None:
    with pytest.raises(UnknownPlayerError) as caught:
        parse_spec("nobody")
    text = str(caught.value)
    for entry in player_entries():
        assert f"'{entry.form()}'" in text
        for alias in entry.aliases:
            assert f"{alias} = {entry.name}:" in text
    assert "<model>: 'local'" in text


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


@pytest.mark.parametrize(
    ("alias", "name"), [(a, e.name) for e in player_entries() for a in e.aliases]
)
def test_an_older_name_builds_the_player_of_its_settings(alias: str, name: str) -> None:
    entry = player_entry(name)
    game = make(_game_for(entry))
    implied = ":".join(f"{k}={v}" for k, v in entry.aliases[alias].items())
    old = make_player(alias, game, model=_model())
    new = make_player(f"{name}:{implied}", game, model=_model())
    plain = make_player(name, game, model=_model())
    assert old.name == alias  # results tables keep the older name
    assert old.describe() == new.describe()
    fields = entry.settings.model_fields
    changes = any(
        format_value(value) != format_value(fields[key].default)
        for key, value in entry.aliases[alias].items()
    )
    assert (old.describe() != plain.describe()) == changes


def test_complete_model_adds_the_model_to_llm_specs_without_one() -> None:
    assert complete_model("spring", "local") == "spring:local"
    assert complete_model("gamebot:variant=cot", "openai:m") == "gamebot:variant=cot:openai:m"
    assert complete_model("gamebot:openai:m", "local") == "gamebot:openai:m"
    assert complete_model("maze_explorer", "local") == "maze_explorer"
    assert complete_model("spring", None) == "spring"
    with pytest.raises(UnknownPlayerError):
        complete_model("nobody", "local")


def test_a_registry_refuses_clashing_names_and_bad_aliases() -> None:
    players = PlayerRegistry()

    def build(request: Any) -> Any:
        return make_player("random")

    players.register(PlayerEntry("mine", build, "a test player"))
    with pytest.raises(ValueError, match="'mine' is already registered"):
        players.register(PlayerEntry("mine", build, "again"))
    with pytest.raises(ValueError, match="must be lower case"):
        players.register(PlayerEntry("Mine:2", build, "bad name"))
    with pytest.raises(PlayerSettingError, match="takes no settings"):
        players.register(PlayerEntry("other", build, "x", NoSettings, aliases={"o": {"k": 1}}))
    players.register(PlayerEntry("mine", build, "replaced"), replace=True)
    assert players.entry("mine").description == "replaced"
    copy = players.copy()
    copy.unregister("mine")
    assert players.names() == ["mine"] and copy.names() == []
    with pytest.raises(UnknownPlayerError, match="Unknown player 'mine'"):
        copy.parse("mine")

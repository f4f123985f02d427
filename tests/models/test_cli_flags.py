"""The CLI's model flags: --rate-limit and --max-retry-wait become the endpoints' settings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from langgraph_games.cli import build_parser, main
from langgraph_games.cli._limits import apply_endpoint_limits, parse_rate_limits
from langgraph_games.cli._options import model_settings
from langgraph_games.models import describe_model, load_chat_model
from langgraph_games.models.ratelimit import default_limits, set_default_limits


@pytest.fixture(autouse=True)
def clean_defaults() -> Iterator[None]:
    set_default_limits()
    yield
    set_default_limits()


def test_rate_limit_values() -> None:
    assert parse_rate_limits(None) is None
    assert parse_rate_limits(["2"]) == 2.0
    assert parse_rate_limits(["openai:m@http://h:1/v1=3", "0.5"]) == {
        "openai:m@http://h:1/v1": 3.0,
        "*": 0.5,
    }
    for bad, message in (
        (["0"], "requests per second > 0"),
        (["fast"], "requests per second > 0"),
        (["local=inf"], "requests per second > 0"),
        (["=2"], "name a model spec"),
        (["1", "2"], "gives '\\*' twice"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_rate_limits(bad)


def test_the_flags_set_every_model_built_in_the_run() -> None:
    args = build_parser().parse_args(
        [
            "play",
            "tictactoe",
            "--rate-limit",
            "4",
            "--rate-limit",
            "local:/models/cli-other.gguf=0.25",
            "--max-retry-wait",
            "15",
        ]
    )
    # Not part of the run's model settings (nor of its spec hash): how fast, not what.
    assert model_settings(args) == {}
    apply_endpoint_limits(args)
    assert default_limits() == ({"*": 4.0, "local:/models/cli-other.gguf": 0.25}, 15.0)
    described = describe_model(load_chat_model("local:/models/cli-other.gguf"))
    assert described["rate_limit_rps"] == 0.25 and described["max_retry_wait_s"] == 15.0
    # (Other paths than the bundled model's, so no other test meets these rates.)
    assert describe_model(load_chat_model("local:/models/cli-third.gguf"))["rate_limit_rps"] == 4.0
    # A model's own setting wins over the run's.
    mine = load_chat_model("local:/models/cli-fourth.gguf", rate_limit=8)
    assert describe_model(mine)["rate_limit_rps"] == 8.0


def test_bad_flags_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "tictactoe", "--rate-limit", "many"]) == 2
    assert "--rate-limit 'many'" in capsys.readouterr().err
    assert main(["play", "tictactoe", "--max-retry-wait", "-1"]) == 2
    assert "--max-retry-wait is a number of seconds >= 0" in capsys.readouterr().err

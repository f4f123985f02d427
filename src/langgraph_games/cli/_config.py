"""``--config FILE``: a command's options from a TOML (or YAML) file, the flags winning.

The file is one table whose keys are the command's long option names, with dashes or
underscores (``matches = 20``, ``max-steps = 40``, ``players = ["gamebot:local",
"random"]``, ``no-swap = true``). Each key the command line does not give becomes that
flag, so it is checked exactly as the flag would be (types, choices, bounds); a flag on
the command line wins over the file's key. Positional arguments (a game id, files) stay on
the command line. A repeatable flag (``--rate-limit``, ``--option``) takes a list.

TOML is read with the standard library (``tomli`` on Python 3.10); YAML (``.yaml``/``.yml``)
when PyYAML is installed. A missing or unreadable file,
one that does not parse, a key the command does not have (the accepted ones are listed) or
a value of the wrong kind is one line naming the file and what was wrong.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path

from langgraph_games._settings_files import parse_toml, read_settings_text

__all__ = ["CONFIG_FLAG", "ConfigError", "add_config_flag", "config_words", "read_config"]

CONFIG_FLAG = "--config"

_SKIPPED = {"help", "config", "version"}


class ConfigError(ValueError):
    """A configuration file that cannot be used (one line: the file and why)."""


def add_config_flag(parser: argparse.ArgumentParser) -> None:
    """Give a sub-command's parser ``--config FILE`` (read by :func:`config_words`)."""
    parser.add_argument(
        CONFIG_FLAG,
        metavar="FILE",
        default=None,
        help="read options from a TOML file (YAML with PyYAML installed): keys are the "
        "long option names (matches = 20, max-steps = 40); flags given here win",
    )


def read_config(path: str) -> dict[str, object]:
    """The table a configuration file holds.

    Raises:
        ConfigError: The file is missing, unreadable, not TOML/YAML, or not one table.
    """
    where = f"{CONFIG_FLAG} {path}"
    try:
        text = read_settings_text(path, where)
        yaml_file = Path(path).suffix.lower() in (".yaml", ".yml")
        data = _yaml(text, where) if yaml_file else parse_toml(text, where)
    except ConfigError:
        raise
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must hold one table of options, got {type(data).__name__}")
    return data


def _yaml(text: str, where: str) -> object:
    try:
        import yaml  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ConfigError(
            f"{where}: reading YAML needs PyYAML (pip install pyyaml); or write the file in TOML"
        ) from None
    try:
        return yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "unreadable"
        raise ConfigError(f"{where}: not valid YAML ({first})") from None


def _options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The parser's optional actions by long option name without dashes (``max-steps``)."""
    found: dict[str, argparse.Action] = {}
    for action in parser._actions:
        if action.dest in _SKIPPED or not action.option_strings:
            continue
        for option in action.option_strings:
            if option.startswith("--"):
                found.setdefault(option[2:], action)
    return found


def _given(parser: argparse.ArgumentParser, words: Sequence[str]) -> set[str]:
    """The destinations of the options ``words`` give (abbreviations included)."""
    table = parser._option_string_actions
    given: set[str] = set()
    for word in words:
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            continue
        name = word.split("=", 1)[0]
        action = table.get(name)
        if action is None and name.startswith("--"):
            candidates = {id(a): a for option, a in table.items() if option.startswith(name)}
            action = next(iter(candidates.values())) if len(candidates) == 1 else None
        if action is not None:
            given.add(action.dest)
    return given


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _words(key: str, action: argparse.Action, value: object, where: str) -> list[str]:
    """The flag words that say what ``key = value`` says."""
    flag = action.option_strings[-1] if action.option_strings[-1].startswith("--") else f"--{key}"
    if action.nargs == 0:  # store_true, store_false, store_const
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {key} is true or false, got {value!r}")
        return [flag] if value else []
    if isinstance(value, Mapping):
        raise ConfigError(f"{where}: {key} takes a value or a list, not a table")
    items = list(value) if isinstance(value, list) else [value]
    if any(isinstance(item, (Mapping, list)) for item in items):
        raise ConfigError(f"{where}: {key} takes plain values, got {value!r}")
    if isinstance(action, argparse._AppendAction):
        return [f"{flag}={_text(item)}" for item in items]
    if action.nargs in ("+", "*") or isinstance(action.nargs, int):
        return [flag, *(_text(item) for item in items)]
    if isinstance(value, list):
        raise ConfigError(f"{where}: {key} takes one value, got a list")
    return [f"{flag}={_text(value)}"]


def config_words(
    parser: argparse.ArgumentParser, words: Sequence[str], path: str, command: str
) -> list[str]:
    """``words`` (a command's own arguments) with the options of ``path`` added.

    Args:
        parser: The command's parser.
        words: The arguments after the command's name, as given.
        path: The configuration file.
        command: The command's name, for messages.

    Returns:
        The arguments to parse: ``words`` then, for each key of the file that ``words``
        do not give, its flag (before a ``--`` if there is one).

    Raises:
        ConfigError: A bad file, an unknown key, or a value of the wrong kind.
    """
    table = read_config(path)
    options = _options(parser)
    given = _given(parser, words)
    where = f"--config {path}"
    added: list[str] = []
    for raw_key, value in table.items():
        key = str(raw_key).strip().replace("_", "-")
        action = options.get(key)
        if action is None:
            accepted = ", ".join(sorted(options))
            raise ConfigError(f"{where}: {command} has no option {raw_key!r}; accepted: {accepted}")
        if action.dest not in given:
            added += _words(key, action, value, where)
    words = list(words)
    cut = words.index("--") if "--" in words else len(words)
    return [*words[:cut], *added, *words[cut:]]

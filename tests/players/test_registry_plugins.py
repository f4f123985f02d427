"""The player registry imports the strategy families' registration modules on first need."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from langgraph_games.players.registry import PlayerRegistry, UnknownPlayerError, strategy_modules


def test_import_langgraph_games_loads_no_strategy_until_a_lookup() -> None:
    code = textwrap.dedent(
        """
        import sys
        import langgraph_games
        from langgraph_games.players.registry import player_entry
        before = sorted(m for m in sys.modules if m == "langgraph" or ".registration" in m)
        entry = player_entry("gamebot")
        after = "langgraph_games.graphs.gamebot.registration" in sys.modules
        print(before, entry.name, after, langgraph_games.graphs.run_episode.__name__)
        """
    )
    src = str(Path(__import__("langgraph_games").__file__).parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": src, "PATH": ""},
    )
    assert done.stdout.split() == ["[]", "gamebot", "True", "run_episode"]


def test_strategy_modules_name_every_family_with_a_registration() -> None:
    names = strategy_modules()
    assert "langgraph_games.graphs.gamebot.registration" in names
    assert "langgraph_games.graphs.spring.registration" in names
    assert all(n.endswith(".registration") for n in names)
    assert not any(".common." in n or ".episode." in n for n in names)


def test_a_plugin_module_is_imported_on_the_first_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry = PlayerRegistry()
    (tmp_path / "toy_plugin_s19.py").write_text(
        "import dataclasses\n"
        "import toy_target_s19\n"
        "from langgraph_games.players.registry import PLAYERS\n"
        "entry = dataclasses.replace(PLAYERS.entry('random'), name='toyplayer', renamed={})\n"
        "toy_target_s19.REGISTRY.register(entry)\n"
    )
    (tmp_path / "toy_target_s19.py").write_text("REGISTRY = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import toy_target_s19

    monkeypatch.setattr(toy_target_s19, "REGISTRY", registry, raising=False)
    registry.add_plugins(["toy_plugin_s19"])
    assert "toy_plugin_s19" not in sys.modules
    assert registry.entry("toyplayer").name == "toyplayer"
    assert "toy_plugin_s19" in sys.modules
    with pytest.raises(UnknownPlayerError, match="Unknown player 'nobody'"):
        registry.entry("nobody")

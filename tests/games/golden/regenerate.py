"""Regenerate the golden playthroughs: ``python tests/games/golden/regenerate.py``.

Run it after an intended change to a game's rules or views, read the diff, commit it.
"""

from __future__ import annotations

from pathlib import Path

from langgraph_games.games import list_games
from langgraph_games.testing import playthrough

HERE = Path(__file__).parent
SEEDS = (0,)


def golden_path(game_id: str, seed: int) -> Path:
    return HERE / f"{game_id}-seed{seed}.txt"


def main() -> None:
    for info in list_games():
        for seed in SEEDS:
            path = golden_path(info.versioned_id, seed)
            path.write_text(playthrough(info.versioned_id, seed=seed), encoding="utf-8")
            print(f"wrote {path.relative_to(HERE.parent.parent.parent)}")


if __name__ == "__main__":
    main()

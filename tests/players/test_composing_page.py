"""Every example of docs/composing.md runs, offline, with its own assertions."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "composing.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_its_five_examples() -> None:
    assert len(BLOCKS) == 5


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index: int, tmp_path: Path) -> None:
    script = tmp_path / f"composing_example_{index + 1}.py"
    script.write_text(BLOCKS[index], encoding="utf-8")
    runpy.run_path(str(script), run_name=f"composing_example_{index + 1}")

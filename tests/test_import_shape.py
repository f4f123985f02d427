"""The package's imports point one way: no hidden import cycles.

No function-local import of our own modules and no ``TYPE_CHECKING`` block, the two usual
ways of hiding a cycle, anywhere in ``src/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import langgraph_games

SRC = Path(langgraph_games.__file__).parent


def _nested_own_imports(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            )
            own = isinstance(child, ast.ImportFrom) and (
                child.level or (child.module or "").split(".")[0] == "langgraph_games"
            )
            if nested and own:
                assert isinstance(child, ast.ImportFrom)
                found.append((child.lineno, f"from {'.' * child.level}{child.module or ''}"))
            if nested and isinstance(child, ast.Import):
                names = [a.name for a in child.names if a.name.split(".")[0] == "langgraph_games"]
                found.extend((child.lineno, f"import {n}") for n in names)
            visit(child, inner)

    visit(tree, False)
    return found


def _type_checking(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        named = (
            (isinstance(node, ast.Name) and node.id == "TYPE_CHECKING")
            or (isinstance(node, ast.Attribute) and node.attr == "TYPE_CHECKING")
            or (
                isinstance(node, ast.ImportFrom)
                and any(a.name == "TYPE_CHECKING" for a in node.names)
            )
        )
        if named:
            lines.append(node.lineno)
    return lines


def _problems() -> list[str]:
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        where = path.relative_to(SRC.parent)
        problems += [f"{where}:{line}: {what}" for line, what in _nested_own_imports(tree)]
        problems += [f"{where}:{line}: TYPE_CHECKING" for line in _type_checking(tree)]
    return problems


def test_no_function_local_own_imports_or_type_checking_blocks() -> None:
    assert _problems() == []


def test_the_check_finds_both_forms() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import langgraph_games.games\n"
        "def f():\n    from langgraph_games.games import make\n    import langgraph_games.eval\n"
        "class C:\n    def g(self):\n        from . import sibling\n"
        "def ok():\n    import chromadb  # heavy optional dependency\n"
    )
    tree = ast.parse(source)
    assert _nested_own_imports(tree) == [
        (5, "from langgraph_games.games"),
        (6, "import langgraph_games.eval"),
        (9, "from ."),
    ]
    assert _type_checking(tree) == [1, 2]

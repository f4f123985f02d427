"""The one table renderer: GitHub-flavoured Markdown pipe tables, read as-is in a terminal.

Every table the package prints or writes (arena, evaluation families, SmartPlay,
training rounds, leaderboards, reports) goes through :func:`markdown_table`, so a table
shown in the terminal and the same table in ``report.md`` have the same columns and cells.
Rendering is delegated to :mod:`tabulate` (its ``github`` format); the cells are formatted
here, one rule for all tables.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from tabulate import tabulate

__all__ = ["cell", "markdown_table", "text_table"]


def cell(value: Any, digits: int = 2) -> str:
    """One table cell: ``-`` for a missing value, floats with ``digits`` decimals.

    Example:
        >>> [cell(None), cell(3), cell(2.5), cell(float("nan")), cell(True), cell("a")]
        ['-', '3', '2.50', '-', 'True', 'a']
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _escaped(text: str) -> str:
    # A pipe would end the cell in Markdown; escaped, it renders as a pipe.
    return text.replace("|", "\\|")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], digits: int = 2) -> str:
    """A GitHub-flavoured Markdown table (a header row, its separator, one line per row).

    Example:
        >>> print(markdown_table(["agent", "score"], [["explorer", 0.5], ["idle", None]]))
        | agent    | score   |
        |----------|---------|
        | explorer | 0.50    |
        | idle     | -       |
    """
    head = [_escaped(cell(h)) for h in headers]
    body = [[_escaped(cell(c, digits)) for c in row] for row in rows]
    return str(tabulate(body, headers=head, tablefmt="github", disable_numparse=True))


def text_table(headers: Sequence[str], rows: Mapping[str, Mapping[str, Any]]) -> str:
    """:func:`markdown_table` of labelled rows; the first header names the label column.

    Example:
        >>> print(text_table(["Model", "Suc.Rate"], {"explorer": {"Suc.Rate": 90.0}}))
        | Model    | Suc.Rate   |
        |----------|------------|
        | explorer | 90.00      |
    """
    body = [[label, *(row.get(column) for column in headers[1:])] for label, row in rows.items()]
    return markdown_table(headers, body)

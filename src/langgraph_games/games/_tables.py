"""Plain-text tables of aggregated metrics, in the column order of a paper's table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["text_table"]


def text_table(headers: Sequence[str], rows: Mapping[str, Mapping[str, Any]]) -> str:
    """One line per labelled row; the first header names the label column.

    Integers print as they are, other numbers with two decimals, missing values as ``-``.

    Example:
        >>> print(text_table(["Model", "Suc.Rate"], {"explorer": {"Suc.Rate": 90.0}}))
        Model    | Suc.Rate
        ---------+---------
        explorer | 90.00
    """
    cells = [list(headers)]
    for label, row in rows.items():
        line = [str(label)]
        for column in headers[1:]:
            value = row.get(column)
            if value is None:
                line.append("-")
            elif isinstance(value, int) and not isinstance(value, bool):
                line.append(str(value))
            else:
                line.append(f"{float(value):.2f}")
        cells.append(line)
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    out = [" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    out.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(out)

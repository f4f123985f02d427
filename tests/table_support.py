"""Tables read back from Markdown with a Markdown parser (markdown-it, GFM tables)."""

from __future__ import annotations

from markdown_it import MarkdownIt

_PARSER = MarkdownIt("commonmark").enable("table")


def tables(text: str) -> list[list[list[str]]]:
    """Every table the Markdown ``text`` renders: rows (the header first) of cell texts."""
    found: list[list[list[str]]] = []
    row: list[str] = []
    in_cell = False
    for token in _PARSER.parse(text):
        if token.type == "table_open":
            found.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type in ("th_open", "td_open"):
            in_cell = True
            row.append("")
        elif token.type in ("th_close", "td_close"):
            in_cell = False
        elif token.type == "inline" and in_cell:
            row[-1] = "".join(child.content for child in token.children or [])
        elif token.type == "tr_close":
            found[-1].append(row)
    return found


def table_dicts(text: str, index: int = 0) -> list[dict[str, str]]:
    """The ``index``-th table of ``text``, one ``{header: cell}`` per row."""
    header, *body = tables(text)[index]
    return [dict(zip(header, line, strict=True)) for line in body]


def rows_by_first(text: str, index: int = 0) -> dict[str, list[str]]:
    """The ``index``-th table's rows by their first cell (the rest of the row as the value)."""
    return {line[0]: line[1:] for line in tables(text)[index][1:]}


def table_blocks(text: str, *, costs: bool = True) -> list[str]:
    """The text of each table block (consecutive lines starting with ``|``), as printed.

    ``costs=False`` leaves out the cost table (``| player | calls | ...``) that commands
    print after their own tables.
    """
    blocks: list[list[str]] = []
    previous = False
    for line in text.splitlines():
        is_row = line.startswith("|")
        if is_row and not previous:
            blocks.append([])
        if is_row:
            blocks[-1].append(line.rstrip())
        previous = is_row
    found = ["\n".join(block) for block in blocks]
    return found if costs else [b for b in found if not _is_cost_table(b)]


def _is_cost_table(block: str) -> bool:
    """Whether a printed table block is the cost table (its header names calls and cost)."""
    header = [cell.strip() for cell in block.splitlines()[0].strip("|").split("|")]
    return header[:2] == ["player", "calls"] and "cost (USD)" in header

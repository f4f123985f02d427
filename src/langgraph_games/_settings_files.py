"""Reading the small settings files users write (run configurations, price tables).

Each problem is a ``ValueError`` of one line that starts with ``where`` (e.g.
``"--config run.toml"``) and says what is wrong.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["parse_toml", "read_settings_text"]


def read_settings_text(path: str | Path, where: str) -> str:
    """The text of a settings file.

    Raises:
        ValueError: A folder, a missing file, or one that cannot be read as UTF-8.
    """
    file = Path(path).expanduser()
    if file.is_dir():
        raise ValueError(f"{where}: is a folder; give a file")
    try:
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{where}: cannot be read ({type(exc).__name__})") from None


def parse_toml(text: str, where: str) -> dict[str, object]:
    """The table a TOML text holds (``tomli`` on Python 3.10, when installed).

    Raises:
        ValueError: Not valid TOML, or no TOML reader on Python 3.10.

    Example:
        >>> parse_toml("matches = 2", "--config a.toml")
        {'matches': 2}
    """
    if sys.version_info >= (3, 11):
        import tomllib as toml
    else:  # pragma: no cover - Python 3.10 reads TOML with tomli, when installed
        try:
            import tomli as toml  # type: ignore[import-not-found, unused-ignore]
        except ImportError:
            raise ValueError(
                f"{where}: reading TOML on Python 3.10 needs tomli (pip install tomli)"
            ) from None
    try:
        table: dict[str, object] = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        raise ValueError(f"{where}: not valid TOML ({exc})") from None
    return table

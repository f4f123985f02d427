r"""Turning digits found in model text into numbers, without ever raising: the bounded rule.

Python refuses to convert a decimal string of more than 4,300 digits (``ValueError``),
``float()`` turns a long one into ``inf``, and a model can write either. Every reader of
model output turns digit runs into numbers through these functions (or through a pattern
that bounds the run, such as ``\d{1,6}``) instead of ``int()``/``float()``: a number with
more than :data:`MAX_DIGITS` significant digits is no value any game accepts, so it gives
``None``, which each reader reports as an out-of-range or unreadable answer.
"""

from __future__ import annotations

__all__ = ["MAX_DIGITS", "canonical_int", "read_int", "read_number"]

MAX_DIGITS = 18
"""The most significant digits a number in an answer may have (a 64-bit integer's 18)."""


def read_int(run: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    r"""The integer a run of decimal digits spells, or ``None``.

    ``run`` is what a reader's ``\d+`` (optionally ``-?\d+``) captured: decimal digits
    of any script (``\d`` matches them and ``int()`` reads them), with an optional
    leading ``-`` or ``+``. Leading zeros do not count towards ``max_digits``.

    Args:
        run: The digits.
        max_digits: The most significant digits accepted.

    Returns:
        The integer, or ``None`` when ``run`` is not a signed run of decimal digits or
        has more than ``max_digits`` significant digits.

    Example:
        >>> read_int("007"), read_int("-12"), read_int("9" * 5000), read_int("0" * 5000 + "7")
        (7, -12, None, 7)
    """
    body = run[1:] if run[:1] in ("-", "+") else run
    if not body.isdecimal():
        return None
    significant = body.lstrip("0") if len(body) > max_digits else body
    if len(significant) > max_digits:
        return None
    value = int(significant or "0")  # never more than max_digits digits reach int()
    return -value if run[:1] == "-" else value


def canonical_int(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The integer of a canonical action field (``"0"``, ``"12"``), or ``None``.

    Canonical means ASCII digits without sign or leading zeros, as the games write the
    numbers in their action strings; anything else (``"07"``, ``"²"``, ``"-1"``, a
    5,000-digit run) gives ``None``.

    Example:
        >>> canonical_int("12"), canonical_int("0"), canonical_int("07"), canonical_int("²")
        (12, 0, None, None)
    """
    if not (0 < len(text) <= max_digits and text.isascii() and text.isdigit()):
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    return int(text)


def read_number(whole: str, fraction: str = "", *, max_digits: int = MAX_DIGITS) -> float | None:
    """The value of a decimal number given as its whole and fraction digit runs, or ``None``.

    ``whole`` may carry a sign; the whole part is bounded like :func:`read_int`. Fraction
    digits past ``max_digits`` are below any precision a float keeps, so they are dropped.

    Example:
        >>> read_number("-12", "5"), read_number("9" * 5000), read_number("0", "3" * 5000)
        (-12.5, None, 0.3333333333333333)
    """
    integer = read_int(whole, max_digits=max_digits)
    if integer is None or not (fraction == "" or fraction.isdecimal()):
        return None
    if not fraction:
        return float(integer)
    sign = "-" if whole.startswith("-") else ""
    return float(f"{sign}{abs(integer)}.{fraction[:max_digits]}")

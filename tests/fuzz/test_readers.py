"""Fuzzing every reader of model output with generated hostile replies.

Each reader gets its own seeded stream of replies (huge digit runs, binary and NUL,
Unicode digits and look-alikes, nested brackets, repeated labels, empty ones) and the
one-megabyte worst shapes, more than 100,000 replies in all. Every reply must end in a
parsed answer or a reported unusable one, by the reader's contract, and never raise.
Where a reader has a final answer, hostile text written after it must not change it.
"""

from __future__ import annotations

import random
import zlib

import pytest

from fuzz.readers import READERS, Reader
from fuzz.replies import LARGE, replies, tail

TOTAL = 100_000
PER_READER = -(-TOTAL // len(READERS))
TAILS = 200


def _seed(reader: Reader) -> int:
    return zlib.crc32(reader.name.encode())


def test_the_suite_reads_at_least_100k_replies() -> None:
    assert PER_READER * len(READERS) >= TOTAL


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_every_reply_ends_in_an_answer_or_a_reported_problem(reader: Reader) -> None:
    for number, text in enumerate(replies(_seed(reader), PER_READER)):
        try:
            reader.check(reader.read(text))
        except Exception as exc:  # noqa: BLE001 - the reply that broke it is the message
            pytest.fail(f"reply {number} {text[:300]!r}: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("reader", READERS, ids=lambda r: r.name)
def test_megabyte_replies_are_read(reader: Reader) -> None:
    """The worst shapes: one per reader (in turn) at a megabyte for every third reader and
    256 kB for the others, the rest at 4 kB (``benchmarks/reader_worst_case.py`` times
    every shape at a megabyte through every reader)."""
    index = READERS.index(reader)
    full = list(LARGE)[index % len(LARGE)]
    for name, text in LARGE.items():
        size = (1_000_000 if index % 3 == 0 else 256_000) if name == full else 4_000
        reply = text[:size]
        try:
            reader.check(reader.read(reply))
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{name} ({len(reply):,} chars): {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("reader", [r for r in READERS if r.answer], ids=lambda r: r.name)
def test_text_after_the_answer_does_not_change_it(reader: Reader) -> None:
    assert reader.answer is not None
    answer = reader.answer_of(reader.read(reader.answer))
    assert answer not in (None, [], {}), f"{reader.answer!r} reads as nothing"
    rng = random.Random(_seed(reader))
    for _ in range(TAILS):
        after = tail(rng)
        assert reader.answer_of(reader.read(reader.answer + after)) == answer, after

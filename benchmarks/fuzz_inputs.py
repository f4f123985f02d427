"""Every reader of results files and every parser of specs on seeded hostile input.

Usage: python benchmarks/fuzz_inputs.py [--files 2000] [--specs 100000] [--seed 0] [--plots]

Writes real results files with the commands (arena, eval of every metric family, a small
train run), damages ``--files`` copies of them (``tests/fuzz/files.py``) and runs each
through ``load_results``, ``report``, ``replay``, ``leaderboard``, the SmartPlay summary
and the training ledger; then draws ``--specs`` player specs, model specs, game options,
sweeps and option values (``tests/fuzz/specs.py``) through their parsers. Prints what was
run, how long it took and every crash (exit status 1 when there is one).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from _common import machine, table
from fuzz.files import build_corpus, check_file, mutants
from fuzz.specs import TARGETS, check_input, engines, spec_inputs


def _files(count: int, seed: int, plots: bool, folder: Path) -> tuple[list[str], float]:
    corpus = build_corpus(folder / "corpus")
    start = time.perf_counter()
    crashes = []
    for number, mutant in enumerate(mutants(corpus, seed, count)):
        path = mutant.write(folder / "files" / str(number))
        for problem in check_file(path, folder / "out" / str(number), plots=plots):
            crashes.append(f"{mutant.name} ({'; '.join(mutant.how)}): {problem}")
    return crashes, time.perf_counter() - start


def _specs(total: int, seed: int) -> tuple[list[list[object]], list[str], int]:
    games = engines()
    rows: list[list[object]] = []
    crashes = []
    drawn = 0
    for target in TARGETS:
        count = target.count(total)
        start = time.perf_counter()
        for number, text in enumerate(spec_inputs(target, seed + len(rows), count)):
            found = check_input(target, text, games, number)
            if found:
                crashes.append(found)
        drawn += count
        rows.append([target.name, f"{count:,}", f"{time.perf_counter() - start:.1f}"])
    return rows, crashes, drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000, help="damaged results files")
    parser.add_argument("--specs", type=int, default=100_000, help="specs in all")
    parser.add_argument("--seed", type=int, default=0, help="seed of the damage and specs")
    parser.add_argument("--plots", action="store_true", help="draw the reports' plots too")
    args = parser.parse_args()
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        os.environ.pop(name, None)  # endpoint specs build client objects only
    print(f"Hostile input through every reader and parser ({machine()})\n")
    with tempfile.TemporaryDirectory() as folder:
        file_crashes, took = _files(args.files, args.seed, args.plots, Path(folder))
    print(
        f"results files: {args.files:,} damaged files in {took:.1f} s, crashes: {len(file_crashes)}"
    )
    rows, spec_crashes, drawn = _specs(args.specs, args.seed)
    print(f"specs: {drawn:,} inputs, crashes: {len(spec_crashes)}\n")
    print(table(["parser", "inputs", "s"], rows))
    for crash in [*file_crashes, *spec_crashes][:50]:
        print(f"- {crash}")
    if file_crashes or spec_crashes:
        sys.exit(1)


if __name__ == "__main__":
    main()

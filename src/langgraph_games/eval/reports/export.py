"""Results files as flat rows for dataframes: one row per episode or per decision.

:func:`episode_rows` gives one row per match or episode record (failed ones too, with
their ``error``): where it came from (``file``, ``line``), what was played (``game``,
``id``, ``seed``, ``seats``...), how it ended (``status``, ``steps``, ``returns``,
``winners``), the record's metrics as ``metric_<name>`` columns, and per seat ``i`` its
player, return and counters (``seat<i>_model_calls``, ``seat<i>_input_tokens``, ...).

:func:`decision_rows` gives one row per decision of a trajectory: the episode's keys, the
``step``, ``seat`` and ``player``, what was played (``action``, ``status``, ``fallback``,
``forfeit``), the ``attempts`` it took, the model usage summed over them (``calls``,
``cached_calls``, tokens, ``latency_s``) and the last ``answer`` the model gave.

With a price table (:mod:`~langgraph_games.eval.costs`) both gain cost columns
(``seat<i>_cost_usd`` and ``cost_usd``), empty where the model's price is unknown.

:func:`write_rows` writes rows as JSON Lines, CSV or Parquet (with pyarrow), chosen by the
file's suffix, through a temporary file renamed into place (one writer, never a half file).
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from langgraph_games._files import write_atomic
from langgraph_games.eval.costs import PriceTable, model_of_spec
from langgraph_games.eval.running.records import LoadedRecord

__all__ = ["FORMATS", "PER", "decision_rows", "episode_rows", "export_format", "write_rows"]

FORMATS = {".jsonl": "jsonl", ".csv": "csv", ".parquet": "parquet"}
"""Output formats by file suffix."""

PER = ("episode", "decision")
"""What one row stands for (``--per``)."""

_COUNTERS = ("decisions", "invalid_answers", "fallbacks", "model_calls", "input_tokens",
             "output_tokens")  # fmt: skip
_USAGE = ("calls", "cached_calls", "input_tokens", "output_tokens")


def _identity(item: LoadedRecord) -> dict[str, Any]:
    record: Mapping[str, Any] = item.record
    return {
        "file": item.path.name,
        "line": item.line,
        "kind": record.get("kind"),
        "game": record.get("game"),
        "id": record.get("match_id") or record.get("episode_id") or record.get("id"),
        "label": record.get("label"),
        "round": record.get("round"),
        "seed": record.get("seed"),
    }


def _seats(record: Mapping[str, Any]) -> list[str]:
    seats = record.get("seats")
    if isinstance(seats, list):
        return [str(seat) for seat in seats]
    label = record.get("label")
    return [str(label)] if label is not None else []


def _cost(prices: PriceTable | None, spec: str | None, inputs: Any, outputs: Any) -> Any:
    if prices is None or spec is None:
        return None
    return prices.cost(model_of_spec(spec), int(inputs or 0), int(outputs or 0))


def _played(items: Iterable[LoadedRecord]) -> Iterator[tuple[LoadedRecord, Mapping[str, Any]]]:
    """The match and episode records among ``items``."""
    for item in items:
        if item.record.get("kind") in ("match", "episode"):
            yield item, item.record


def episode_rows(
    items: Iterable[LoadedRecord], prices: PriceTable | None = None
) -> list[dict[str, Any]]:
    """One row per match or episode record (see the module docstring)."""
    rows: list[dict[str, Any]] = []
    for item, record in _played(items):
        result = record.get("result") or {}
        seats = _seats(record)
        row = _identity(item)
        row.update(
            family=record.get("family"),
            status=record.get("status") or result.get("status"),
            seats=seats,
            steps=result.get("steps"),
            returns=result.get("returns"),
            winners=result.get("winners"),
            started_at=record.get("started_at"),
            duration_s=record.get("duration_s"),
            error=record.get("error"),
        )
        for name, value in (record.get("metrics") or {}).items():
            if value is None or isinstance(value, (str, int, float, bool)):
                row[f"metric_{name}"] = value
        returns = result.get("returns") or []
        for seat, counters in enumerate(result.get("players") or []):
            spec = seats[seat] if seat < len(seats) else None
            row[f"seat{seat}_player"] = spec
            row[f"seat{seat}_return"] = returns[seat] if seat < len(returns) else None
            for name in _COUNTERS:
                row[f"seat{seat}_{name}"] = counters.get(name, 0)
            if prices is not None:
                inputs, outputs = counters.get("input_tokens"), counters.get("output_tokens")
                row[f"seat{seat}_cost_usd"] = _cost(prices, spec, inputs, outputs)
        rows.append(row)
    return rows


def decision_rows(
    items: Iterable[LoadedRecord], prices: PriceTable | None = None
) -> list[dict[str, Any]]:
    """One row per decision of every trajectory (see the module docstring)."""
    rows: list[dict[str, Any]] = []
    for item, record in _played(items):
        seats = _seats(record)
        base = _identity(item)
        for step in record.get("trajectory") or []:
            for seat_key, decision in (step.get("decisions") or {}).items():
                seat = int(seat_key)
                spec = seats[seat] if seat < len(seats) else None
                attempts = decision.get("attempts") or []
                usage: dict[str, Any] = {key: 0 for key in _USAGE}
                latency = 0.0
                for attempt in attempts:
                    for key in _USAGE:
                        usage[key] += int((attempt.get("usage") or {}).get(key, 0) or 0)
                    latency += float(attempt.get("latency_s") or 0.0)
                outputs = [o for a in attempts for o in (a.get("raw_outputs") or [])]
                row = {**base, "step": step.get("step"), "seat": seat, "player": spec}
                row.update(
                    action=decision.get("action"),
                    status=decision.get("status"),
                    fallback=decision.get("fallback"),
                    forfeit=decision.get("forfeit"),
                    attempts=len(attempts),
                    **usage,
                    latency_s=round(latency, 6),
                    answer=outputs[-1] if outputs else None,
                )
                if prices is not None:
                    row["cost_usd"] = _cost(
                        prices, spec, usage["input_tokens"], usage["output_tokens"]
                    )
                rows.append(row)
    return rows


def export_format(path: str | Path) -> str:
    """The format a file's suffix asks for.

    Raises:
        ValueError: Another suffix (the accepted ones are named).

    Example:
        >>> export_format("runs/all.csv")
        'csv'
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"--to {path}: the format is chosen by the file's suffix, one of "
            f"{', '.join(FORMATS)}; got {suffix or 'none'}"
        )
    return FORMATS[suffix]


def _columns(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for row in rows:
        for key in row:
            seen.setdefault(key, None)
    return list(seen)


def _cell(value: Any) -> Any:
    """A CSV cell: lists and tables as JSON, ``None`` as empty."""
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


def _parquet(rows: Sequence[Mapping[str, Any]], path: Path, temporary: str) -> None:
    try:
        import pyarrow as pa  # type: ignore[import-not-found, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ValueError(
            f"--to {path}: writing parquet needs pyarrow (pip install pyarrow); or export "
            "to .jsonl or .csv"
        ) from None
    columns = _columns(rows)
    table = pa.Table.from_pylist([{c: row.get(c) for c in columns} for row in rows])
    pq.write_table(table, temporary)


def write_rows(rows: Sequence[Mapping[str, Any]], path: str | Path) -> Path:
    """Write ``rows`` to ``path`` in the format its suffix names (see :func:`export_format`).

    Columns are every key of any row, in the order first met; a row without one leaves it
    empty (CSV) or ``null`` (JSON Lines, Parquet).

    Raises:
        ValueError: An unknown suffix, or parquet without pyarrow.
    """
    target = Path(path)
    kind = export_format(target)
    columns = _columns(rows)
    if kind == "parquet":
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(handle)
        try:
            _parquet(rows, target, temporary)
            os.replace(temporary, target)
        finally:
            Path(temporary).unlink(missing_ok=True)
        return target
    out = io.StringIO(newline="")
    if kind == "jsonl":
        for row in rows:
            out.write(json.dumps({c: row.get(c) for c in columns}, ensure_ascii=False) + "\n")
    else:
        writer = csv.writer(out)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(row.get(c)) for c in columns])
    return write_atomic(target, out.getvalue())

"""A single run's results.csv and results.parquet, written from its one row without pandas.

Importing pandas costs a single `flitcast run` more than a short simulation; these writers produce what
a sweep writes for the same row (``frame_of([result]).to_csv(index=False)``, and ``parquet.write_frame``:
same columns, same cell text, same Arrow types), which tests/test_outputs.py checks. Sweeps still write
through pandas.
The Parquet file is pyarrow's work: importing it (with numpy, which pyarrow imports) takes about 0.15 s
of CPU, which `flitcast run --out` spends on a second thread while the core simulates.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flitcast.sweeps.parquet import arrow_schema

__all__ = ["csv_cell", "write_csv", "write_parquet", "write_table"]


def csv_cell(value: Any) -> str:
    """A value as pandas writes it into a CSV cell: missing and NaN empty, floats by ``repr``."""
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if math.isnan(value) else repr(value)
    return str(value)


def write_csv(path: str | os.PathLike[str], row: Mapping[str, Any]) -> None:
    """A header line and one data line; cells quoted only where needed, lines ending in ``\\n``."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(row.keys())
        writer.writerow(csv_cell(v) for v in row.values())


def write_table(path: str | os.PathLike[str], header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """A header line and one line per row, cells as :func:`write_csv` writes them."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([csv_cell(v) for v in row] for row in rows)


def write_parquet(path: str | os.PathLike[str], row: Mapping[str, Any]) -> None:
    """One row, in the Arrow types of every results.parquet (``parquet.arrow_schema``).

    The row goes through pyarrow's JSON reader with an explicit schema: ``pyarrow.array`` on Python
    values imports pandas to ask whether they are pandas objects, which is the cost this module avoids.
    """
    import pyarrow as pa
    import pyarrow.json
    import pyarrow.parquet as pq

    schema = arrow_schema(pa, {name: [value] for name, value in row.items()})
    # the core's JSON and validated scenarios hold finite numbers only; allow_nan=False keeps it so
    line = json.dumps(dict(row), allow_nan=False).encode("utf-8")
    options = pyarrow.json.ParseOptions(explicit_schema=schema)
    one_line = pyarrow.json.ReadOptions(use_threads=False)  # no thread pool to start for it
    pq.write_table(pyarrow.json.read_json(io.BytesIO(line), read_options=one_line, parse_options=options), path)

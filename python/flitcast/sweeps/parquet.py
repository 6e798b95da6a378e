"""results.parquet's column types: flitcast's own, the same whichever pandas is installed.

Left to pandas, the same table would be two files: pandas 2 gives text the Arrow type ``string``,
pandas 3 ``large_string``, and each records its own dtypes in the file's pandas metadata. So both
writers of results.parquet, a sweep's table (:func:`write_frame`) and a single run's one row
(``rows.py``, without pandas), take each column's type from its values by one rule,
:func:`arrow_schema`, and write no pandas metadata:

- text ``large_string``; whole numbers ``int64``; numbers with a fraction, or whole numbers beside
  missing ones, ``double``; true/false ``bool``; lists ``list<...>``, their items typed by the same rule;
- a column with no value at all ``double``: an empty metric is NaN, as in the table (``results.frame``).

A missing value (None, NaN) is a null of its column's type.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from flitcast.results import empty

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["arrow_schema", "write_frame"]


def write_frame(path: str | os.PathLike[str], frame: pd.DataFrame) -> None:
    """A table (``flitcast.sweep``'s), without its index, in the types :func:`arrow_schema` gives."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema(pa, {str(name): frame[name].tolist() for name in frame.columns})
    table = pa.Table.from_pandas(frame, schema=schema, preserve_index=False)
    pq.write_table(table.replace_schema_metadata(None), path)


def arrow_schema(pa: Any, columns: Mapping[str, Iterable[Any]]) -> Any:
    """The Arrow schema of columns given by name and values (``pa`` is the pyarrow module, imported by
    the caller when it needs it)."""
    fields = []
    for name, values in columns.items():
        try:
            fields.append((name, _arrow_type(pa, list(values))))
        except TypeError as exc:
            raise TypeError(f"results column {name!r}: {exc}") from None
    return pa.schema(fields)


def _arrow_type(pa: Any, values: list[Any]) -> Any:
    kinds = {_kind(v) for v in values if not empty(v)}
    if not kinds or kinds <= {"int", "float"}:
        whole = kinds == {"int"} and not any(empty(v) for v in values)
        return pa.int64() if whole else pa.float64()
    if len(kinds) > 1:
        raise TypeError(f"values of several kinds ({', '.join(sorted(kinds))})")
    (kind,) = kinds
    if kind == "list":
        return pa.list_(_arrow_type(pa, [item for v in values if not empty(v) for item in v]))
    return pa.bool_() if kind == "bool" else pa.large_string()


def _kind(value: Any) -> str:
    if isinstance(value, bool):  # before int: a bool is an int to Python
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "list"
    raise TypeError(f"no Arrow type for a value of type {type(value).__name__}")

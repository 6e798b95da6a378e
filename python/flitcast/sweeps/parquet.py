"""A one-row Parquet file written in plain Python: a single run's ``results.parquet`` without pyarrow.

Importing pyarrow (and numpy, which it imports) costs a single ``flitcast run`` about as much CPU time as
every other import together (docs/engine.md, "A single run, end to end"). A table of one row needs little
of Parquet, so this module writes it directly:

- one row group; per column one uncompressed data page (format v1): its repetition and definition levels
  as RLE runs, the value PLAIN-encoded (no dictionary, no statistics);
- the Parquet types pyarrow gives a pandas row: text ``BYTE_ARRAY`` (UTF8 / String), integers ``INT64``,
  floats ``DOUBLE``, booleans ``BOOLEAN``, a missing value an ``INT32`` column of logical type Null
  (UNKNOWN), a list a 3-level ``LIST`` group with an ``element`` leaf;
- the Arrow schema under the ``ARROW:schema`` key, as pyarrow writes it (an IPC schema message, base64),
  so Arrow readers read back the types pandas would have written: ``large_string``, ``int64``, ``double``,
  ``bool``, ``null``, ``list<...>``.

The file metadata is Thrift's compact protocol, the Arrow schema a FlatBuffer; both are written by the small
encoders below. :func:`supported` says whether a row fits; ``rows.write_parquet`` writes any other row (a
nested list, a list of mixed types, an integer beyond 64 bits) through pyarrow as before. tests/test_outputs.py
reads the files back with pyarrow and pandas and compares them with what pandas writes.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Mapping
from typing import Any

__all__ = ["supported", "write_one_row"]

_INT64 = (-(2**63), 2**63 - 1)

# --- the kinds of cell: (Parquet physical type, converted type, logical type field, Arrow type) ----------
# Parquet physical types
_BOOLEAN, _INT32, _INT64_T, _DOUBLE, _BYTE_ARRAY = 0, 1, 2, 5, 6
# Arrow type union tags (Schema.fbs)
_A_NULL, _A_INT, _A_FLOAT, _A_BOOL, _A_LIST, _A_LARGE_UTF8 = 1, 2, 3, 6, 12, 20


def _kind(value: Any) -> str | None:
    """The kind of a scalar cell (``null``, ``bool``, ``int``, ``float``, ``str``), or None if it is none."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if _INT64[0] <= value <= _INT64[1] else None
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return None


def _column_kind(value: Any) -> tuple[str, str | None] | None:
    """(kind, element kind) of a cell: a scalar ``(kind, None)``, a list ``("list", kind of its items)``
    (``null`` when it has none); None for what this module does not write."""
    if isinstance(value, list):
        kinds = {_kind(item) for item in value if item is not None}  # (a nested list's kind is None)
        if None in kinds or len(kinds) > 1:
            return None
        return ("list", kinds.pop() if kinds else "null")
    kind = _kind(value)
    return None if kind is None else (kind, None)


def supported(row: Mapping[str, Any]) -> bool:
    """Whether :func:`write_one_row` writes ``row``: string keys, cells that are None, booleans, 64-bit
    integers, floats, strings or flat lists of one of these kinds."""
    return all(isinstance(name, str) and _column_kind(value) is not None for name, value in row.items())


def write_one_row(path: Any, row: Mapping[str, Any]) -> None:
    """Write ``row`` (column name -> cell, in column order) as a one-row Parquet file at ``path``."""
    out = bytearray(b"PAR1")
    schema: list[bytes] = [_schema_element(name="schema", num_children=len(row))]
    chunks: list[bytes] = []
    fields: list[_Table] = []
    total = 0
    for name, value in row.items():
        column_kind = _column_kind(value)
        if column_kind is None:
            raise TypeError(f"no Parquet column written here for the cell {name!r} of type {type(value).__name__}")
        kind, element = column_kind
        if kind == "list":
            leaf_kind = element or "null"
            schema += [
                _schema_element(name=name, repetition=1, num_children=1, converted=3, logical=(3, b"\x00")),
                _schema_element(name="list", repetition=2, num_children=1),
                _leaf_element("element", leaf_kind),
            ]
            reps = [0] + [1] * (len(value) - 1) if value else [0]
            defs = [3 if item is not None else 2 for item in value] if value else [1]
            page = _levels(reps, 1) + _levels(defs, 2) + _values(leaf_kind, [v for v in value if v is not None])
            path_in_schema = [name, "list", "element"]
            arrow = _arrow_field(name, (_A_LIST, _Table()), [_arrow_field("item", _arrow_type(leaf_kind), [])])
        else:
            schema.append(_leaf_element(name, kind))
            page = _levels([0 if value is None else 1], 1) + _values(kind, [] if value is None else [value])
            path_in_schema = [name]
            leaf_kind = kind
            arrow = _arrow_field(name, _arrow_type(kind), [])
        fields.append(arrow)
        levels = 1 if kind != "list" else max(len(value), 1)
        header = _struct(
            (1, "i32", 0),  # DATA_PAGE
            (2, "i32", len(page)),
            (3, "i32", len(page)),
            (5, "struct", _struct((1, "i32", levels), (2, "i32", 0), (3, "i32", 3), (4, "i32", 3))),  # PLAIN, RLE, RLE
        )
        offset = len(out)
        out += header + page
        size = len(header) + len(page)
        total += size
        meta = _struct(
            (1, "i32", _PHYSICAL[leaf_kind]),
            (2, "list_i32", [0, 3]),  # PLAIN, RLE
            (3, "list_bin", [p.encode("utf-8") for p in path_in_schema]),
            (4, "i32", 0),  # UNCOMPRESSED
            (5, "i64", levels),
            (6, "i64", size),
            (7, "i64", size),
            (9, "i64", offset),
        )
        chunks.append(_struct((2, "i64", offset), (3, "struct", meta)))
    row_group = _struct(
        (1, "list_struct", chunks), (2, "i64", total), (3, "i64", 1), (5, "i64", 4), (6, "i64", total)
    )
    arrow_schema = base64.b64encode(_ipc_schema(fields))
    file_meta = _struct(
        (1, "i32", 2),
        (2, "list_struct", schema),
        (3, "i64", 1),
        (4, "list_struct", [row_group]),
        (5, "list_struct", [_struct((1, "bin", b"ARROW:schema"), (2, "bin", arrow_schema))]),
        (6, "bin", b"flitcast"),
    )
    out += file_meta + struct.pack("<I", len(file_meta)) + b"PAR1"
    with open(path, "wb") as fh:
        fh.write(out)


_PHYSICAL = {"null": _INT32, "bool": _BOOLEAN, "int": _INT64_T, "float": _DOUBLE, "str": _BYTE_ARRAY}


def _leaf_element(name: str, kind: str) -> bytes:
    if kind == "str":
        return _schema_element(name=name, type_=_BYTE_ARRAY, repetition=1, converted=0, logical=(1, b"\x00"))
    if kind == "null":
        return _schema_element(name=name, type_=_INT32, repetition=1, logical=(11, b"\x00"))
    return _schema_element(name=name, type_=_PHYSICAL[kind], repetition=1)


def _schema_element(
    name: str,
    type_: int | None = None,
    repetition: int | None = None,
    num_children: int | None = None,
    converted: int | None = None,
    logical: tuple[int, bytes] | None = None,
) -> bytes:
    fields: list[tuple[int, str, Any]] = []
    if type_ is not None:
        fields.append((1, "i32", type_))
    if repetition is not None:
        fields.append((3, "i32", repetition))
    fields.append((4, "bin", name.encode("utf-8")))
    if num_children is not None:
        fields.append((5, "i32", num_children))
    if converted is not None:
        fields.append((6, "i32", converted))
    if logical is not None:
        tag, body = logical  # a union: a struct holding one (empty) struct
        fields.append((10, "struct", _struct((tag, "struct", body))))
    return _struct(*fields)


def _levels(levels: list[int], bit_width: int) -> bytes:
    """Repetition or definition levels, RLE runs of the hybrid encoding behind their 4-byte length."""
    body = bytearray()
    i = 0
    while i < len(levels):
        j = i
        while j < len(levels) and levels[j] == levels[i]:
            j += 1
        body += _varint((j - i) << 1) + levels[i].to_bytes((bit_width + 7) // 8, "little")
        i = j
    return struct.pack("<I", len(body)) + body


def _values(kind: str, values: list[Any]) -> bytes:
    """Non-null values, PLAIN-encoded."""
    if kind == "int":
        return struct.pack(f"<{len(values)}q", *values)
    if kind == "float":
        return struct.pack(f"<{len(values)}d", *values)
    if kind == "bool":
        bits = bytearray((len(values) + 7) // 8)
        for i, v in enumerate(values):
            if v:
                bits[i // 8] |= 1 << (i % 8)
        return bytes(bits)
    if kind == "str":
        out = bytearray()
        for v in values:
            data = v.encode("utf-8")
            out += struct.pack("<I", len(data)) + data
        return bytes(out)
    return b""  # null: no values


# --- Thrift compact protocol --------------------------------------------------------------------------

_T_I32, _T_I64, _T_BINARY, _T_LIST, _T_STRUCT = 5, 6, 8, 9, 12


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _zigzag(n: int) -> bytes:
    return _varint((n << 1) ^ (n >> 63))


def _struct(*fields: tuple[int, str, Any]) -> bytes:
    """A struct of (field id, type, value) in increasing field id order, then its stop byte."""
    out = bytearray()
    last = 0
    for fid, kind, value in fields:
        ttype = {"i32": _T_I32, "i64": _T_I64, "bin": _T_BINARY, "struct": _T_STRUCT}.get(kind, _T_LIST)
        delta = fid - last
        out += bytes([(delta << 4) | ttype]) if 0 < delta <= 15 else bytes([ttype]) + _zigzag(fid)
        last = fid
        if kind in ("i32", "i64"):
            out += _zigzag(value)
        elif kind == "bin":
            out += _varint(len(value)) + value
        elif kind == "struct":
            out += value
        else:  # a list: list_i32, list_bin or list_struct
            element = {"list_i32": _T_I32, "list_bin": _T_BINARY, "list_struct": _T_STRUCT}[kind]
            out += bytes([(len(value) << 4) | element]) if len(value) < 15 else bytes([0xF0 | element]) + _varint(len(value))
            for item in value:
                if kind == "list_i32":
                    out += _zigzag(item)
                elif kind == "list_bin":
                    out += _varint(len(item)) + item
                else:
                    out += item
    out.append(0)
    return bytes(out)


# --- the Arrow schema: an IPC Schema message, a FlatBuffer ------------------------------------------------


class _Table:
    """A FlatBuffer table: its fields by slot (``s0=...``), each (kind, value); kinds ``u8``, ``bool``,
    ``i16``, ``i32`` (inline), ``str``, ``table`` and ``tables`` (a vector of tables) (by offset)."""

    def __init__(self, **slots: tuple[str, Any]) -> None:
        self.slots = {int(k[1:]): v for k, v in slots.items()}


def _arrow_type(kind: str) -> tuple[int, _Table]:
    """The Arrow type of a kind of cell: its tag in the Type union and its table."""
    if kind == "int":
        return _A_INT, _Table(s0=("i32", 64), s1=("bool", True))  # Int {bitWidth, is_signed}
    if kind == "float":
        return _A_FLOAT, _Table(s0=("i16", 2))  # FloatingPoint {precision: DOUBLE}
    return {"null": _A_NULL, "bool": _A_BOOL, "str": _A_LARGE_UTF8}[kind], _Table()  # tables without fields


def _arrow_field(name: str, type_: tuple[int, _Table], children: list[_Table]) -> _Table:
    """Field {name, nullable, type (type_type, type), dictionary, children, custom_metadata}."""
    tag, table = type_
    return _Table(s0=("str", name), s1=("bool", True), s2=("u8", tag), s3=("table", table), s5=("tables", children))


def _ipc_schema(fields: list[_Table]) -> bytes:
    """The encapsulated IPC message of a Schema: continuation marker, length, Message (V5, little endian)."""
    message = _Table(s0=("i16", 4), s1=("u8", 1), s2=("table", _Table(s1=("tables", fields))))
    buffer = _FlatBuffer().finish(message)
    buffer += b"\x00" * (-len(buffer) % 8)
    return b"\xff\xff\xff\xff" + struct.pack("<i", len(buffer)) + bytes(buffer)


_INLINE = {"u8": ("<B", 1), "bool": ("<B", 1), "i16": ("<h", 2), "i32": ("<i", 4)}


class _FlatBuffer:
    """Lays a tree of tables out front to back: each table's vtable just before it, the objects it refers
    to after it (a FlatBuffer offset points forward), every offset patched once its target is placed."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def finish(self, root: _Table) -> bytearray:
        self.buf += b"\x00" * 4  # the root offset
        self._patch(0, self._table(root))
        return self.buf

    def _align(self, n: int) -> None:
        self.buf += b"\x00" * (-len(self.buf) % n)

    def _patch(self, at: int, target: int) -> None:
        self.buf[at : at + 4] = struct.pack("<I", target - at)

    def _table(self, table: _Table) -> int:
        # inline layout: the vtable offset, then offsets (4 bytes), then inline scalars by falling size
        order = sorted(table.slots.items(), key=lambda s: -(4 if s[1][0] not in _INLINE else _INLINE[s[1][0]][1]))
        layout: dict[int, int] = {}
        size = 4
        for slot, (kind, _) in order:
            width = 4 if kind not in _INLINE else _INLINE[kind][1]
            size += -size % width
            layout[slot] = size
            size += width
        size += -size % 4
        slots = max(table.slots, default=-1) + 1
        vtable = struct.pack(f"<{2 + slots}H", 4 + 2 * slots, size, *(layout.get(s, 0) for s in range(slots)))
        # the table starts 4-aligned right after its vtable
        self.buf += b"\x00" * (-(len(self.buf) + len(vtable)) % 4)
        vt_at = len(self.buf)
        self.buf += vtable
        at = len(self.buf)
        self.buf += struct.pack("<i", at - vt_at) + b"\x00" * (size - 4)
        pending = []
        for slot, (kind, value) in table.slots.items():
            where = at + layout[slot]
            if kind in _INLINE:
                fmt, width = _INLINE[kind]
                self.buf[where : where + width] = struct.pack(fmt, int(value))
            else:
                pending.append((where, kind, value))
        for where, kind, value in pending:
            self._patch(where, self._object(kind, value))
        return at

    def _object(self, kind: str, value: Any) -> int:
        if kind == "table":
            return self._table(value)
        self._align(4)
        at = len(self.buf)
        if kind == "str":
            data = value.encode("utf-8")
            self.buf += struct.pack("<I", len(data)) + data + b"\x00"
            return at
        # a vector of tables: its length, then one offset per table
        self.buf += struct.pack("<I", len(value)) + b"\x00" * (4 * len(value))
        for i, item in enumerate(value):
            self._patch(at + 4 + 4 * i, self._table(item))
        return at

"""Rows of whole numbers as CSV text, formatted by NumPy a block at a time.

:func:`whole_rows` gives, byte for byte, what ``"%d,%d,...\\n" % row`` gives for every row of
integer columns, without a Python call per number. Each column's digits come from whole-array
divisions into a fixed-width block of bytes (zero-padded on the left, a minus sign before the
first digit of a negative number); one ``np.compress`` over the rows then drops the leading zeros. On
a sweep's 10^6 rows of three whole-number columns, ``write_csv`` takes about two thirds of the time
it took with Python's ``%`` (one call per block of rows, which already beat one call per row).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["whole_rows"]

def whole_rows(columns: Sequence["np.ndarray"], sep: str = ",") -> bytes:
    """The rows of ``columns`` (int64 arrays of one length, each value below 2**63 in magnitude) as
    ``sep``-separated decimal integers, one line per row, each line ending in ``\\n``."""
    import numpy as np

    if not columns or columns[0].size == 0:
        return b""
    rows = columns[0].size
    separator = sep.encode("ascii")
    if len(separator) != 1:
        raise ValueError("the separator must be one ASCII character")
    powers = 10 ** np.arange(1, 19, dtype=np.int64)
    fields, keeps = [], []
    for k, column in enumerate(columns):
        values = np.asarray(column, dtype=np.int64).reshape(-1)
        if values.size != rows:
            raise ValueError("the columns are not of one length")
        magnitude = np.abs(values)
        digits = np.searchsorted(powers, magnitude, side="right") + 1       # 0 has one digit
        negative = values < 0
        signed = bool(negative.any())
        width = int(digits.max()) + signed
        # one row of bytes per place, written whole; transposed into the text below
        block = np.empty((width + 1, rows), dtype=np.uint8)
        rest = magnitude
        for place in range(width - 1, -1, -1):                               # the last digit first
            quotient = rest // 10
            np.subtract(rest, quotient * 10, out=block[place], casting="unsafe")
            rest = quotient
        block[:width] += ord("0")
        start = width - digits - negative                 # each field's first byte: its sign or first digit
        if signed:
            where = np.flatnonzero(negative)
            block[start[where], where] = ord("-")
        block[width] = separator[0] if k < len(columns) - 1 else ord("\n")
        fields.append(block.T)
        keeps.append(np.arange(width + 1)[None, :] >= start[:, None])      # the leading zeros are dropped
    text = np.hstack(fields).reshape(-1)
    return np.compress(np.hstack(keeps).reshape(-1), text).tobytes()

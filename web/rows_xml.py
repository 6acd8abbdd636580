"""The rows of a sheet as worksheet XML, written straight to a file: the fast path of
``web.sheet_writer`` (issue 16.6: 1,000 players x 5 games in under 3 s).

openpyxl's write-only mode builds a cell object and an XML element per value, some 10 us a
cell: the 1.9 million cells of a 1,000-player, 5-game event take it over 20 s here. So
openpyxl writes what it is good at (the workbook, the styles, the header row with its notes,
the column widths, the frozen pane, the charts), and ``RowWriter`` writes each row of data
as the ``<row>`` element openpyxl would have written, which ``base`` then puts in the sheet,
after the header row, when the workbook is saved:

- text is an inline string (``t="inlineStr"``): never a formula, whatever it starts with; the
  characters XML cannot hold (control characters) are dropped, as openpyxl refuses them;
- numbers are numbers; a column with a number format gets its style;
- dates and times are Excel serial numbers with the date or time style;
- ``None`` and ``""`` leave the cell out (openpyxl reads both back as empty);
- the footer row is bold (a style of its own per number format).

Every style is asked of openpyxl (``style_id`` of a cell styled as wanted), so it is in the
workbook's style sheet when openpyxl saves it.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import IO

from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

Cell = str | int | float | dt.date | None
Row = Sequence[Cell]
DATE, TIME = "yyyy-mm-dd", "yyyy-mm-dd hh:mm"
BOLD = Font(bold=True)
EXCEL_EPOCH = dt.datetime(1899, 12, 30)
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _style_id(ws: WriteOnlyWorksheet, number_format: str | None, *, bold: bool) -> int:
    cell = WriteOnlyCell(ws)
    if number_format is not None:
        cell.number_format = number_format
    if bold:
        cell.font = BOLD
    return int(cell.style_id)


def excel_serial(value: dt.date) -> float:
    """A date or a (naive) time as Excel counts it: days since 1899-12-30 (the 1900 date
    system, right from March 1900 on)."""
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    return (value - EXCEL_EPOCH) / dt.timedelta(days=1)


def text_xml(value: str) -> str:
    """An inline string's ``<is>`` element."""
    text = ILLEGAL_CHARACTERS_RE.sub("", value).translate(_ESCAPES)
    if text != text.strip() or "\n" in text:
        return f'<is><t xml:space="preserve">{text}</t></is>'
    return f"<is><t>{text}</t></is>"


class RowWriter:
    """Writes rows 2, 3... of one sheet (the header, row 1, is openpyxl's) to ``out``.

    Text and whole numbers without a format, most of the cells, take a short path; the inline
    strings of the texts met last are kept (names, words and ruling labels come back on every
    round), at most ``TEXTS_KEPT`` of them."""

    TEXTS_KEPT = 50_000

    def __init__(self, ws: WriteOnlyWorksheet, formats: dict[int, str], out: IO[str]) -> None:
        self.out = out
        self.formats = {i: _style_id(ws, f, bold=False) for i, f in formats.items()}
        self.dates = (_style_id(ws, DATE, bold=False), _style_id(ws, TIME, bold=False))
        self.bold = _style_id(ws, None, bold=True)
        self.bold_formats = {i: _style_id(ws, f, bold=True) for i, f in formats.items()}
        self.bold_dates = (_style_id(ws, DATE, bold=True), _style_id(ws, TIME, bold=True))
        self.letters: list[str] = []
        self.texts: dict[str, str] = {}
        self.number = 1  # the header's

    def _text(self, value: str) -> str:
        xml = self.texts.get(value)
        if xml is None:
            if len(self.texts) >= self.TEXTS_KEPT:
                self.texts.clear()
            xml = self.texts[value] = text_xml(value)
        return xml

    def _cell(self, ref: str, i: int, value: Cell, bold: bool) -> str:
        """Any cell, plain or bold (the footer): the long path."""
        plain = f' s="{self.bold}"' if bold else ""
        if isinstance(value, str):
            return f'<c r="{ref}"{plain} t="inlineStr">{self._text(value)}</c>'
        if isinstance(value, bool):
            return f'<c r="{ref}"{plain} t="b"><v>{int(value)}</v></c>'
        if isinstance(value, dt.date):
            dates = self.bold_dates if bold else self.dates
            when = dates[1] if isinstance(value, dt.datetime) else dates[0]
            return f'<c r="{ref}" s="{when}"><v>{excel_serial(value)}</v></c>'
        if isinstance(value, float) and not math.isfinite(value):
            return f'<c r="{ref}"{plain} t="inlineStr">{text_xml(str(value))}</c>'
        formats = self.bold_formats if bold else self.formats
        style = f' s="{formats[i]}"' if i in formats else plain
        return f'<c r="{ref}"{style}><v>{value!r}</v></c>'

    def write(self, row: Row, *, bold: bool = False) -> None:
        """Write ``row`` as the sheet's next row."""
        self.number += 1
        r = self.number
        letters = self.letters
        while len(letters) < len(row):
            letters.append(get_column_letter(len(letters) + 1))
        parts = [f'<row r="{r}">']
        append = parts.append
        formats = self.formats
        for i, value in enumerate(row):
            kind = type(value)
            if value is None or value == "":
                continue
            if kind is str and not bold:
                xml = self.texts.get(value)  # type: ignore[arg-type]
                if xml is None:
                    xml = self._text(value)  # type: ignore[arg-type]
                append(f'<c r="{letters[i]}{r}" t="inlineStr">{xml}</c>')
            elif kind is int and not bold and i not in formats:
                append(f'<c r="{letters[i]}{r}"><v>{value}</v></c>')
            else:
                append(self._cell(f"{letters[i]}{r}", i, value, bold))
        append("</row>")
        self.out.write("".join(parts))

"""The one openpyxl writer every export goes through (the pretix way).

A ``Sheet`` is a title, a header, a generator of rows and the number formats of some columns;
``workbook_write`` writes a list of them into one .xlsx workbook in openpyxl's write-only mode
(rows stream to the file, so a sheet of 100,000 slips never sits in memory as cells):

- the header row is bold and frozen;
- numbers stay numbers (``int``/``float`` cells, with the column's number format if it has one);
- text stays text: a string starting with ``=`` is written as a string, never as a formula;
- columns are sized from the header and the first ``SIZING_ROWS`` rows (write-only mode needs
  the widths before the first row is written).

The workbook's properties (``About``: title, subject and named custom properties, which Excel
shows under File > Info) carry what no column holds, such as the word list played.

``csv_write`` writes one sheet as CSV, safe against formula injection (OWASP): a text cell
starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``;
numbers are written as numbers (a gap of -23 stays ``-23``).
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

from django.utils.translation import gettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.packaging.custom import IntProperty, StringProperty
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell as XlCell

Cell = str | int | float | None
Row = Sequence[Cell]
Progress = Callable[[int, str], None]

SIZING_ROWS = 200
MIN_WIDTH, MAX_WIDTH = 6, 60
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
BOLD = Font(bold=True)


@dataclass
class Sheet:
    """One sheet: ``rows`` is any iterable (usually a generator, run only when written).

    ``formats`` maps a column index (0-based) to an Excel number format (``"0.00"``);
    ``finish(ws, rows_written)`` runs after the rows, e.g. to add a chart.
    """

    title: str
    header: Sequence[str | int]
    rows: Iterable[Row]
    formats: dict[int, str] = field(default_factory=dict)
    finish: Callable[[WriteOnlyWorksheet, int], None] | None = None


@dataclass
class About:
    """The workbook's document properties: its title, subject, and custom properties by name."""

    title: str
    subject: str = ""
    custom: dict[str, str | int] = field(default_factory=dict)


def _about_write(wb: Workbook, about: About) -> None:
    wb.properties.title = about.title
    wb.properties.subject = about.subject
    # Workbook.custom_doc_props is set in Workbook.__init__ (openpyxl 3.1); the types-openpyxl
    # stub leaves it out.
    props = wb.custom_doc_props  # type: ignore[attr-defined]
    for name, value in about.custom.items():
        if isinstance(value, int):
            props.append(IntProperty(name=name, value=value))
        else:
            props.append(StringProperty(name=name, value=value))


def _width(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, float):
        return len(f"{value:.2f}")
    return len(str(value))


def _sized(sheet: Sheet) -> tuple[list[int], Iterator[Row]]:
    """Column widths from the header and the first rows, and all the rows (none consumed)."""
    rows = iter(sheet.rows)
    first = list(itertools.islice(rows, SIZING_ROWS))
    widths = [_width(h) for h in sheet.header]
    for row in first:
        for i, value in enumerate(row):
            if i < len(widths):
                widths[i] = max(widths[i], _width(value))
            else:
                widths.append(_width(value))
    sized = [min(MAX_WIDTH, max(MIN_WIDTH, w + 2)) for w in widths]
    return sized, itertools.chain(first, rows)


def _text_cell(ws: WriteOnlyWorksheet, value: str) -> XlCell:
    cell = WriteOnlyCell(ws, value=value)
    cell.data_type = "s"  # a name like "=cmd|..." stays text, never a formula
    return cell


def _sheet_write(ws: WriteOnlyWorksheet, sheet: Sheet) -> int:
    widths, rows = _sized(sheet)
    # Worksheet._setup gives a write-only sheet its column_dimensions at run time; the
    # types-openpyxl stub of WriteOnlyWorksheet leaves the attribute out.
    columns = ws.column_dimensions  # type: ignore[attr-defined]
    for i, width in enumerate(widths, start=1):
        columns[get_column_letter(i)].width = width
    ws.freeze_panes = "A2"
    header = []
    for title in sheet.header:
        cell = WriteOnlyCell(ws, value=title)
        cell.font = BOLD
        header.append(cell)
    ws.append(header)
    formats = sheet.formats
    count = 0
    for row in rows:
        out: list[Any] = list(row)
        for i, value in enumerate(out):
            if isinstance(value, str):
                if value.startswith("="):
                    out[i] = _text_cell(ws, value)
            elif i in formats and isinstance(value, int | float):
                cell = WriteOnlyCell(ws, value=value)
                cell.number_format = formats[i]
                out[i] = cell
        ws.append(out)
        count += 1
    if sheet.finish is not None:
        sheet.finish(ws, count)
    return count


def workbook_write(
    sheets: Sequence[Sheet],
    out: IO[bytes],
    *,
    progress: Progress | None = None,
    about: About | None = None,
) -> None:
    """Write ``sheets`` in order into one .xlsx workbook on ``out`` (with ``about`` as its
    document properties).

    ``progress(percent, message)`` is called before each sheet and at the end (100), so a
    background job can show how far it got.
    """
    wb = Workbook(write_only=True)
    if about is not None:
        _about_write(wb, about)
    total = len(sheets)
    for i, sheet in enumerate(sheets):
        if progress is not None:
            progress(
                int(100 * i / (total + 1)), gettext("Writing %(sheet)s") % {"sheet": sheet.title}
            )
        _sheet_write(wb.create_sheet(title=sheet.title), sheet)
    if progress is not None:
        progress(int(100 * total / (total + 1)), gettext("Saving the workbook"))
    wb.save(out)
    if progress is not None:
        progress(100, gettext("Done"))


def csv_safe(value: Cell) -> Cell:
    """A CSV cell that no spreadsheet runs as a formula: text starting with a trigger gets
    a leading ``'``; numbers are left as numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def csv_write(sheet: Sheet, out: IO[str]) -> int:
    """Write one sheet (header and rows) as CSV on the text stream ``out``; return the rows."""
    writer = csv.writer(out)
    writer.writerow([csv_safe(h) for h in sheet.header])
    count = 0
    for row in sheet.rows:
        writer.writerow([csv_safe(v) for v in row])
        count += 1
    return count

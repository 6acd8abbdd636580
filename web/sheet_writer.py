"""The one openpyxl writer every export goes through (the pretix way).

A ``Sheet`` is a title, a header, a generator of rows and the number formats of some columns;
``workbook_write`` writes a list of them into one .xlsx workbook: openpyxl's write-only mode
writes the workbook and each sheet's header, the rows stream to a temporary file as worksheet
XML (``rows_xml.RowWriter``, ten times faster than a cell object per value) and go in after
the header row as the workbook is copied to ``out``; a sheet of 100,000 slips never sits in
memory:

- the header row is bold and frozen;
- numbers stay numbers (``int``/``float`` cells, with the column's number format if it has one);
- text stays text: a string starting with ``=`` is an inline string, never a formula;
- dates and times are dates (``yyyy-mm-dd``, ``yyyy-mm-dd hh:mm``: a time is the local time,
  naive, its zone said beside it);
- a header cell may carry a note (an Excel comment) saying what its column counts;
- a sheet may end with a footer row (a totals row), bold, after the rows: ``finish`` and the
  count of rows written do not include it;
- columns are sized from the header and the first ``SIZING_ROWS`` rows (write-only mode needs
  the widths before the first row is written).

The workbook's properties (``About``: title, subject and named custom properties, which Excel
shows under File > Info) carry what no column holds, such as the word list played.

``csv_write`` writes one sheet as CSV, safe against formula injection (OWASP): a text cell
starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'``;
numbers are written as numbers (a gap of -23 stays ``-23``), dates as ``2026-11-24`` and
times as ``2026-11-24 18:30``; the footer row, if any, comes last.
"""

from __future__ import annotations

import csv
import datetime as dt
import itertools
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.comments import Comment
from openpyxl.packaging.custom import IntProperty, StringProperty
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from tournament.typography import percent_excel_format, percent_number
from web.rows_xml import BOLD, TIME, Cell, Row, RowWriter

__all__ = ["Cell", "Progress", "Row", "Sheet", "csv_safe", "csv_write", "workbook_write"]

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell as XlCell

Progress = Callable[[int, str], None]

SIZING_ROWS = 200
MIN_WIDTH, MAX_WIDTH = 6, 60
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
COMPRESSION = 1  # deflate level: the sheets' XML shrinks as much, several times faster than 6
SPLICE_CHUNK = 1 << 20
NOTE_AUTHOR = "duplicate-scrabble"
NOTE_WIDTH, NOTE_HEIGHT = 300, 120  # points: a note's box, wide enough for two sentences


@dataclass
class Sheet:
    """One sheet: ``rows`` is any iterable (usually a generator, run only when written).

    ``formats`` maps a column index (0-based) to an Excel number format (``"0.00"``);
    ``percents`` are the columns of percentages (17.2 for 17.2 %): shown as the language in
    force writes them (``tournament.typography``: ``17,20 %`` in French, ``17.20%``), and
    written in a CSV file as that number (``17,20`` under its ``Top %`` header);
    ``notes`` a column index to what the column counts, a note on its header cell;
    ``footer()`` gives a last row (a totals row), asked for once the rows are written, so it
    can add up what they streamed; ``finish(ws, rows_written)`` runs after the rows (the
    footer not counted), e.g. to add a chart.
    """

    title: str
    header: Sequence[str | int]
    rows: Iterable[Row]
    formats: dict[int, str] = field(default_factory=dict)
    finish: Callable[[WriteOnlyWorksheet, int], None] | None = None
    notes: dict[int, str] = field(default_factory=dict)
    footer: Callable[[], Row] | None = None
    percents: tuple[int, ...] = ()


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
    if isinstance(value, dt.datetime):
        return len(TIME)
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


def _header_cell(ws: WriteOnlyWorksheet, title: str | int, note: str | None) -> XlCell:
    cell = WriteOnlyCell(ws, value=title)
    cell.font = BOLD
    if note:
        cell.comment = Comment(note, NOTE_AUTHOR, width=NOTE_WIDTH, height=NOTE_HEIGHT)
    return cell


def _sheet_write(ws: WriteOnlyWorksheet, sheet: Sheet, body: IO[str]) -> int:
    """The header through openpyxl, the rows and the footer as XML on ``body`` (``RowWriter``);
    returns the rows written (the footer not counted)."""
    if not sheet.header:
        raise ValueError(f"sheet {sheet.title!r} has no header")
    widths, rows = _sized(sheet)
    # Worksheet._setup gives a write-only sheet its column_dimensions at run time; the
    # types-openpyxl stub of WriteOnlyWorksheet leaves the attribute out.
    columns = ws.column_dimensions  # type: ignore[attr-defined]
    for i, width in enumerate(widths, start=1):
        columns[get_column_letter(i)].width = width
    ws.freeze_panes = "A2"
    ws.append([_header_cell(ws, t, sheet.notes.get(i)) for i, t in enumerate(sheet.header)])
    shown = percent_excel_format()
    writer = RowWriter(ws, sheet.formats | dict.fromkeys(sheet.percents, shown), body)
    count = 0
    for row in rows:
        writer.write(row)
        count += 1
    if sheet.footer is not None:
        writer.write(sheet.footer(), bold=True)
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
    with tempfile.TemporaryDirectory(prefix="export-") as folder:
        bodies: list[tuple[WriteOnlyWorksheet, Path]] = []
        for i, sheet in enumerate(sheets):
            if progress is not None:
                progress(
                    int(100 * i / (total + 1)),
                    gettext("Writing %(sheet)s") % {"sheet": sheet.title},
                )
            ws = wb.create_sheet(title=sheet.title)
            body = Path(folder) / f"{i}.xml"
            with body.open("w", encoding="utf-8") as rows:
                _sheet_write(ws, sheet, rows)
            bodies.append((ws, body))
        if progress is not None:
            progress(int(100 * total / (total + 1)), gettext("Saving the workbook"))
        book = Path(folder) / "book.xlsx"
        wb.save(book)
        # a saved sheet knows its part in the package: /xl/worksheets/sheetN.xml
        _rows_put_in(book, {ws.path.lstrip("/"): body for ws, body in bodies}, out)
    if progress is not None:
        progress(100, gettext("Done"))


def _rows_put_in(book: Path, bodies: dict[str, Path], out: IO[bytes]) -> None:
    """Copy the workbook ``book`` to ``out``, each sheet's rows (``bodies``, by the sheet's
    part) put in after its header row: the first ``</row>`` of the part."""
    with (
        zipfile.ZipFile(book) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=COMPRESSION) as target,
    ):
        for info in source.infolist():
            data = source.read(info.filename)
            body = bodies.pop(info.filename, None)
            if body is None:
                target.writestr(info.filename, data)
                continue
            head, end, tail = data.partition(b"</row>")
            if not end:
                raise ValueError(f"{info.filename}: no header row to put the rows after")
            with target.open(info.filename, "w") as part, body.open("rb") as rows:
                part.write(head + end)
                shutil.copyfileobj(rows, part, SPLICE_CHUNK)
                part.write(tail)
    if bodies:
        raise ValueError(f"sheets missing from the saved workbook: {sorted(bodies)}")


def csv_safe(value: Cell) -> Cell:
    """A CSV cell that no spreadsheet runs as a formula: text starting with a trigger gets
    a leading ``'``; numbers are left as numbers; a time to the minute, as in the workbook."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    return value


# How a language's spreadsheets read a CSV file: French Excel (and LibreOffice in French) split
# on ";" and read "12,5" as a number, as they write them; English keeps "," and "12.5" (the
# outside tools that read the files read an English event's). A language is a line here.
CSV_DIALECTS: dict[str, tuple[str, str]] = {"fr": (";", ",")}  # (separator, decimal mark)


def csv_write(sheet: Sheet, out: IO[str]) -> int:
    """Write one sheet (header and rows) as CSV on the text stream ``out``, as the spreadsheets
    of the language in force read it (``CSV_DIALECTS``); return the rows."""
    language = (translation.get_language() or "en").split("-")[0]
    separator, mark = CSV_DIALECTS.get(language, (",", "."))
    writer = csv.writer(out, delimiter=separator)

    percents = set(sheet.percents)

    def cell(value: Cell, column: int = -1) -> Cell:
        if column in percents and isinstance(value, float | int) and not isinstance(value, bool):
            return percent_number(float(value), language)
        if mark != "." and isinstance(value, float | Decimal) and not isinstance(value, bool):
            return str(value).replace(".", mark)
        return csv_safe(value)

    def line(values: Row) -> list[Cell]:
        return [cell(v, i) for i, v in enumerate(values)]

    writer.writerow([cell(h) for h in sheet.header])
    count = 0
    for row in sheet.rows:
        writer.writerow(line(row))
        count += 1
    if sheet.footer is not None:
        writer.writerow(line(sheet.footer()))
    return count

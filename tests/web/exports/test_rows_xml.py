"""The fast row writer (``web.rows_xml``) put into openpyxl's workbook: what openpyxl
reads back is what the sheet held, typed and styled, with no database needed."""

from __future__ import annotations

import datetime as dt
import io

from openpyxl import load_workbook

from web.rows_xml import excel_serial, text_xml
from web.sheet_writer import Sheet, csv_write, workbook_write

ROWS = [
    ("Ann & Bob <club>", 24, 79.17, dt.date(2026, 5, 1), dt.datetime(2026, 11, 24, 18, 45)),
    ('=HYPERLINK("x")', -23, 100.0, None, None),
    ("  spaced  ", 0, 0.5, "", None),
    ("bell\x07and\x00nul", 2**31, 1e-3, None, None),
    ("line\nbreak", None, None, None, None),
]


def _book(sheets: list[Sheet]):
    out = io.BytesIO()
    workbook_write(sheets, out)
    return load_workbook(io.BytesIO(out.getvalue()))


def test_every_kind_of_cell_reads_back_as_written() -> None:
    sheet = Sheet(
        title="Cells",
        header=["Name", "Gap", "Top %", "Day", "Time"],
        rows=iter(ROWS),
        formats={2: "0.00"},
        footer=lambda: ("Total", 1, 2.5, None, None),
    )
    ws = _book([sheet])["Cells"]
    rows = list(ws.iter_rows(values_only=True))
    assert rows[0] == ("Name", "Gap", "Top %", "Day", "Time")
    assert rows[1] == ROWS[0][:3] + (dt.datetime(2026, 5, 1), dt.datetime(2026, 11, 24, 18, 45))
    assert rows[2] == ('=HYPERLINK("x")', -23, 100, None, None)
    assert ws["A3"].data_type == "s"  # text, never a formula
    assert rows[3] == ("  spaced  ", 0, 0.5, None, None)  # spaces kept, "" left empty
    assert rows[4] == ("bellandnul", 2**31, 1e-3, None, None)  # no character XML cannot hold
    assert rows[5] == ("line\nbreak", None, None, None, None)
    assert rows[6] == ("Total", 1, 2.5, None, None)
    assert ws["C2"].number_format == "0.00" and ws["B2"].number_format == "General"
    assert ws["D2"].number_format == "yyyy-mm-dd" and ws["E2"].number_format == "yyyy-mm-dd hh:mm"
    assert [ws.cell(row=7, column=c).font.b for c in (1, 2, 3)] == [True, True, True]
    assert ws["C7"].number_format == "0.00" and not ws["A2"].font.b
    assert ws["A1"].font.b and ws.freeze_panes == "A2"


def test_sheets_keep_their_order_and_their_own_rows() -> None:
    sheets = [Sheet(title=f"S{n}", header=["n"], rows=iter([(n,), (n * 10,)])) for n in range(1, 4)]
    book = _book(sheets)
    assert book.sheetnames == ["S1", "S2", "S3"]
    for n in range(1, 4):
        assert list(book[f"S{n}"].iter_rows(values_only=True)) == [("n",), (n,), (n * 10,)]


def test_a_sheet_with_no_rows_has_its_header_and_its_footer() -> None:
    sheet = Sheet(
        title="Empty", header=["Round", "Score"], rows=iter([]), footer=lambda: ("Total", 0)
    )
    rows = list(_book([sheet])["Empty"].iter_rows(values_only=True))
    assert rows == [("Round", "Score"), ("Total", 0)]


def test_excel_counts_days_from_the_end_of_1899() -> None:
    assert excel_serial(dt.date(1900, 3, 1)) == 61
    assert excel_serial(dt.datetime(2026, 1, 1, 12)) == 46023.5
    assert text_xml("a<b") == "<is><t>a&lt;b</t></is>"


def test_the_csv_of_a_sheet_has_the_same_cells_and_its_footer() -> None:
    sheet = Sheet(
        title="Cells",
        header=["Name", "Gap"],
        rows=iter([("=1+1", -23)]),
        footer=lambda: ("Total", -23),
    )
    out = io.StringIO()
    assert csv_write(sheet, out) == 1
    assert out.getvalue().splitlines() == ["Name,Gap", "'=1+1,-23", "Total,-23"]

"""Player lists as French clubs and other programs write them: French or English headers (any
case, accents or not), ``;`` or ``,``, UTF-8 with or without a byte-order mark, UTF-16 and
Windows-1252 read, Shift-JIS and unknown encodings refused by name, a control character refused
with its row, and an .xlsx whose one row is numbered 2,000,000,000 refused at once, never
counted to (``bench/imports.py`` measures its time and memory)."""

from __future__ import annotations

import io
import random
import time
import tracemalloc
import zipfile

import pytest
from django.utils import translation
from openpyxl import Workbook

from tournament.models import Event
from tournament.services.player_imports import (
    MAX_LINES,
    MAX_ROWS,
    PlayerImportError,
    players_import,
)

pytestmark = pytest.mark.django_db

FRENCH = (
    "Nom;Prénom;Club;Licence;Série;Catégorie;Table\n"
    "Dupont;Élodie;Liège;123;S2;Vermeil;1\n"
    "Zéro;Yves;Lyon;456;3;senior;2\n"
)


def imported(event: Event, content: bytes, name: str = "joueurs.csv") -> list[tuple]:
    players = players_import(event=event, file_name=name, content=content, actor=None)
    return [(p.name, p.club, p.licence, p.series, p.age_category, p.table) for p in players]


def refused(event: Event, content: bytes, name: str = "joueurs.csv") -> list[tuple]:
    with pytest.raises(PlayerImportError) as caught:
        players_import(event=event, file_name=name, content=content, actor=None)
    return [(e.row, e.message) for e in caught.value.errors]


EXPECTED = [
    ("Élodie Dupont", "Liège", "123", 2, "Vermeil", 1),
    ("Yves Zéro", "Lyon", "456", 3, "Senior", 2),
]


@pytest.mark.parametrize(
    "header",
    [
        "Nom;Prénom;Club;Licence;Série;Catégorie;Table",
        "NOM;PRENOM;CLUB;LICENCE;SERIE;CATEGORIE;TABLE",
        "nom;prénom;club;N° de licence;série;Catégorie d’âge;N° table",
        "name;first name;club;licence;series;age category;table",
    ],
)
def test_french_and_english_headers_in_any_case_with_or_without_accents_import(
    event: Event, header: str
) -> None:
    content = (header + "\n" + FRENCH.split("\n", 1)[1]).encode()
    assert imported(event, content) == EXPECTED


def test_commas_and_windows_1252_import(event: Event) -> None:
    assert imported(event, FRENCH.replace(";", ",").encode("cp1252")) == EXPECTED


@pytest.mark.parametrize(
    "encoded",
    [
        FRENCH.encode("utf-8-sig"),
        FRENCH.encode("utf-16"),  # with its byte-order mark, as Excel's "Unicode text"
        FRENCH.encode("utf-16-le"),  # without one
        FRENCH.encode("utf-16-be"),
    ],
    ids=["utf-8-bom", "utf-16-bom", "utf-16-le", "utf-16-be"],
)
def test_utf_8_with_a_bom_and_utf_16_import(event: Event, encoded: bytes) -> None:
    assert imported(event, encoded) == EXPECTED


def test_shift_jis_is_refused_by_name_not_read_as_garbled_names(event: Event) -> None:
    content = "name,club\n山田太郎,東京\n佐藤花子,大阪\n".encode("shift_jis")
    ((row, message),) = refused(event, content)
    assert row is None and "The file is in Shift-JIS" in message and "UTF-8" in message


@pytest.mark.parametrize("seed", range(20))
def test_random_bytes_are_refused_as_no_text_not_read_as_shift_jis(event: Event, seed: int) -> None:
    """Issue 34: random bytes uploaded as a player list were said to be "in Shift-JIS"."""
    content = random.Random(seed).randbytes(2000 + 500 * seed)
    ((row, message),) = refused(event, content)
    assert row is None and message.startswith("The file is not a text file"), message


def test_an_encoding_that_reads_as_no_western_text_is_refused(event: Event) -> None:
    content = b"name,club\n\x81,x\n\x8d,y\n"  # bytes Windows-1252 has no letter for
    ((row, message),) = refused(event, content)
    assert row is None and "not recognised" in message


@pytest.mark.parametrize(
    ("content", "row", "said"),
    [
        (
            b'name,club\nAda,Lyon\n"Bob\nLe Bris",Brest\n',
            3,
            "name holds a control character (U+000A)",
        ),
        (b"name,club\nAda,Ly\x1bon\n", 2, "club holds a control character (U+001B)"),
    ],
)
def test_a_control_character_is_refused_with_its_row(
    event: Event, content: bytes, row: int, said: str
) -> None:
    errors = refused(event, content)
    assert [r for r, _ in errors] == [row] and said in errors[0][1]


def test_an_unknown_header_lists_the_accepted_names_in_the_pages_language(event: Event) -> None:
    with translation.override("fr"):
        errors = refused(event, b"Nom;Pseudo\nAda;ada\n")
    assert errors == [
        (
            1,
            "Colonne inconnue «\u00a0Pseudo\u00a0» (attendues\u00a0: Nom, Prénom, Club, Étiquette, "
            "Licence, Table, Série, Catégorie).",
        )
    ]
    with translation.override("en"):
        errors = refused(event, b"Player name,club\nAda,Lyon\n")
    assert "expected: name, first name, club, category, licence" in errors[0][1]


def xlsx(rows: dict[int, list[str]]) -> bytes:
    """A real workbook (openpyxl's) whose sheet has these rows, numbered as given: the sheet's
    XML is written here, as any program may write it (openpyxl itself refuses rows past
    1,048,576 and control characters in cells)."""
    book = Workbook()
    book.active.append(["placeholder"])
    out = io.BytesIO()
    book.save(out)
    cells = "".join(
        f'<row r="{number}">'
        + "".join(
            f'<c r="{chr(65 + i)}{number}" t="inlineStr"><is><t>{text}</t></is></c>'
            for i, text in enumerate(values)
        )
        + "</row>"
        for number, values in rows.items()
    )
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<sheetData>{cells}</sheetData></worksheet>"
    )
    rewritten = io.BytesIO()
    with zipfile.ZipFile(out) as source, zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as z:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = sheet.encode()
            z.writestr(item, data)
    return rewritten.getvalue()


def test_an_xlsx_with_a_row_numbered_two_billion_is_refused_at_that_row(event: Event) -> None:
    content = xlsx({1: ["name", "club"], 2: ["Ada", "Lyon"], 2_000_000_000: ["Far", "away"]})
    assert len(content) < 6000
    assert refused(event, content, "joueurs.xlsx") == [
        (2_000_000_000, f"Too many rows: at most {MAX_ROWS} players per file.")
    ]


def test_an_xlsx_keeps_its_own_row_numbers_across_a_gap(event: Event) -> None:
    content = xlsx({1: ["Nom", "Club"], 2: ["Ada", "Lyon"], 40: ["Bob", "Br&#10;est"]})
    assert [row for row, _ in refused(event, content, "joueurs.xlsx")] == [40]
    content = xlsx({1: ["Nom", "Club"], 2: ["Ada", "Lyon"], 40: ["Bob", "Brest"]})
    assert [name for name, *_ in imported(event, content, "joueurs.xlsx")] == ["Ada", "Bob"]


MB = 1024 * 1024
CSV_BOMBS = {
    # 2 MB of newlines took 19 s of processor, skipped one blank line at a time.
    "2 MB of blank lines": (
        b"Name\n" + b"\n" * (2 * MB - 10),
        (MAX_LINES + 1, f"Too many lines: at most {MAX_LINES} lines per file (players and "),
    ),
    "a header of a million commas": (
        b"Name" + b"," * (2 * MB - 10) + b"\n",
        (1, "Too many columns: at most 1000 per line."),
    ),
    "a player of a million commas": (
        b"Name,Club\nAda" + b"," * (2 * MB - 20) + b"\n",
        (2, "Too many columns: at most 1000 per line."),
    ),
    "one field of 2 MB": (
        b'Name\n"' + b"x" * (2 * MB - 10) + b'"\n',
        (None, "The file could not be read (Error: field larger than field limit (131072))."),
    ),
}


@pytest.mark.parametrize("name", CSV_BOMBS)
def test_a_hostile_csv_is_refused_before_its_lines_are_read_in_little_time_and_memory(
    event: Event, name: str
) -> None:
    content, (row, said) = CSV_BOMBS[name]
    tracemalloc.start()
    started = time.process_time()
    errors = refused(event, content)
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert errors[0][0] == row and errors[0][1].startswith(said), errors
    assert cpu < 1.0, f"{cpu:.2f} s of processor"
    assert peak < 64 * MB, f"{peak / MB:.0f} MB"


def test_a_csv_of_5000_players_and_as_many_blank_lines_after_still_imports(event: Event) -> None:
    rows = [f"P{n},Club,{n}" for n in range(1, MAX_ROWS + 1)]
    content = ("Name,Club,Table\n" + "\n".join(rows) + "\n" * (MAX_ROWS + 1)).encode()
    assert content.count(b"\n") == MAX_LINES
    assert len(imported(event, content)) == MAX_ROWS

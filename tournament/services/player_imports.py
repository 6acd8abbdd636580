"""Import a player list from .xlsx or .csv: all or nothing.

Columns, in any order, headed in English or in French, any case, accents or not (``HEADERS``:
``Nom``, ``Prénom``, ``Club``, ``Licence``, ``Table``, ``Série``, ``Catégorie``...): name
(required; a ``first name``/``Prénom`` column goes before it), club, category (a free label),
licence, table, series (1 to 7, ``S3`` read as 3), age_category (the FISF's, any case, accents
or not: ``tournament.categories``; a French sheet's ``Catégorie`` or ``Cat`` is this one). A
refused header lists the names accepted in the page's language.

Read as the file is: an .xlsx row by row as stored (a row numbered 2,000,000,000 is refused at
once, never reached by counting); a .csv in UTF-8 (with or without a byte-order mark), UTF-16
(with a byte-order mark, or recognised by its zero bytes) or Windows-1252, separated by ``,``,
``;`` or tabs; Shift-JIS and other encodings are refused by name. A cell holding a control
character (a line break inside a name, an escape) is refused with its row, as it would break
the exports. Every row is checked first;
each bad row is reported with its row number (the spreadsheet's: the header is row 1) and
why; nothing is created unless the whole file is clean. Then every player is registered
in one transaction, with the checks of ``player_register`` (made once for the whole file by
``players_check``, the database's unique constraints catching a registration made meanwhile),
one ``tournament.player.registered`` audit entry each and one ``tournament.players.imported``.
The licences of an imported list are confirmed (``Player.licence_confirmed``): the director's
(the importing account's), or the federation's when a superuser or the command line imports it;
a licence typed at registration never is (rules.md, "A player's history").

Bounded: at most ``MAX_BYTES`` (refused before it is read), ``MAX_ROWS`` players and
``MAX_COLUMNS`` columns, a CSV of at most ``MAX_LINES`` lines of ``MAX_FIELDS`` fields (counted in
C before it is parsed), an .xlsx whose contents unpack to at most ``MAX_UNPACKED_BYTES``;
the writes are a few bulk queries (5,000 players: about a second, not one query per row).
"""

from __future__ import annotations

import codecs
import csv
import io
import unicodedata
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext, ngettext

from tournament.categories import age_category_parse, series_parse
from tournament.errors import ApplicationError
from tournament.models import Event, LicenceConfirmation, Player
from tournament.services.audit import audit_record, audit_record_many
from tournament.vocabulary import TABLE_MAX, TABLE_MIN, control_character_in, is_noncharacter

COLUMNS = ("name", "club", "category", "licence", "table", "series", "age_category")
FIRST_NAME = "first_name"  # joined before the name: "Prénom" "Nom" -> "Prénom Nom"
# The headers each column answers to, as they read once folded (``_folded``: lower case, no
# accent, words apart): in English, then in French.
HEADERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "name": (("name", "player", "surname", "last name"), ("nom", "joueur", "nom du joueur")),
    FIRST_NAME: (("first name", "given name", "forename"), ("prenom",)),
    "club": (("club",), ("club",)),
    "category": (("category", "label", "group"), ("etiquette", "groupe")),
    "licence": (
        ("licence", "license", "licence number", "license number"),
        ("licence", "n licence", "n de licence", "no licence", "numero de licence"),
    ),
    "table": (("table", "table number"), ("table", "n table", "n de table", "numero de table")),
    "series": (("series", "serie"), ("serie", "series")),
    "age_category": (
        ("age category", "age", "age group"),
        ("categorie", "cat", "categorie d age", "categorie age", "age"),
    ),
}
ALIASES = {alias: column for column, names in HEADERS.items() for said in names for alias in said}
# The same headers as a person writes them, for the import page (a French club's sheet says
# "Prénom" whatever the director's language): each column, its English then its French
# headers. A test folds them back to ``HEADERS``, so the page names what is read (all of it
# but ``No licence``, which is ``N° licence`` typed without its sign).
HEADERS_WRITTEN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "name": (("name", "player", "surname", "last name"), ("Nom", "Joueur", "Nom du joueur")),
    FIRST_NAME: (("first name", "given name", "forename"), ("Prénom",)),
    "club": (("club",), ("Club",)),
    "category": (("category", "label", "group"), ("Étiquette", "Groupe")),
    "licence": (
        ("licence", "license", "licence number", "license number"),
        ("Licence", "N° licence", "N° de licence", "Numéro de licence"),  # and N° typed No
    ),
    "table": (("table", "table number"), ("Table", "N° table", "N° de table", "Numéro de table")),
    "series": (("series", "serie"), ("Série",)),
    "age_category": (
        ("age category", "age", "age group"),
        ("Catégorie", "Cat", "Catégorie d’âge", "Catégorie âge", "Âge"),
    ),
}
# What a refused header lists, in the page's language: each column's first name in it.
SHOWN = {
    "en": ("name", "first name", "club", "category", "licence", "table", "series", "age category"),
    "fr": ("Nom", "Prénom", "Club", "Étiquette", "Licence", "Table", "Série", "Catégorie"),
}
LIMITS = {"name": 120, "club": 120, "category": 40, "licence": 40}
MAX_ROWS = 5000
MAX_COLUMNS = 50
# A CSV's lines (players and blank lines) and the fields of one line, counted in C before the
# csv module reads a line: 2 MB of newlines took 19 s of processor, skipped one by one.
MAX_LINES = 2 * MAX_ROWS + 1
MAX_FIELDS = 1000
MAX_BYTES = 2 * 1024 * 1024
MAX_UNPACKED_BYTES = 50 * 1024 * 1024  # an .xlsx is a zip: no zip bomb


@dataclass(frozen=True)
class RowError:
    row: int | None  # None: the file as a whole
    message: str

    def __str__(self) -> str:
        if self.row is None:
            return self.message
        return gettext("Row %(row)s: %(problem)s") % {"row": self.row, "problem": self.message}


class PlayerImportError(ApplicationError):
    """The file was refused; ``errors`` lists every problem found (nothing was imported)."""

    def __init__(self, errors: list[RowError]) -> None:
        count = len(errors)
        super().__init__(
            ngettext(
                "Nothing imported: %(count)s problem in the file.",
                "Nothing imported: %(count)s problems in the file.",
                count,
            )
            % {"count": count},
            code="bad_file",
            data={"errors": [{"row": e.row, "message": e.message} for e in errors]},
        )
        self.errors = errors


@dataclass(frozen=True)
class PlayerRow:
    row: int
    name: str
    club: str
    category: str
    licence: str
    table: int | None
    series: int | None = None
    age_category: str = ""


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # a licence typed as a number in Excel: 12345.0 -> "12345"
    return str(value).strip()


def _rows_xlsx(content: bytes) -> Iterator[tuple[int, list[Any]]]:
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        unpacked = 0  # openpyxl says why below
    if unpacked > MAX_UNPACKED_BYTES:
        raise PlayerImportError(
            [
                RowError(
                    None,
                    gettext("The workbook unpacks to more than %(size)s MB.")
                    % {"size": MAX_UNPACKED_BYTES // 2**20},
                )
            ]
        )
    try:
        wb = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # zip, XML, anything openpyxl cannot read
        raise PlayerImportError(
            [
                RowError(
                    None,
                    gettext("The file is not a readable .xlsx workbook (%(kind)s).")
                    % {"kind": type(exc).__name__},
                )
            ]
        ) from exc
    try:
        yield from _sheet_rows(wb, wb.worksheets[0])
    finally:
        wb.close()


def _sheet_rows(wb: Any, ws: Any) -> Iterator[tuple[int, list[Any]]]:
    """The sheet's rows as stored, each with its own number. openpyxl's ``iter_rows`` fills
    the rows a file skips, so a sheet with one row numbered 2,000,000,000 would be counted to
    the end; the rows are read with openpyxl's own sheet parser instead (openpyxl 3.1, below 4:
    ``tests/tournament/test_imports_files.py`` fails if that parser changes), and a row past
    the bound is refused as soon as it is met."""
    from openpyxl.worksheet._reader import WorkSheetParser

    with ws._get_source() as source:
        parser = WorkSheetParser(
            source,
            ws._shared_strings,
            data_only=True,
            epoch=wb.epoch,
            date_formats=wb._date_formats,
            timedelta_formats=wb._timedelta_formats,
        )
        for number, cells in parser.parse():
            if number > MAX_ROWS + 1:
                raise PlayerImportError([_too_many(number)])
            values: list[Any] = []
            for cell in cells:
                column = cell["column"]
                if column <= MAX_COLUMNS:
                    values.extend([None] * (column - len(values) - 1))
                    values.append(cell["value"])
            yield number, values


def _too_many(number: int) -> RowError:
    return RowError(
        number,
        gettext("Too many rows: at most %(count)s players per file.") % {"count": MAX_ROWS},
    )


# Byte-order marks, and the encodings they say.
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


def _decoded(content: bytes) -> str:
    """The CSV file's text: UTF-8 (a byte-order mark or not), UTF-16 (a byte-order mark, or
    zero bytes in every other place), else Windows-1252 when it reads as Western text. Any
    other encoding (Shift-JIS, ...) is refused by name rather than read as garbled names."""
    for bom, encoding, name in _BOMS:
        if content.startswith(bom):
            return _decode(content, encoding, name)
    head = content[:2000]
    if len(head) >= 4 and head[0::2].count(0) == 0 and head[1::2].count(0) > len(head) // 4:
        return _decode(content, "utf-16-le", "UTF-16")
    if len(head) >= 4 and head[1::2].count(0) == 0 and head[0::2].count(0) > len(head) // 4:
        return _decode(content, "utf-16-be", "UTF-16")
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if _binary(content):
        raise PlayerImportError(
            [
                RowError(
                    None,
                    gettext(
                        "The file is not a text file: it holds bytes no text holds (random "
                        "data, a picture, a document?). Save the list as CSV or .xlsx and "
                        "import it again."
                    ),
                )
            ]
        )
    western = _western(content)
    if western is not None:
        return western
    if _japanese(content):
        raise PlayerImportError([_encoding_refused("Shift-JIS")])
    raise PlayerImportError([_encoding_refused("")])


def _binary(content: bytes) -> bool:
    """The head holds control bytes (other than tab, line feed, carriage return, and the
    form feed some exports leave): no text file in a one-byte encoding or UTF-8 does. Random
    bytes hold one in nine."""
    head = content[:4000]
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13)) + head.count(127)
    return controls > max(2, len(head) // 200)


def _japanese(content: bytes) -> bool:
    """The head reads as Shift-JIS without an error (a multi-byte letter cut at its end
    aside) and is mostly Japanese beyond ASCII: kana and kanji."""
    decoder = codecs.getincrementaldecoder("shift_jis")()
    try:
        text = decoder.decode(content[:4000], final=False)
    except UnicodeDecodeError:
        return False
    high = [ch for ch in text if ord(ch) > 127]
    japanese = sum(1 for ch in high if "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff")
    return bool(high) and japanese >= 0.8 * len(high)


# What Western text holds beyond ASCII besides letters: typographic quotes, dashes, signs.
_WESTERN_SIGNS = frozenset("’‘“”«»–—…€°·ºª§")


def _western(content: bytes) -> str | None:
    """The file read as Windows-1252, when what its head holds beyond ASCII reads as Western
    text (mostly accented letters); None otherwise (another encoding read wrongly)."""
    try:
        text = content.decode("cp1252")
    except UnicodeDecodeError:
        return None
    high = fitting = 0
    for ch in text[:65536]:  # the head tells the encoding: no need to walk 2 MB
        if ord(ch) > 127:
            high += 1
            fitting += ch.isalpha() or ch in _WESTERN_SIGNS
    return text if fitting >= high * 0.8 else None


def _decode(content: bytes, encoding: str, name: str) -> str:
    try:
        return content.decode(encoding)
    except UnicodeDecodeError:
        raise PlayerImportError([_encoding_refused(name, broken=True)]) from None


def _encoding_refused(name: str, *, broken: bool = False) -> RowError:
    if broken:
        said = gettext("The file says it is %(encoding)s but does not read as such.")
    elif name:
        said = gettext("The file is in %(encoding)s, which is not read here.")
    else:
        said = gettext("The file's encoding is not recognised.")
    return RowError(
        None,
        (said % {"encoding": name})
        + " "
        + gettext("Save it as CSV UTF-8 (or UTF-16, or Windows-1252) and import it again."),
    )


def _rows_csv(content: bytes) -> Iterator[tuple[int, list[Any]]]:
    text = _decoded(content)
    if "\0" in text:
        raise PlayerImportError([RowError(None, gettext("The file is not a CSV text file."))])
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MAX_LINES:
        raise PlayerImportError(
            [
                RowError(
                    MAX_LINES + 1,
                    gettext(
                        "Too many lines: at most %(count)s lines per file (players and blank "
                        "lines), this one has %(lines)s."
                    )
                    % {"count": MAX_LINES, "lines": lines},
                )
            ]
        )
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)  # Excel in many locales writes ';'
    for number, line in enumerate(text.split("\n"), start=1):
        if line.count(delimiter) >= MAX_FIELDS:
            raise PlayerImportError(
                [
                    RowError(
                        number,
                        gettext("Too many columns: at most %(count)s per line.")
                        % {"count": MAX_FIELDS},
                    )
                ]
            )
    yield from enumerate(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), start=1)


def _parse(file_name: str, content: bytes) -> Iterator[tuple[int, list[Any]]]:
    lower = file_name.lower()
    if lower.endswith(".xlsx"):
        return _rows_xlsx(content)
    if lower.endswith(".csv"):
        return _rows_csv(content)
    raise PlayerImportError(
        [
            RowError(
                None,
                gettext("'%(file_name)s' is neither a .xlsx nor a .csv file.")
                % {"file_name": file_name},
            )
        ]
    )


def _folded(header: str) -> str:
    """A header as ``HEADERS`` spells it: lower case, accents dropped, ``N°``, dots, hyphens,
    apostrophes and underscores as spaces between words (``N° de Licence`` -> ``n de
    licence``, ``Catégorie d’âge`` -> ``categorie d age``)."""
    plain = unicodedata.normalize("NFD", header.casefold())
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    plain = "".join(ch if ch.isalnum() else " " for ch in plain.replace("°", " "))
    return " ".join(plain.split())


def _accepted() -> str:
    """The header names accepted, in the page's language (English otherwise)."""
    language = (get_language() or "en").split("-")[0]
    return ", ".join(SHOWN.get(language, SHOWN["en"]))


def _header(cells: list[Any]) -> tuple[dict[str, int], list[RowError]]:
    columns: dict[str, int] = {}
    errors = []
    for i, cell in enumerate(cells):
        raw = _text(cell)
        if not raw:
            continue
        key = ALIASES.get(_folded(raw))
        if key is None:
            errors.append(
                RowError(
                    1,
                    gettext("Unknown column '%(raw)s' (expected: %(expected)s).")
                    % {"raw": raw, "expected": _accepted()},
                )
            )
        elif key in columns:
            errors.append(RowError(1, gettext("Column '%(raw)s' appears twice.") % {"raw": raw}))
        else:
            columns[key] = i
    if "name" not in columns:
        errors.append(
            RowError(
                1,
                gettext("No name column: the header row must name it (%(expected)s).")
                % {"expected": _accepted()},
            )
        )
    return columns, errors


def _column_said(key: str) -> str:
    """A column as a sentence names it, in the page's language."""
    said = {
        "name": gettext("name"),
        "club": gettext("club"),
        "category": gettext("category"),
        "licence": gettext("licence"),
    }
    return said.get(key, key)


def _table(value: Any) -> tuple[int | None, str | None]:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    if isinstance(value, bool):
        return None, gettext("table '%(value)s' is not a number") % {"value": value}
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        number, shown = value, str(value)
    else:
        text = str(value).strip()
        if not text.isdigit():
            return None, gettext("table '%(text)s' is not a number") % {"text": text}
        # More digits than any table: never made into a number (Python refuses 4,300 digits).
        number = int(text) if len(text) <= 12 else TABLE_MAX + 1
        shown = text if len(text) <= 12 else text[:12] + "..."
    if not TABLE_MIN <= number <= TABLE_MAX:
        return None, gettext("table %(number)s is not a table number: tables are 1 to %(max)s") % {
            "number": shown,
            "max": number_format(TABLE_MAX, force_grouping=True),
        }
    return number, None


def players_check(*, event: Event, file_name: str, content: bytes) -> list[PlayerRow]:
    """Read and check every row; raise ``PlayerImportError`` with all the problems found."""
    if len(content) > MAX_BYTES:
        raise PlayerImportError(
            [
                RowError(
                    None,
                    gettext("The file is larger than %(size)s MB: split it.")
                    % {"size": MAX_BYTES // 2**20},
                )
            ]
        )
    rows = _parse(file_name, content)
    try:
        first = next(rows, None)
        if first is None:
            raise PlayerImportError([RowError(None, gettext("The file is empty."))])
        columns, errors = _header(first[1])
        if errors:
            raise PlayerImportError(errors)
        tables = set(
            Player.objects.filter(event=event, table__isnull=False).values_list("table", flat=True)
        )
        licences = set(
            Player.objects.filter(event=event).exclude(licence="").values_list("licence", flat=True)
        )
        seen_tables: dict[int, int] = {}
        seen_licences: dict[str, int] = {}
        players: list[PlayerRow] = []
        for number, cells in rows:
            values = {key: cells[i] if i < len(cells) else None for key, i in columns.items()}
            if all(_text(v) == "" for v in cells):
                continue  # blank lines are not players
            problems = []
            text = {key: _text(values.get(key)) for key in LIMITS}
            first_name = _text(values.get(FIRST_NAME))
            if first_name and text["name"]:
                text["name"] = f"{first_name} {text['name']}"
            for key, value in text.items():
                control = control_character_in(value)
                if control is not None and is_noncharacter(control):
                    problems.append(
                        gettext(
                            "the %(key)s holds a non-character (U+%(code)04X), which is not text"
                        )
                        % {"key": _column_said(key), "code": ord(control)}
                    )
                elif control is not None:
                    problems.append(
                        gettext(
                            "the %(key)s holds a control character (U+%(code)04X): write it "
                            "on one line, with letters only"
                        )
                        % {"key": _column_said(key), "code": ord(control)}
                    )
            if not text["name"]:
                problems.append(gettext("the name is missing"))
            for key, limit in LIMITS.items():
                if len(text[key]) > limit:
                    problems.append(
                        gettext("the %(key)s is longer than %(limit)s characters")
                        % {"key": _column_said(key), "limit": limit}
                    )
            table, problem = _table(values.get("table"))
            if problem:
                problems.append(problem)
            series = None
            try:
                series = series_parse(values.get("series"))
            except ValueError as exc:
                problems.append(str(exc))
            age_category = ""
            try:
                age_category = age_category_parse(_text(values.get("age_category")))
            except ValueError as exc:
                problems.append(str(exc))
            if table is not None:
                if table in tables:
                    problems.append(
                        gettext("table %(table)s is already taken in %(name)s")
                        % {"table": table, "name": event.name}
                    )
                elif table in seen_tables:
                    problems.append(
                        gettext("table %(table)s is also on row %(row)s")
                        % {"table": table, "row": seen_tables[table]}
                    )
                else:
                    seen_tables[table] = number
            licence = text["licence"]
            if licence:
                if licence in licences:
                    problems.append(
                        gettext("licence %(licence)s is already registered in %(name)s")
                        % {"licence": licence, "name": event.name}
                    )
                elif licence in seen_licences:
                    problems.append(
                        gettext("licence %(licence)s is also on row %(row)s")
                        % {"licence": licence, "row": seen_licences[licence]}
                    )
                else:
                    seen_licences[licence] = number
            errors += [RowError(number, p[0].upper() + p[1:] + ".") for p in problems]
            if not problems:
                players.append(
                    PlayerRow(
                        number,
                        text["name"],
                        text["club"],
                        text["category"],
                        licence,
                        table,
                        series,
                        age_category,
                    )
                )
            if number > MAX_ROWS + 1:
                errors.append(
                    RowError(
                        number,
                        gettext("Too many rows: at most %(count)s players per file.")
                        % {"count": MAX_ROWS},
                    )
                )
                break
    except PlayerImportError:
        raise
    except Exception as exc:  # a broken file that fails while being read
        raise PlayerImportError(
            [
                RowError(
                    None,
                    gettext("The file could not be read (%(kind)s: %(exc)s).")
                    % {"kind": type(exc).__name__, "exc": exc},
                )
            ]
        ) from exc
    if errors:
        raise PlayerImportError(errors)
    if not players:
        raise PlayerImportError(
            [RowError(None, gettext("The file holds no player (only a header)."))]
        )
    return players


@transaction.atomic
def players_import(
    *, event: Event, file_name: str, content: bytes, actor: User | None
) -> list[Player]:
    """Register every player of the file, or none: raises ``PlayerImportError`` listing
    every bad row."""
    rows = players_check(event=event, file_name=file_name, content=content)
    confirmed = (
        LicenceConfirmation.FEDERATION
        if actor is None or actor.is_superuser
        else LicenceConfirmation.DIRECTOR
    )
    players = [
        Player(
            event=event,
            name=row.name,
            club=row.club,
            category=row.category,
            licence=row.licence,
            licence_confirmed=confirmed if row.licence else LicenceConfirmation.TYPED,
            licence_confirmed_by=actor if row.licence else None,
            table=row.table,
            series=row.series,
            age_category=row.age_category,
        )
        for row in rows
    ]
    try:
        with transaction.atomic():  # a savepoint: the import's error, not a broken transaction
            created = Player.objects.bulk_create(players, batch_size=500)
    except IntegrityError as exc:  # a table or licence registered meanwhile by someone else
        raise PlayerImportError(
            [
                RowError(
                    None,
                    gettext("A table or licence of the file was registered meanwhile: try again."),
                )
            ]
        ) from exc
    audit_record_many(
        event=event,
        action="tournament.player.registered",
        actor=actor,
        data=[
            {"player": p.pk, "name": p.name, "table": p.table, "licence": p.licence}
            for p in created
        ],
    )
    audit_record(
        event=event,
        action="tournament.players.imported",
        actor=actor,
        data={"file": file_name, "count": len(created), "players": [p.pk for p in created]},
    )
    return created

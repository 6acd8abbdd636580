"""Import a player list from .xlsx or .csv: all or nothing.

Columns (header names matched case-insensitively, in any order; ``license`` is read as
``licence``; ``age category`` and ``age`` as ``age_category``): name (required), club,
category, licence, table, series (1 to 7, ``S3`` read as 3), age_category (the FISF's, any
case, accents or not: ``tournament.categories``). Every row is checked first;
each bad row is reported with its row number (the spreadsheet's: the header is row 1) and
why; nothing is created unless the whole file is clean. Then every player is registered
in one transaction, with the checks of ``player_register`` (made once for the whole file by
``players_check``, the database's unique constraints catching a registration made meanwhile),
one ``tournament.player.registered`` audit entry each and one ``tournament.players.imported``.

Bounded: at most ``MAX_BYTES`` (refused before it is read), ``MAX_ROWS`` players and
``MAX_COLUMNS`` columns, an .xlsx whose contents unpack to at most ``MAX_UNPACKED_BYTES``;
the writes are a few bulk queries (5,000 players: about a second, not one query per row).
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, ngettext

from tournament.categories import age_category_parse, series_parse
from tournament.errors import ApplicationError
from tournament.models import Event, Player
from tournament.services.audit import audit_record, audit_record_many

COLUMNS = ("name", "club", "category", "licence", "table", "series", "age_category")
ALIASES = {"license": "licence", "age category": "age_category", "age": "age_category"}
LIMITS = {"name": 120, "club": 120, "category": 40, "licence": 40}
MAX_ROWS = 5000
MAX_COLUMNS = 50
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
    ws = wb.worksheets[0]
    for number, row in enumerate(ws.iter_rows(max_col=MAX_COLUMNS, values_only=True), start=1):
        yield number, list(row)
    wb.close()


def _rows_csv(content: bytes) -> Iterator[tuple[int, list[Any]]]:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = content.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise PlayerImportError(
            [
                RowError(
                    None, gettext("The file is not readable text (neither UTF-8 nor Windows-1252).")
                )
            ]
        )
    if "\0" in text:
        raise PlayerImportError([RowError(None, gettext("The file is not a CSV text file."))])
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)  # Excel in many locales writes ';'
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


def _header(cells: list[Any]) -> tuple[dict[str, int], list[RowError]]:
    columns: dict[str, int] = {}
    errors = []
    for i, cell in enumerate(cells):
        raw = _text(cell)
        if not raw:
            continue
        key = ALIASES.get(raw.lower(), raw.lower())
        if key not in COLUMNS:
            errors.append(
                RowError(
                    1,
                    gettext("Unknown column '%(raw)s' (expected: %(expected)s).")
                    % {"raw": raw, "expected": ", ".join(COLUMNS)},
                )
            )
        elif key in columns:
            errors.append(RowError(1, gettext("Column '%(raw)s' appears twice.") % {"raw": raw}))
        else:
            columns[key] = i
    if "name" not in columns:
        errors.append(RowError(1, gettext("No 'name' column: the header row must name it.")))
    return columns, errors


def _table(value: Any) -> tuple[int | None, str | None]:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, None
    if isinstance(value, bool):
        return None, gettext("table '%(value)s' is not a number") % {"value": value}
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if not text.isdigit():
            return None, gettext("table '%(text)s' is not a number") % {"text": text}
        number = int(text)
    if number <= 0:
        return None, gettext("table %(number)s is not a table number (1, 2, 3...)") % {
            "number": number
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
            if not text["name"]:
                problems.append(gettext("the name is missing"))
            for key, limit in LIMITS.items():
                if len(text[key]) > limit:
                    problems.append(
                        gettext("the %(key)s is longer than %(limit)s characters")
                        % {"key": key, "limit": limit}
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
    players = [
        Player(
            event=event,
            name=row.name,
            club=row.club,
            category=row.category,
            licence=row.licence,
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

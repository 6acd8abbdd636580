"""Importing a player list: all or nothing, every bad row reported with its row number."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from openpyxl import Workbook

from tests.factories import PlayerFactory
from tournament.models import AuditEntry, Event, Player
from tournament.services.player_imports import PlayerImportError, players_import

pytestmark = pytest.mark.django_db


def _xlsx(rows: list[list]) -> bytes:
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _errors(exc: pytest.ExceptionInfo[PlayerImportError]) -> list[tuple[int | None, str]]:
    return [(e.row, e.message) for e in exc.value.errors]


def test_a_clean_csv_in_any_column_order_registers_everyone(event: Event, director) -> None:
    content = (
        "Table;NAME;Club;licence;category\n3;Ada Lovelace;Lyon;123;S1\n"
        ";Basile;;;\n1;Chloé Dupont;Liège;456;S2\n"
    ).encode()
    created = players_import(event=event, file_name="players.CSV", content=content, actor=director)
    assert [(p.name, p.table, p.club, p.licence, p.category) for p in created] == [
        ("Ada Lovelace", 3, "Lyon", "123", "S1"),
        ("Basile", None, "", "", ""),
        ("Chloé Dupont", 1, "Liège", "456", "S2"),
    ]
    entry = AuditEntry.objects.get(event=event, action="tournament.players.imported")
    assert entry.data["count"] == 3 and entry.actor == director


def test_a_clean_workbook_registers_everyone_numbers_read_as_numbers(event: Event) -> None:
    content = _xlsx(
        [
            ["name", "club", "table", "license"],
            ["Ada", "Lyon", 4, 98765],
            ["Bob", None, 5.0, None],
            [None, None, None, None],
        ]
    )
    created = players_import(event=event, file_name="list.xlsx", content=content, actor=None)
    assert [(p.name, p.table, p.licence) for p in created] == [("Ada", 4, "98765"), ("Bob", 5, "")]


def test_every_bad_row_is_reported_with_its_number_and_nothing_is_imported(event: Event) -> None:
    PlayerFactory(event=event, name="Already here", table=9, licence="L-9")
    content = _xlsx(
        [
            ["Name", "Club", "Category", "Licence", "Table"],
            ["Ada", "Lyon", "S1", "L-1", 1],  # row 2: fine
            [None, "Lyon", "S1", "L-2", 2],  # row 3: no name
            ["Bob", "Lyon", "S1", "L-3", "two"],  # row 4: table not a number
            ["Cleo", "Lyon", "S1", "L-4", 1],  # row 5: table also on row 2
            ["Dan", "Lyon", "S1", "L-1", 6],  # row 6: licence also on row 2
            ["Eve", "Lyon", "S1", "L-9", 9],  # row 7: licence and table already in the event
            ["Fay", "Lyon", "S1", "", -4],  # row 8: not a table number
            ["Gus", "Lyon", "S1", "", 10],  # row 9: fine
        ]
    )
    with pytest.raises(PlayerImportError) as exc:
        players_import(event=event, file_name="players.xlsx", content=content, actor=None)
    assert _errors(exc) == [
        (3, "The name is missing."),
        (4, "Table 'two' is not a number."),
        (5, "Table 1 is also on row 2."),
        (6, "Licence L-1 is also on row 2."),
        (7, "Table 9 is already taken in Spring open."),
        (7, "Licence L-9 is already registered in Spring open."),
        (8, "Table -4 is not a table number: tables are 1 to 9,999."),
    ]
    assert exc.value.message == "Nothing imported: 7 problems in the file."
    assert exc.value.data["errors"][0] == {"row": 3, "message": "The name is missing."}
    assert list(Player.objects.filter(event=event).values_list("name", flat=True)) == [
        "Already here"
    ]
    assert not AuditEntry.objects.filter(action="tournament.players.imported").exists()


@pytest.mark.parametrize(
    ("file_name", "content", "expected"),
    [
        (
            "players.xlsx",
            b"not a zip at all",
            [(None, "The file is not a readable .xlsx workbook (BadZipFile).")],
        ),
        ("players.pdf", b"%PDF", [(None, "'players.pdf' is neither a .xlsx nor a .csv file.")]),
        ("players.csv", b"", [(None, "The file is empty.")]),
        ("players.csv", b"name,club\n", [(None, "The file holds no player (only a header).")]),
        (
            "players.csv",
            b"club,table\nLyon,1\n",
            [
                (
                    1,
                    "No name column: the header row must name it (name, first name, club, "
                    "category, licence, table, series, age category).",
                )
            ],
        ),
        (
            "players.csv",
            b"name,rating,Name\nAda,1800,Ada\n",
            [
                (
                    1,
                    "Unknown column 'rating' (expected: name, first name, club, category, "
                    "licence, table, series, age category).",
                ),
                (1, "Column 'Name' appears twice."),
            ],
        ),
    ],
)
def test_an_unreadable_or_badly_headed_file_is_refused_with_the_reason(
    event: Event, file_name: str, content: bytes, expected: list
) -> None:
    with pytest.raises(PlayerImportError) as exc:
        players_import(event=event, file_name=file_name, content=content, actor=None)
    assert _errors(exc) == expected
    assert not Player.objects.exists()


def test_a_formula_looking_name_is_imported_as_plain_text(event: Event) -> None:
    created = players_import(
        event=event, file_name="p.csv", content=b"name\n=cmd|' /C calc'!A0\n", actor=None
    )
    assert created[0].name == "=cmd|' /C calc'!A0"


def test_the_director_uploads_a_file_and_sees_every_error(
    event: Event, director, outsider, client_for
) -> None:
    client = client_for(director)
    url = f"/events/{event.slug}/players/import/"
    assert client.get(url).status_code == 200
    bad = io.BytesIO(b"name,table\nAda,1\n,2\nBob,1\n")
    bad.name = "players.csv"
    response = client.post(url, {"file": bad})
    assert response.status_code == 400
    assert (
        b"Row 3: The name is missing." in response.content
        and b"Row 4: Table 1 is also on row 2." in response.content
    )
    assert not Player.objects.filter(event=event).exists()
    good = io.BytesIO(b"name,table\nAda,1\nBob,2\n")
    good.name = "players.csv"
    response = client.post(url, {"file": good})
    assert response.status_code == 302
    assert Player.objects.filter(event=event).count() == 2
    assert client_for(outsider).get(url).status_code == 404


def test_the_import_command_reports_the_rows_and_fails(event: Event, tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text("name,table\nAda,x\n", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing imported"):
        call_command("import_players", event.slug, str(path), stderr=err)
    assert "Row 2: Table 'x' is not a number." in err.getvalue()
    path.write_text("name,table\nAda,1\n", encoding="utf-8")
    out = io.StringIO()
    call_command("import_players", str(event.pk), str(path), stdout=out)
    assert "Imported 1 players" in out.getvalue()


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(event) -> None:
    from tournament.services.player_imports import MAX_BYTES

    with pytest.raises(PlayerImportError) as refused:
        players_import(event=event, file_name="big.csv", content=b"x" * (MAX_BYTES + 1), actor=None)
    assert refused.value.errors[0].message == "The file is larger than 2 MB: split it."


def test_a_workbook_that_unpacks_too_large_is_refused(event) -> None:
    import io
    import zipfile

    from tournament.services import player_imports

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/sharedStrings.xml", b"\0" * (player_imports.MAX_UNPACKED_BYTES + 1))
    with pytest.raises(PlayerImportError) as refused:
        players_import(event=event, file_name="bomb.xlsx", content=buffer.getvalue(), actor=None)
    assert "unpacks to more than 50 MB" in refused.value.errors[0].message


def test_a_long_list_is_imported_in_a_few_queries_with_an_audit_entry_per_player(
    event, django_assert_max_num_queries
) -> None:
    from tournament.models import AuditEntry

    rows = ["name,club,licence,table"] + [f"P{i},Club,L{i},{i + 1}" for i in range(1200)]
    with django_assert_max_num_queries(40):  # was 3 queries and an audit entry per player
        created = players_import(
            event=event, file_name="long.csv", content="\n".join(rows).encode(), actor=None
        )
    assert len(created) == 1200 and all(p.pk for p in created)
    registered = AuditEntry.objects.filter(event=event, action="tournament.player.registered")
    assert registered.count() == 1200
    assert registered.filter(data__player=created[0].pk, data__table=1).exists()
    assert AuditEntry.objects.filter(action="tournament.players.imported").count() == 1

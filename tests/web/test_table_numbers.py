"""Table numbers are 1 to 9,999 (docs/rules.md; issue 25.5) through every door: the console's
player form, the staff API, a player list imported (CSV or .xlsx), a room's results file
(tests/arbiter/rooms/test_room_results_file.py) and the database itself
(tests/tournament/test_constraints.py); an export never counts to a number typed."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from arbiter.selectors.interchange import sigles_bytes
from tests.factories import PlayerFactory
from tournament.models import Player
from tournament.services.player_imports import PlayerImportError, players_import

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("each_database")]


@pytest.fixture
def api(director) -> APIClient:
    client = APIClient()
    client.force_authenticate(director)
    return client


def _players_url(event) -> str:
    return f"/api/v1/events/{event.slug}/players"


def test_the_api_registers_tables_1_to_9999_and_refuses_beyond(api, event) -> None:
    for table in [1, 9_999]:
        made = api.post(_players_url(event), {"name": f"P{table}", "table": table}, format="json")
        assert made.status_code == 201, made.json()
    for table in [0, 10_000, 2_147_483_647, 10**20]:
        refused = api.post(_players_url(event), {"name": "Zed", "table": table}, format="json")
        assert refused.status_code == 400, table
        assert "table" in refused.json()["fields"]
    too_long = api.post(_players_url(event), {"name": "Zed", "table": 10**30}, format="json")
    assert too_long.status_code == 400 and too_long.json()["code"] == "parse_error"
    assert not Player.objects.filter(name="Zed").exists()


def test_the_console_form_refuses_table_10000_in_french_too(client_for, director, event) -> None:
    console = client_for(director)
    setup = reverse("console:setup_post", args=[event.slug, "player"])
    said = console.post(setup, {"name": "Dan", "table": 10_000}, follow=True)
    assert "table: Ensure this value is less than or equal to 9999." in [
        str(m) for m in said.context["messages"]
    ]
    french = console.post(
        setup, {"name": "Dan", "table": 10_000}, HTTP_ACCEPT_LANGUAGE="fr", follow=True
    )
    [message] = [str(m) for m in french.context["messages"]]
    assert message.endswith("Assurez-vous que cette valeur est inférieure ou égale à 9999.")
    assert not Player.objects.filter(name="Dan").exists()


def test_an_import_names_each_row_with_a_table_out_of_range(event) -> None:
    huge = "9" * 5_000  # Python itself refuses to read 4,300 digits as a number
    rows = ["Name,Table", "Ada,9999", "Bob,10000", f"Cleo,{huge}", "Dan,2147483647"]
    content = ("\n".join(rows) + "\n").encode()
    started, cpu = time.perf_counter(), time.process_time()
    with pytest.raises(PlayerImportError) as refused:
        players_import(event=event, file_name="players.csv", content=content, actor=None)
    assert time.perf_counter() - started < 2 and time.process_time() - cpu < 2
    errors = [(e["row"], e["message"]) for e in refused.value.data["errors"]]
    assert errors == [
        (3, "Table 10000 is not a table number: tables are 1 to 9,999."),
        (4, "Table 999999999999... is not a table number: tables are 1 to 9,999."),
        (5, "Table 2147483647 is not a table number: tables are 1 to 9,999."),
    ]
    assert not Player.objects.filter(event=event).exists()


def test_sigles_counts_to_the_highest_table_at_most_9999_lines(event) -> None:
    PlayerFactory(event=event, name="Far", table=9_999)
    tracemalloc.start()
    body = sigles_bytes(event=event, game=None, key="table", empty=True)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert body.count(b"\n") == 9_999 and peak < 20 * 1024 * 1024
    assert body.splitlines()[-1].startswith(b'"9999","Far"')


def test_a_line_break_or_an_escape_in_a_name_or_club_is_refused_at_every_door(
    api, client_for, director, event
) -> None:
    """A newline in a name split its SIGLES record; an escape made eliot.xml invalid."""
    for fields, field in (
        ({"name": "Ann\nBell"}, "name"),
        ({"name": "Ann", "club": "Ly\ton"}, "club"),
    ):
        refused = api.post(_players_url(event), {**fields, "table": 3}, format="json")
        assert refused.status_code == 400, refused.content
        assert refused.json()["field"] == field
        assert "control character" in refused.json()["detail"]
    escape = api.post(_players_url(event), {"name": "Ly\x1bon"}, format="json")
    assert escape.status_code == 400 and escape.json()["code"] == "parse_error"
    console = client_for(director)
    setup = reverse("console:setup_post", args=[event.slug, "player"])
    said = console.post(setup, {"name": "Ann\nBell", "table": 3}, follow=True)
    [message] = [str(m) for m in said.context["messages"]]
    assert "control character (U+000A)" in message
    assert not Player.objects.filter(event=event).exists()

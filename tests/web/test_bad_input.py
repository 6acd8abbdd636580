"""Bad input is a 4xx naming what was wrong, never a server error: JSON too deep, not an object
or too large, numbers beyond their column, control characters, digits other than 0-9.

Every HTTP test here runs twice (``each_database``): on SQLite, and on PostgreSQL in the
``postgres`` pass, where a NUL byte or 2**31 in an integer column fail in the database."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.arbiter.conftest import T0, open_round
from tests.factories import GameFactory, PlayerFactory
from tournament.models import Game, Player, Round
from web.api.parsers import JSON_MAX_DEPTH, json_problem
from web.inputs import EXTEND_MAX_SECONDS, Bounds, integer_parse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("each_database")]

ARABIC_EIGHT = "\u0668"  # ٨
ARABIC_ONE = "\u0661"  # ١


@pytest.fixture
def game(event) -> Game:
    for i, name in enumerate(["Ann", "Bob", "Cleo"], start=1):
        PlayerFactory(event=event, name=name, table=i)
    game = GameFactory(event=event, number=1, seed=7)
    open_round(game)
    return game


@pytest.fixture
def ann(game: Game) -> Player:
    return game.event.players.get(name="Ann")


@pytest.fixture
def staff(director) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_login(director)
    return client


@pytest.fixture
def console(director) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return client


@pytest.fixture
def phone(ann: Player) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {ann.token}")
    return client


def action_url(game: Game, action: str) -> str:
    return reverse("staff_api:action", args=[game.event.slug, game.number, action])


def console_url(game: Game, action: str) -> str:
    return reverse("console:action", args=[game.event.slug, game.number, action])


def detail(response) -> str:
    return str(response.json()["detail"])


SUBMISSIONS = "/api/v1/play/submissions"


# --- JSON -----------------------------------------------------------------------------------


def test_deeply_nested_json_is_a_400_not_a_recursion_error(phone, staff, game) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    response = phone.post(SUBMISSIONS, data=deep, content_type="application/json")
    assert response.status_code == 400 and "JSON" in detail(response)
    just_too_deep = json.dumps({"word": json.loads("[" * JSON_MAX_DEPTH + "]" * JSON_MAX_DEPTH)})
    response = staff.post(action_url(game, "slip"), just_too_deep, content_type="application/json")
    assert response.status_code == 400
    assert "nested more than 16 levels" in detail(response)


@pytest.mark.parametrize("body", ["[1, 2]", '"extend"', "42", "null", "true"])
def test_a_json_body_that_is_not_an_object_is_a_400(staff, phone, game, body) -> None:
    response = staff.post(action_url(game, "extend"), body, content_type="application/json")
    assert response.status_code == 400
    assert "must be a JSON object" in detail(response)
    assert phone.post(SUBMISSIONS, body, content_type="application/json").status_code == 400


def test_a_json_body_over_the_limit_is_a_413(staff, game, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"reason": "x" * 2000})
    response = staff.post(action_url(game, "annul"), body, content_type="application/json")
    assert response.status_code == 413 and "larger than 1000 bytes" in detail(response)


def test_nan_and_broken_json_are_a_400(staff, game) -> None:
    for body in ['{"seconds": NaN}', '{"seconds": ', b'{"reason": "\xff"}']:
        response = staff.post(action_url(game, "extend"), body, content_type="application/json")
        assert response.status_code == 400, body


def test_json_problems_name_where_they_are() -> None:
    assert json_problem({"a": [{"b": "ok\n\ttoo"}]}) is None
    assert (
        json_problem({"a": [{"b": "x\x00"}]})
        == "a[0].b: control characters are not allowed (U+0000)."
    )
    assert json_problem({"k\x1b": 1}) == "body key: control characters are not allowed (U+001B)."
    assert json_problem({"s": "\ud800"}) == "s: control characters are not allowed (U+D800)."
    assert json_problem([]) == "The body must be a JSON object, not list."


# --- a whole request too large --------------------------------------------------------------


def test_a_request_over_the_size_limit_is_refused_before_it_is_read(console, game, settings):
    settings.REQUEST_BODY_MAX_BYTES = 1024 * 1024
    url = reverse("console:players_import", args=[game.event.slug])
    response = console.post(url, {"file": ""}, CONTENT_LENGTH=str(5 * 1024 * 1024))
    assert response.status_code == 413
    assert response.content.decode() == "The request is too large (5 MB): at most 1 MB."
    response = console.post(url, {"file": ""}, CONTENT_LENGTH=str(1024 * 1024 + 1))
    assert response.content.decode() == "The request is too large (1.1 MB): at most 1 MB."
    response = Client(raise_request_exception=False).post(
        SUBMISSIONS, "{}", content_type="application/json", CONTENT_LENGTH=str(2**40)
    )
    assert response.status_code == 413 and response.json()["code"] == "too_large"


def test_a_room_results_file_over_40_mb_is_refused_saying_the_files_limit(console, game):
    url = reverse("console:room_results_upload", args=[game.event.slug])
    sent = 41 * 1024 * 1024 + 1  # the file's 40 MB and its form's 1 MB, and a byte
    response = console.post(url, {"file": ""}, CONTENT_LENGTH=str(sent))
    assert response.status_code == 413
    assert response.content.decode() == "The file is too large (41.1 MB): at most 40 MB."
    french = console.post(url, {"file": ""}, CONTENT_LENGTH=str(sent), HTTP_ACCEPT_LANGUAGE="fr")
    said = "Le fichier est trop volumineux (41,1 Mo)\u00a0: au plus 40 Mo."
    assert french.content.decode() == said
    api = Client(raise_request_exception=False).post(
        f"/api/v1/events/{game.event.slug}/room-results",
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(sent),
    )
    assert api.status_code == 413
    assert api.json() == {
        "detail": "The file is too large (41.1 MB): at most 40 MB.",
        "code": "too_large",
    }


# --- numbers beyond their column --------------------------------------------------------------


def test_an_extension_of_years_is_refused_naming_the_seconds(staff, console, game) -> None:
    for seconds in [250_000_000_000, EXTEND_MAX_SECONDS + 1, 0, -5]:
        response = staff.post(action_url(game, "extend"), {"seconds": seconds}, format="json")
        assert response.status_code == 400, seconds
        assert detail(response).startswith("Seconds must be between 1 and 3600"), detail(response)
    for _ in range(2):  # the second extension used to overflow the date
        response = console.post(console_url(game, "extend"), {"seconds": 250_000_000_000})
        assert response.status_code == 302
    round_ = Round.objects.get(game=game)
    assert round_.deadline == T0 + dt.timedelta(seconds=game.event.round_seconds)  # unchanged


def test_a_table_beyond_9999_is_refused_naming_the_table(staff, console, game) -> None:
    for table in [2**31, 10_000]:
        response = staff.post(
            action_url(game, "slip"), {"table": table, "word": "AB", "ref": "H8"}, format="json"
        )
        assert response.status_code == 400
        assert detail(response) == f"Table must be between 1 and 9999, not {table}."
        assert response.json()["field"] == "table"
        setup = reverse("console:setup_post", args=[game.event.slug, "player"])
        response = console.post(setup, {"name": "Dan", "table": table}, follow=True)
        assert response.status_code == 200
        said = [str(m) for m in response.context["messages"]]
        assert said[0].startswith("table: Ensure this value is less than or equal to 9999")
        assert not Player.objects.filter(name="Dan").exists()


def test_a_policy_number_beyond_the_column_is_refused_naming_it(console, game) -> None:
    setup = reverse("console:setup_post", args=[game.event.slug, "policy"])
    response = console.post(setup, {"round_seconds": 2**40}, follow=True)
    said = [str(m) for m in response.context["messages"]]
    assert "round_seconds: Ensure this value is less than or equal to 2147483647" in said[0]


def test_a_ruling_id_beyond_the_column_is_refused_naming_the_ruling(staff, game) -> None:
    response = staff.post(action_url(game, "amend"), {"ruling": 2**70, "points": 1}, format="json")
    assert response.status_code == 400 and detail(response).startswith("Ruling must be between")


def test_the_player_api_bounds_the_round_and_the_score(phone, game) -> None:
    slip = {"round": 1, "word": "TRAINS", "ref": "H8", "score": 2**40}
    response = phone.post(SUBMISSIONS, slip, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("score: Ensure this value is less than")
    response = phone.post(SUBMISSIONS, {**slip, "round": 2**70, "score": 10}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("round: Ensure this value is less than")


def test_the_export_api_reads_the_game_as_a_bounded_number(staff, console, game) -> None:
    url = reverse("exports:api_event_export", args=[game.event.slug])
    for bad in ["x", "\x00", 2**70, [1]]:
        response = staff.post(url, {"game": bad}, format="json")
        assert response.status_code == 400, bad
    page = reverse("exports:export_job_create", args=[game.event.slug])
    response = console.post(page, {"game": "x"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Game must be a whole number, not 'x'."
    ]


# --- control characters ---------------------------------------------------------------------


def test_a_nul_in_json_is_refused_naming_the_field(staff, phone, game) -> None:
    response = staff.post(action_url(game, "annul"), {"reason": "a\x00b"}, format="json")
    assert response.status_code == 400
    assert detail(response) == "reason: control characters are not allowed (U+0000)."
    response = phone.post(
        SUBMISSIONS, {"round": 1, "word": "TR\x00AINS", "ref": "H8"}, format="json"
    )
    assert response.status_code == 400 and detail(response).startswith("word: ")


def test_a_control_character_in_a_form_or_a_query_is_refused_naming_it(console, game) -> None:
    response = console.post(console_url(game, "annul"), {"reason": "late\x07"})
    assert response.status_code == 400
    assert response.content.decode() == "reason: control characters are not allowed (U+0007)."
    setup = reverse("console:setup_post", args=[game.event.slug, "player"])
    assert console.post(setup, {"name": "Dan\x00"}).status_code == 400
    event_page = reverse("console:event_detail", args=[game.event.slug])
    response = console.get(event_page + "?x=%00")
    assert response.status_code == 400 and response.content.decode().startswith("x: ")
    assert console.post(console_url(game, "annul"), {"reason": "two\r\nlines"}).status_code == 302


def test_a_join_link_with_a_nul_is_a_404_even_unauthenticated(game) -> None:
    anonymous = Client(raise_request_exception=False)
    assert anonymous.get("/play/%00/").status_code == 404
    assert anonymous.get("/play/abc%01def/").status_code == 404
    assert anonymous.get("/play/not-a-token%20at-all/").status_code == 404
    bearer = APIClient(raise_request_exception=False, HTTP_AUTHORIZATION="Bearer ab\x00c")
    assert bearer.get("/api/v1/play/state").status_code == 401


def test_a_nul_in_the_login_form_is_a_400(game) -> None:
    response = Client(raise_request_exception=False).post(
        reverse("login"), {"username": "dora\x00", "password": "x"}
    )
    assert response.status_code == 400


# --- digits other than 0-9 ------------------------------------------------------------------


def test_unicode_digits_in_a_reference_make_an_unreadable_reference_as_on_paper(
    staff, phone, game
) -> None:
    """rules.md: digits are ASCII, and a reference of neither form counts as none. The slip is
    taken as written, from a phone as from an arbiter, and the ruling says so."""
    slip = {"round": 1, "word": "TRAINS", "ref": f"H{ARABIC_EIGHT}", "score": 10}
    with time_machine.travel(T0 + dt.timedelta(seconds=30), tick=False):
        response = phone.post(SUBMISSIONS, slip, format="json")
    assert response.status_code == 201 and response.json()["ref"] == f"H{ARABIC_EIGHT}"
    response = staff.post(
        action_url(game, "slip"),
        {"table": 2, "word": "TRAINS", "ref": f"{ARABIC_EIGHT}H"},
        format="json",
    )
    assert response.status_code == 200, response.json()


def test_unicode_digits_in_a_number_are_refused_with_a_clear_error(staff, console, game) -> None:
    response = staff.post(
        action_url(game, "slip"),
        {"table": ARABIC_ONE, "word": "TRAINS", "ref": "H8"},
        format="json",
    )
    assert response.status_code == 400
    assert detail(response) == f"Table must be written with the digits 0-9, not '{ARABIC_ONE}'."
    moves = reverse("console:round_moves", args=[game.event.slug, 1, 1])
    assert console.get(moves + "?page=\u00b2").status_code == 200  # superscript two


def test_integer_parse_takes_ascii_digits_within_bounds_only() -> None:
    bounds = Bounds(1, 10)
    assert integer_parse("Table", " 7 ", bounds) == 7
    for text, message in [
        ("11", "Table must be between 1 and 10, not 11."),
        ("seven", "Table must be a whole number, not 'seven'."),
        ("\u0667", "Table must be written with the digits 0-9, not '\u0667'."),
        ("1" * 5000, "Table must be between 1 and 10."),
    ]:
        with pytest.raises(ValueError) as error:
            integer_parse("Table", text, bounds)
        assert str(error.value).startswith(message)

"""The director API reads what the console's pages read and sets up what the set-up page does
(issue 27.4): a round's legal moves ranked, a game's audit log, a table's slips of the round in
play; a role given to an existing account; a word list uploaded or the open French list chosen.
Each through the console's own functions: refused and audited alike."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournament.models import AuditEntry, EventRole, Player, WordList

BASE = "/api/v1/events/club-night"


@pytest.fixture
def room(club_night):
    event, director, arbiter = club_night
    return event, director, arbiter


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _ok(response, status: int = 200) -> dict | list:
    assert response.status_code == status, response.content
    return response.json()


def _open_round(director) -> None:
    api = _api(director)
    _ok(api.post(f"{BASE}/games", {"seed": 7}, format="json"), 201)
    _ok(api.post(f"{BASE}/games/1/draw", {}, format="json"))
    _ok(api.post(f"{BASE}/games/1/open", {}, format="json"))


@pytest.mark.django_db
def test_an_arbiter_reads_the_rounds_moves_ranked_a_page_at_a_time(room) -> None:
    _, director, arbiter = room
    _open_round(director)
    body = _ok(_api(arbiter).get(f"{BASE}/games/1/rounds/1/moves"))
    assert body["round"] == 1 and body["total"] > 0 and body["page"] == 1
    assert len(body["moves"]) == min(body["total"], 200)
    first = body["moves"][0]
    assert first["rank"] == 1 and first["score"] == max(m["score"] for m in body["moves"])
    assert set(first) == {"rank", "ref", "word", "score", "used"}
    last = _ok(_api(arbiter).get(f"{BASE}/games/1/rounds/1/moves?page=999"))
    assert last["page"] == last["pages"]
    missing = _api(arbiter).get(f"{BASE}/games/1/rounds/5/moves")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_round"


@pytest.mark.django_db
def test_the_games_audit_log_newest_first_with_every_field(room) -> None:
    _, director, arbiter = room
    _open_round(director)
    entries = _ok(_api(arbiter).get(f"{BASE}/games/1/audit"))
    stored = list(AuditEntry.objects.filter(game__number=1).order_by("-at", "-pk"))
    assert [e["id"] for e in entries] == [e.pk for e in stored] and entries
    fields = {f.name for f in AuditEntry._meta.concrete_fields}
    assert fields <= set(entries[0]) and "round_number" in entries[0]
    assert entries[0]["action"] == stored[0].action


@pytest.mark.django_db
def test_a_tables_slips_of_the_round_in_play(room) -> None:
    _, director, arbiter = room
    _open_round(director)
    api = _api(arbiter)
    _ok(api.post(f"{BASE}/games/1/slip", {"table": 1, "ref": "H8", "word": "ZZZ"}, format="json"))
    body = _ok(api.get(f"{BASE}/games/1/tables/1/slips"))
    assert (body["table"], body["name"], body["round"]) == (1, "Ann", 1)
    assert [(s["word"], s["source"], s["is_current"]) for s in body["slips"]] == [
        ("ZZZ", "arbiter", True)
    ]
    nobody = api.get(f"{BASE}/games/1/tables/9/slips")
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_such_table"


@pytest.mark.django_db
def test_the_director_gives_an_existing_account_a_role(room) -> None:
    event, director, arbiter = room
    otto = UserFactory(username="otto")
    done = _ok(
        _api(director).post(f"{BASE}/staff", {"username": "otto", "role": "arbiter"}, format="json")
    )
    assert "otto" in done["detail"]
    assert EventRole.objects.get(event=event, user=otto).role == "arbiter"
    assert _api(otto).get(BASE).status_code == 200
    for body, code in (
        ({"username": "nobody", "role": "arbiter"}, "no_such_account"),
        ({"username": "otto", "role": "king"}, "invalid"),
    ):
        refused = _api(director).post(f"{BASE}/staff", body, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code, body
    assert _api(arbiter).post(f"{BASE}/staff", {"username": "otto"}).status_code == 403


@pytest.mark.django_db
def test_the_director_uploads_a_word_list_and_the_event_plays_it(room) -> None:
    event, director, arbiter = room
    upload = SimpleUploadedFile("club.txt", b"CAT\nDOG\nBIRD\n", content_type="text/plain")
    body = _ok(_api(director).post(f"{BASE}/word-list", {"file": upload, "name": "Club list"}))
    assert body["name"] == "Club list" and "Club list" in body["detail"]
    assert body["status"] in {"queued", "compiling", "ready"}
    event.refresh_from_db()
    assert event.lexicon == WordList.objects.get(name="Club list").key
    assert _ok(_api(director).get(f"{BASE}/word-list"))["name"] == "Club list"
    empty = _api(director).post(f"{BASE}/word-list", {})
    assert empty.status_code == 400 and empty.json()["code"] == "invalid"
    assert _api(arbiter).get(f"{BASE}/word-list").status_code == 403


@pytest.mark.django_db
def test_the_director_chooses_the_open_french_list(room) -> None:
    event, director, _ = room
    body = _ok(_api(director).post(f"{BASE}/word-list/french"))
    assert body["builtin"] and "French" in body["detail"]
    event.refresh_from_db()
    assert event.tile_set == "fr"


@pytest.mark.django_db
def test_the_director_revokes_and_reissues_a_players_qr_code(room) -> None:
    event, director, arbiter = room
    ann = Player.objects.get(event=event, name="Ann")
    old = ann.token
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {old}")
    assert phone.get("/api/v1/play/state").status_code == 200
    revoked = _ok(_api(director).post(f"{BASE}/players/{ann.pk}/token/revoke"))
    assert revoked["player"]["id"] == ann.pk and "Ann" in revoked["detail"]
    assert phone.get("/api/v1/play/state").status_code in (401, 403)
    again = _api(director).post(f"{BASE}/players/{ann.pk}/token/revoke")
    assert again.status_code == 400 and again.json()["code"] == "already_revoked"
    reissued = _ok(_api(director).post(f"{BASE}/players/{ann.pk}/token/reissue"))
    assert reissued["token"] != old and reissued["link"].endswith(f"/play/{reissued['token']}/")
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {reissued['token']}")
    assert phone.get("/api/v1/play/state").status_code == 200
    assert _api(arbiter).post(f"{BASE}/players/{ann.pk}/token/reissue").status_code == 403
    nobody = _api(director).post(f"{BASE}/players/99999/token/reissue")
    assert nobody.status_code == 404 and nobody.json()["code"] == "no_such_player"


@pytest.mark.django_db
def test_the_director_imports_players_all_or_none(room) -> None:
    event, director, _ = room
    good = SimpleUploadedFile("players.csv", b"name,club,table\nBob,Lyon,2\nCleo,Nice,3\n")
    made = _ok(_api(director).post(f"{BASE}/players/import", {"file": good}), 201)
    assert [p["name"] for p in made["players"]] == ["Bob", "Cleo"]
    bad = SimpleUploadedFile("players.csv", b"name,club,table\nDan,Lyon,2\n,Nice,4\n")
    refused = _api(director).post(f"{BASE}/players/import", {"file": bad})
    body = refused.json()
    assert refused.status_code == 400 and body["code"] == "bad_file" and body["errors"]
    assert not Player.objects.filter(event=event, name="Dan").exists()
    none = _api(director).post(f"{BASE}/players/import", {})
    assert none.status_code == 400 and none.json()["code"] == "no_file"

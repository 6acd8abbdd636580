"""The phone's pages (join by QR link, the player page) and the director's QR codes."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import EventFactory, PlayerFactory
from tournament.models import AuditEntry, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(event) -> Player:
    return PlayerFactory(event=event, name="Ann", table=4)


def test_the_qr_link_signs_the_phone_in_and_takes_the_token_out_of_the_address_bar(
    client: Client, ann: Player
) -> None:
    response = client.get(f"/play/{ann.token}/")
    assert response.status_code == 302 and response["Location"] == "/play/"
    assert ann.token not in response.cookies["dsplay"].value.split(":")[-1]  # signed, not bare
    page = client.get("/play/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ann" in html and "table 4" in html and "play.js" in html
    assert ann.token not in html
    assert "csrftoken" in page.cookies


def test_a_revoked_qr_code_shows_a_page_saying_so(client: Client, ann: Player) -> None:
    client.get(f"/play/{ann.token}/")
    Player.objects.filter(pk=ann.pk).update(token_revoked_at="2026-05-01T20:00:00Z")
    for url in (f"/play/{ann.token}/", "/play/"):
        response = client.get(url)
        assert response.status_code == 403
        assert "This QR code has been revoked" in response.content.decode()


def test_an_unknown_code_or_a_phone_never_signed_in_says_what_to_do(client: Client, db) -> None:
    assert "Unknown QR code" in client.get("/play/nonsense/").content.decode()
    response = client.get("/play/")
    assert response.status_code == 403 and "Scan your QR code" in response.content.decode()
    client.cookies["dsplay"] = "forged-token"
    assert client.get("/play/").status_code == 403


def test_the_director_prints_a_sheet_of_qr_codes_with_names_and_tables(
    client_for, director, event, ann
) -> None:
    PlayerFactory(event=event, name="Bob", table=5)
    response = client_for(director).get(f"/events/{event.slug}/qr/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("<svg") == 2
    assert "Ann" in html and "Table 4" in html and "Table 5" in html
    assert "play/qr.css" in html


def test_an_outsider_or_anonymous_gets_no_qr_code(client_for, outsider, event, ann) -> None:
    assert client_for(outsider).get(f"/events/{event.slug}/qr/").status_code == 404
    assert client_for(outsider).get(f"/events/{event.slug}/players/{ann.pk}/qr/").status_code == 404
    assert Client().get(f"/events/{event.slug}/qr/").status_code == 302
    other = PlayerFactory(event=EventFactory())
    assert (
        client_for(outsider)
        .post(f"/events/{event.slug}/players/{other.pk}/token/revoke/")
        .status_code
        == 404
    )


def test_the_director_revokes_then_reissues_a_code_both_audited(
    client_for, director, event, ann
) -> None:
    client = client_for(director)
    page = client.get(f"/events/{event.slug}/players/{ann.pk}/qr/")
    assert page.status_code == 200 and "<svg" in page.content.decode()
    assert client.get(f"/events/{event.slug}/players/{ann.pk}/token/revoke/").status_code == 405
    old = ann.token
    response = client.post(f"/events/{event.slug}/players/{ann.pk}/token/revoke/", follow=True)
    assert "no longer works" in response.content.decode()
    assert "access is revoked" in response.content.decode()
    ann.refresh_from_db()
    assert not ann.token_is_active
    client.post(f"/events/{event.slug}/players/{ann.pk}/token/reissue/")
    ann.refresh_from_db()
    assert ann.token_is_active and ann.token != old
    actions = list(
        AuditEntry.objects.filter(event=event).order_by("id").values_list("action", "actor_name")
    )
    assert ("tournament.player.token_revoked", "dora") in actions
    assert ("tournament.player.token_reissued", "dora") in actions
    assert old not in str(AuditEntry.objects.values_list("data", flat=True))


def test_revoking_twice_says_it_is_already_revoked(client_for, director, event, ann) -> None:
    client = client_for(director)
    client.post(f"/events/{event.slug}/players/{ann.pk}/token/revoke/")
    response = client.post(f"/events/{event.slug}/players/{ann.pk}/token/revoke/", follow=True)
    assert "already revoked" in response.content.decode()

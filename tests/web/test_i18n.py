"""The interface's language: the person's choice (the header's switch), then the browser's;
an event's screen and phones speak the event's language unless the person chose; the exports
write in the event's language, an English event's with design.md's headers exactly."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import GameFactory, PlayerFactory
from tests.web.console.test_setup import POLICY as SETUP_POLICY
from tournament.models import Event

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def test_a_page_follows_the_browsers_language_when_nobody_chose(client: Client) -> None:
    french = text(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9"))
    assert '<html lang="fr">' in french and "Identifiant" in french
    english = text(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-GB"))
    assert '<html lang="en">' in english and "Username" in english


def test_the_header_switch_keeps_the_choice_over_the_browser_and_comes_back_to_the_page(
    client: Client,
) -> None:
    page = text(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en"))
    assert 'name="language" value="fr"' in page  # the switch offers the other language
    answer = client.post(
        reverse("set_language"), {"language": "fr", "next": "/accounts/login/?next=/x/"}
    )
    assert answer.status_code == 302 and answer["Location"] == "/accounts/login/?next=/x/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    page = text(client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Connexion" in page and "Log in" not in page
    assert 'name="language" value="en"' in page  # and now offers English back


def test_the_switch_needs_the_csrf_token(client: Client) -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(reverse("set_language"), {"language": "fr"}).status_code == 403


def test_a_language_we_do_not_speak_is_not_kept(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


@pytest.fixture
def french_event(event: Event) -> Event:
    event.language = "fr"
    event.save(update_fields=["language"])
    return event


def test_the_screen_speaks_its_events_language_whatever_the_browser(
    client_for, director, french_event: Event
) -> None:
    client = client_for(director)
    page = text(
        client.get(reverse("screen:screen", args=[french_event.slug]), HTTP_ACCEPT_LANGUAGE="en")
    )
    assert '<html lang="fr">' in page and "Classement" in page
    assert reverse("javascript_catalog", args=["fr"]) in page  # its script speaks French too


def test_a_person_who_chose_english_sees_the_french_events_screen_in_english(
    client_for, director, french_event: Event
) -> None:
    client = client_for(director)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = text(client.get(reverse("screen:screen", args=[french_event.slug])))
    assert '<html lang="en">' in page and "Standings" in page


def test_the_phone_and_its_api_speak_the_events_language(
    client: Client, french_event: Event
) -> None:
    player = PlayerFactory(event=french_event, name="Ann", table=1)
    client.get(reverse("play:play_join", args=[player.token]))
    page = text(client.get(reverse("play:play"), HTTP_ACCEPT_LANGUAGE="en-US"))
    assert '<html lang="fr">' in page and "Envoyer mon bulletin" in page
    refused = client.post(
        reverse("play_api:submissions"),
        {"round": 9, "ref": "H8", "word": "MOT", "score": 4},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en-US",
        HTTP_AUTHORIZATION=f"Bearer {player.token}",
    )
    body = refused.json()
    assert refused.status_code == 404 and body["code"] == "no_such_round"  # the contract
    assert body["detail"] == "Il n’y a pas de coup 9 dans la partie en cours."


def test_an_english_events_phone_stays_english_for_a_french_browser(
    client: Client, event: Event
) -> None:
    player = PlayerFactory(event=event, name="Ann", table=1)
    client.get(reverse("play:play_join", args=[player.token]))
    page = text(client.get(reverse("play:play"), HTTP_ACCEPT_LANGUAGE="fr-FR"))
    assert '<html lang="en">' in page and "Send my slip" in page


def test_the_scripts_catalogue_is_served_per_language(client: Client) -> None:
    french = text(client.get(reverse("javascript_catalog", args=["fr"])))
    assert "Envoyer mon bulletin" in french
    assert client.get(reverse("javascript_catalog", args=["xx"])).status_code == 404


# The set-up tests' policy, for a French event.
POLICY = SETUP_POLICY | {
    "tile_set": "fr",
    "language": "fr",
    "lexicon": "builtin:grammalecte-fr",  # French tiles play a French list
}


def test_the_event_form_sets_the_events_language(client_for, director, event) -> None:
    client = client_for(director)
    form = text(client.get(reverse("console:setup", args=[event.slug])))
    assert 'name="language"' in form
    data = dict(POLICY)
    client.post(reverse("console:setup_post", args=[event.slug, "policy"]), data)
    event.refresh_from_db()
    assert event.language == "fr"
    del data["language"]  # a form posted without it keeps the event's language
    client.post(reverse("console:setup_post", args=[event.slug, "policy"]), data)
    event.refresh_from_db()
    assert event.language == "fr"


def test_a_new_event_can_be_created_in_french(client_for, director) -> None:
    client = client_for(director)
    data = POLICY | {"name": "Tournoi de Vichy", "starts_on": "2026-12-05", "venue": "Vichy"}
    client.post(reverse("console:event_new"), data)
    assert Event.objects.get(name="Tournoi de Vichy").language == "fr"


def test_a_console_refusal_reads_in_the_persons_language(client_for, director, event) -> None:
    client = client_for(director)
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    policy = POLICY | {"round_seconds": 20, "warning_seconds": 30, "language": "en"}
    answer = client.post(
        reverse("console:setup_post", args=[event.slug, "policy"]), policy, follow=True
    )
    assert "L’alerte doit être plus courte que le temps par coup" in text(answer)


def test_a_new_event_speaks_english_by_default() -> None:
    game = GameFactory()
    assert game.event.language == "en"

"""A French club's word list: the open French list offered out of the box (Grammalecte's, said
plainly not to be the ODS) is chosen in one click with the French tiles, built and compiled once
by the worker with its progress, and named by its name in rulings; the ODS path is written on
the set-up page; an event whose tiles and list disagree is refused, never silently played."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from arbiter.services.slips import slip_submit
from engine.lists import GRAMMALECTE_FR
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory
from tests.web.console.test_setup import post, said
from tournament.errors import ApplicationError
from tournament.models import Event, Ruling, WordList
from tournament.services.events import event_create, event_policy_update
from tournament.services.word_lists import word_list_compile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _folder(settings, tmp_path: Path) -> None:
    settings.WORD_LISTS_DIR = tmp_path / "wordlists"


@pytest.fixture
def soiree(director) -> Event:
    event = EventFactory(name="Soirée du club", language="fr")
    EventRoleFactory(event=event, user=director, role="director")
    return event


def test_the_set_up_page_offers_the_open_french_list_and_says_how_to_bring_the_ods(
    client_for, director, soiree
) -> None:
    page = client_for(director).get(reverse("console:setup", args=[soiree.slug]))
    text = " ".join(page.content.decode().split())
    assert "<strong>Grammalecte 7.5</strong> is an open French list" in text
    assert "<strong>not the ODS</strong>" in text
    for step in ("Where: the copy your club holds", "Its form: plain text in UTF-8", "at most"):
        assert step in text
    assert "builtin:grammalecte-fr" in text  # among the lexicons of the policy form
    assert "Grammalecte 7.5: open French list, not the ODS (French tiles)" in text


def test_a_director_plays_the_open_french_list_and_the_worker_builds_it_with_progress(
    client_for, director, soiree
) -> None:
    client = client_for(director)
    response = post(client, soiree, "french")
    assert said(response) == [
        "The event plays the French tiles and the open French list Grammalecte 7.5 (not the "
        "ODS): it is built and compiled in the background the first time, and a round can "
        "start once it is ready."
    ]
    soiree.refresh_from_db()
    word_list = WordList.objects.get()
    assert (soiree.tile_set, soiree.lexicon) == ("fr", word_list.key)
    assert (word_list.builtin, word_list.name, word_list.status) == (
        "grammalecte-fr",
        "Grammalecte 7.5",
        "queued",
    )
    assert post(client, soiree, "french").status_code == 200  # chosen again: the same row
    assert WordList.objects.count() == 1

    word_list_compile(word_list_id=word_list.pk)  # the worker's part
    word_list.refresh_from_db()
    assert (word_list.status, word_list.words) == ("ready", 400_333)
    assert word_list.path.name == GRAMMALECTE_FR.file_name and word_list.size > 3_000_000
    state = client.get(reverse("console:word_list_state", args=[soiree.slug])).json()
    assert state["status"] == "ready" and state["builtin"] is True


def test_an_event_with_french_tiles_and_the_english_list_is_refused(director, soiree) -> None:
    with pytest.raises(ApplicationError) as refused:
        event_policy_update(event=soiree, actor=director, tile_set="fr")
    assert refused.value.code == "lexicon_tiles_mismatch"
    assert "The word list enable is for the English (100 tiles)" in refused.value.message
    assert "the open French list Grammalecte 7.5, which is not the ODS" in refused.value.message
    with pytest.raises(ApplicationError):
        event_create(name="Soirée", starts_on=T0.date(), actor=director, tile_set="fr")
    soiree.refresh_from_db()
    assert soiree.tile_set == "en"


def test_the_set_up_page_says_the_refusal_in_the_directors_language(
    client_for, director, soiree
) -> None:
    client = client_for(director)
    client.cookies["django_language"] = "fr"
    policy = client.get(reverse("console:setup", args=[soiree.slug])).context["policy"]
    data = {name: value for name, value in policy.initial.items() if value is not None}
    data["tile_set"] = "fr"
    response = post(client, soiree, "policy", **data)
    (message,) = said(response)
    assert "La liste de mots enable est pour le jeu Anglais (100 jetons)" in message, message


def test_a_ruling_names_the_french_list_by_its_name(director) -> None:
    room = EventFactory(language="fr", tile_set="fr", solo_min_players=9)
    lexicon = event_policy_update(
        event=room, actor=director, lexicon="builtin:grammalecte-fr"
    ).lexicon
    word_list_compile(word_list_id=WordList.objects.get().pk)
    ann = PlayerFactory(event=room, table=1)
    game = GameFactory(event=room, seed=7, tile_set="fr", lexicon=lexicon)
    r = open_round(game)
    slip_submit(player=ann, round=r, word="LNRST", ref="H8", score=30, at=T0)
    finish_round(r, T0)
    reason = Ruling.objects.get(player=ann).reason
    assert "absent du lexique Grammalecte 7.5" in reason, reason
    assert "upload" not in reason and ".txt" not in reason

"""The game's audit log says each action in the reader's words, its code beside it (what
programs read); every action the services write has its words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.web.conftest import club_night
from web.audit_words import AUDIT_WORDS

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.django_db
def test_the_journal_says_the_actions_in_french_with_their_codes(client) -> None:
    event, game, players, director = club_night("fr")
    client.force_login(director)
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("console:audit", args=[event.slug, 1])).content.decode()
    assert "tirage fait" in page and "coup publié" in page and "chrono lancé" in page
    assert '<code class="small">arbiter.round.drawn</code>' in page


def test_every_game_action_the_services_audit_has_its_words() -> None:
    written = set()
    for package in ("arbiter", "tournament"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            written |= set(re.findall(r'"(arbiter\.[a-z_]+\.[a-z_]+)"', text))
            for call in re.findall(r'round_audit\([a-z_.]+, "([a-z_]+)"', text):
                written.add(f"arbiter.round.{call}")
            written |= {a for a in re.findall(r'"(tournament\.game\.[a-z_]+)"', text)}
    said_elsewhere = {"arbiter.round.tops", "arbiter.ruling.ruled"}  # live changes, not audited
    assert written - said_elsewhere - set(AUDIT_WORDS) == set()

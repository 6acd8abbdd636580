from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from tournament.models import Event
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.players import player_register

DEMO_SLUG = "demo-club-night"
DEMO_SEED = 2016

# name, club, category, licence
DEMO_PLAYERS: list[tuple[str, str, str, str]] = [
    ("Alice Martin", "Lyon Scrabble", "S1", "DEMO-001"),
    ("Bruno Petit", "Lyon Scrabble", "S2", "DEMO-002"),
    ("Chloe Dubois", "Paris Rive Gauche", "S1", "DEMO-003"),
    ("David Laurent", "Paris Rive Gauche", "Veteran", "DEMO-004"),
    ("Emma Moreau", "Brussels Club", "Junior", "DEMO-005"),
    ("Farid Benali", "Brussels Club", "S3", "DEMO-006"),
    ("Grace O'Neill", "Dublin Tiles", "S2", "DEMO-007"),
    ("Hugo Lefevre", "Geneva Lettres", "S1", "DEMO-008"),
    ("Ines Garcia", "Geneva Lettres", "Junior", "DEMO-009"),
    ("Jules Roux", "Montreal Duplicate", "Veteran", "DEMO-010"),
    ("Karima Haddad", "Montreal Duplicate", "S3", "DEMO-011"),
    ("Louis Fontaine", "Lyon Scrabble", "S2", "DEMO-012"),
]


@transaction.atomic
def demo_event_ensure(*, today: dt.date | None = None) -> Event:
    """The demo event "Demo club night": 12 players and one game. Idempotent: whatever is
    missing is added, nothing present is changed (so a director may play with it)."""
    event = Event.objects.filter(slug=DEMO_SLUG).first()
    if event is None:
        event = event_create(
            name="Demo club night",
            slug=DEMO_SLUG,
            starts_on=today or timezone.localdate(),
            venue="Club room",
            actor=None,
        )
    registered = set(event.players.values_list("licence", flat=True))
    for table, (name, club, category, licence) in enumerate(DEMO_PLAYERS, start=1):
        if licence in registered:
            continue
        taken = event.players.filter(table=table).exists()
        player_register(
            event=event,
            name=name,
            club=club,
            category=category,
            licence=licence,
            table=None if taken else table,
            actor=None,
        )
    if not event.games.exists():
        game_create(event=event, seed=DEMO_SEED, actor=None)
    return event

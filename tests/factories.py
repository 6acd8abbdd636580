"""factory_boy factories for the tournament models (valid rows by default)."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from tournament.models import (
    AuditEntry,
    Event,
    EventRole,
    Game,
    Player,
    Round,
    Ruling,
    Submission,
)

PASSWORD = "a-test-password"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Club night {n}")
    slug = factory.Sequence(lambda n: f"club-night-{n}")
    starts_on = factory.LazyFunction(lambda: dt.date(2026, 5, 1))
    venue = "Club room"


class EventRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = EventRole

    user = factory.SubFactory(UserFactory)
    event = factory.SubFactory(EventFactory)
    role = EventRole.Role.DIRECTOR


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    event = factory.SubFactory(EventFactory)
    name = factory.Sequence(lambda n: f"Player {n}")
    club = "Lyon Scrabble"
    category = "S1"


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    seed = 7
    tile_set = factory.SelfAttribute("event.tile_set")
    lexicon = factory.SelfAttribute("event.lexicon")
    board_layout = factory.SelfAttribute("event.board_layout")


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    game = factory.SubFactory(GameFactory)
    number = 1
    rack = "AEIRST?"
    status = Round.Status.DRAWN


class OpenRoundFactory(RoundFactory):
    status = Round.Status.OPEN
    opened_at = factory.LazyFunction(timezone.now)
    deadline = factory.LazyAttribute(lambda r: r.opened_at + dt.timedelta(seconds=180))


class SubmissionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Submission

    round = factory.SubFactory(OpenRoundFactory)
    player = factory.SubFactory(PlayerFactory, event=factory.SelfAttribute("..round.game.event"))
    word = "TRAINS"
    ref = "H4"
    announced_score = 14


class RulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Ruling

    submission = factory.SubFactory(SubmissionFactory)
    round = factory.SelfAttribute("submission.round")
    player = factory.SelfAttribute("submission.player")
    code = Ruling.Code.VALID
    move_score = 14
    points = 14


class AuditEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AuditEntry

    event = factory.SubFactory(EventFactory)
    action = "tournament.test.done"

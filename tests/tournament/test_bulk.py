"""``rows_insert`` writes the rows ``bulk_create`` writes (on SQLite here; on PostgreSQL in
test_bulk_on_postgres.py), and refuses a model it cannot write plainly."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.factories import GameFactory, PlayerFactory, RoundFactory, SubmissionFactory
from tournament.bulk import rows_insert
from tournament.models import AuditEntry, Round, Ruling, Submission

pytestmark = pytest.mark.django_db

AT = dt.datetime(2026, 5, 1, 20, 3, 7, 123456, tzinfo=dt.UTC)
PARIS = dt.timezone(dt.timedelta(hours=2))


def rulings_for(round: Round, slips: list[Submission]) -> list[Ruling]:
    """Rulings with every kind of value: null or not, true and false, text that looks like
    SQL or a placeholder, times in other zones."""
    a, b, c = (s.player for s in slips)
    return [
        Ruling(
            round=round,
            player=a,
            submission=slips[0],
            code=Ruling.Code.VALID_WARNING,
            reason='announced 12, the move is worth 14: 14 and a warning; 100 % l\'été "%s"',
            move_score=14,
            points=14,
            warning=True,
            penalty=0,
            rank=3,
            found_top=False,
            ruled_at=AT,
        ),
        Ruling(
            round=round,
            player=b,
            submission=None,
            code=Ruling.Code.MISSING,
            reason="no slip handed in: 0'); DROP TABLE tournament_ruling; --",
            ruled_at=AT.astimezone(PARIS),
        ),
        Ruling(
            round=round,
            player_id=c.pk,
            submission_id=slips[2].pk,
            code=Ruling.Code.REFERENCE_PENALTY,
            reason="",
            move_score=30,
            points=30,
            penalty=5,
            warning_penalty=5,
            averaged=True,
            solo=10,
            rank=1,
            found_top=True,
            amended=True,
            ruled_at=AT + dt.timedelta(microseconds=1),
        ),
    ]


def stored(round: Round) -> list[dict[str, Any]]:
    """The round's rulings as stored, the slip named by its player (the rounds' slips differ)."""
    rows = Ruling.objects.filter(round=round).order_by("player_id").values()
    players = dict(Submission.objects.values_list("pk", "player_id"))
    return [
        {
            **{k: v for k, v in row.items() if k not in ("id", "round_id")},
            "submission_id": players.get(row["submission_id"]),
        }
        for row in rows
    ]


def test_it_writes_the_rows_bulk_create_writes() -> None:
    game = GameFactory()
    first, second = RoundFactory(game=game), RoundFactory(game=GameFactory(event=game.event))
    players = [PlayerFactory(event=game.event) for _ in range(3)]
    made = {r: [SubmissionFactory(round=r, player=p) for p in players] for r in (first, second)}
    Ruling.objects.bulk_create(rulings_for(first, made[first]))
    rows_insert(Ruling, rulings_for(second, made[second]))
    want = stored(first)
    assert stored(second) == want
    assert len(want) == 3 and want[1]["submission_id"] is None
    # The times as the database compares them (SQLite: text, UTC).
    assert Ruling.objects.filter(round=second, ruled_at__lte=AT).count() == 2
    assert Ruling.objects.filter(round=second, ruled_at__gt=AT).get().amended
    assert [r.ruled_at for r in Ruling.objects.filter(round=second).order_by("player_id")] == [
        AT,
        AT,
        AT + dt.timedelta(microseconds=1),
    ]


def test_nothing_to_insert_writes_nothing() -> None:
    rows_insert(Ruling, [])
    assert not Ruling.objects.exists()


def test_it_refuses_a_model_with_a_field_it_cannot_write_plainly() -> None:
    with pytest.raises(TypeError, match=r"AuditEntry\.data is not a plain field"):
        rows_insert(AuditEntry, [AuditEntry(action="x.y.z", data={})])
    assert not AuditEntry.objects.exists()

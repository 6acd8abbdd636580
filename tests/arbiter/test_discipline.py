"""Disciplinary warnings (docs/rules.md, case 21): given to a player for a round, not for a
slip; counted with the slips' warnings; kept when the slip is ruled again; withdrawn with a
reason; shown in the standings' warnings; given from the console and the staff API."""

from __future__ import annotations

import pytest

from arbiter.selectors.standings import standings_game
from arbiter.services import corrections, publishing
from arbiter.services.discipline import discipline_warn, discipline_withdraw
from tests.arbiter.rules.helpers import (
    CLOSING,
    NAMES,
    ROUND_2,
    horn_game,
    paper,
    rulings,
    score,
)
from tests.atomicity import AuditDown, audit_fails, database_snapshot
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Discipline, Player, Ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper_room() -> list[Player]:
    event = EventFactory(solo_min_players=3)
    return [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate(NAMES)]


@pytest.fixture
def director():
    return UserFactory(username="director")


def free_warnings(players, n: int) -> None:
    players[0].event.__class__.objects.filter(pk=players[0].event_id).update(warnings_free=n)


def test_21_a_disciplinary_warning_counts_with_the_slips_warning_of_the_same_round(
    paper_room, director
) -> None:
    free_warnings(paper_room, 1)
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8F", 12)  # the score wrong: a warning, the free one
    paper(paper_room[1], r, "FARM", "8F", 9)
    r = score(r)
    ann, bob = paper_room[0], paper_room[1]
    discipline_warn(round=r, player=ann, reason="talking during the round", actor=director)
    discipline_warn(round=r, player=bob, reason="phone out", actor=director)
    got = rulings(r)
    # Ann: two warnings in the round, one beyond the free one: 5; Bob: his first, free
    assert (got["Ann"].discipline_warnings, got["Ann"].warning_penalty, got["Ann"].total) == (
        1,
        5,
        4,
    )
    assert (got["Bob"].discipline_warnings, got["Bob"].warning_penalty, got["Bob"].total) == (
        1,
        0,
        9,
    )
    publishing.round_publish(round=r, actor=None, now=ROUND_2 + CLOSING)
    warned = {row.name: row.warnings for row in standings_game(game=r.game).rows}
    assert warned["Ann"] == 2 and warned["Bob"] == 1
    entry = AuditEntry.objects.get(action="arbiter.discipline.warned", data__player=ann.pk)
    assert entry.actor == director and entry.data["reason"] == "talking during the round"


def test_21_it_outlives_the_slip_ruled_again_and_is_withdrawn_with_a_reason(
    paper_room, director
) -> None:
    free_warnings(paper_room, 0)
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8F", 9)
    r = score(r)
    given = discipline_warn(round=r, player=paper_room[0], reason="noise", actor=director)
    assert rulings(r)["Ann"].warning_penalty == 5
    ruling = Ruling.objects.get(round=r, player=paper_room[0])
    corrections.ruling_amend(ruling=ruling, late=True, reason="handed in late", actor=director)
    again = rulings(r)["Ann"]  # ruled again (late): the disciplinary warning stays
    assert (again.code, again.discipline_warnings, again.warning_penalty) == ("late", 1, 5)
    with pytest.raises(ApplicationError, match="needs its reason"):
        discipline_withdraw(discipline=given, reason=" ", actor=director)
    discipline_withdraw(discipline=given, reason="wrong player", actor=director)
    assert (rulings(r)["Ann"].discipline_warnings, rulings(r)["Ann"].warning_penalty) == (0, 0)
    assert AuditEntry.objects.filter(action="arbiter.discipline.withdrawn").count() == 1


def test_21_a_warning_given_while_the_round_is_played_counts_when_it_is_scored(
    paper_room, director
) -> None:
    free_warnings(paper_room, 0)
    _, r = horn_game(paper_room)
    discipline_warn(round=r, player=paper_room[2], reason="left the room", actor=director)
    got = rulings(score(r))
    assert (got["Cleo"].code, got["Cleo"].discipline_warnings, got["Cleo"].total) == (
        "missing",
        1,
        -5,
    )
    assert [got[n].discipline_warnings for n in NAMES] == [0, 0, 1, 0, 0]


def test_21_refusals_say_why(paper_room, director) -> None:
    _, r = horn_game(paper_room)
    with pytest.raises(ApplicationError, match="needs its reason"):
        discipline_warn(round=r, player=paper_room[0], reason="  ", actor=director)
    stranger = PlayerFactory(event=EventFactory(), name="Zoe")
    with pytest.raises(ApplicationError, match="does not play this event"):
        discipline_warn(round=r, player=stranger, reason="x", actor=director)
    assert not Discipline.objects.exists()


def test_21_the_warning_is_written_all_or_nothing(paper_room, director, monkeypatch) -> None:
    _, r = horn_game(paper_room)
    r = score(r)
    before = database_snapshot()
    audit_fails(monkeypatch)
    with pytest.raises(AuditDown):
        discipline_warn(round=r, player=paper_room[0], reason="noise", actor=director)
    assert database_snapshot() == before


# 22: ties in the standings ---------------------------------------------------------------------


def test_22_the_tie_break_key_is_the_last_games_total_then_its_rounds_backwards() -> None:
    from arbiter.rules import tie_break_key

    assert tie_break_key([10, 9]) == (19, 9, 10)
    assert tie_break_key([0, 19]) > tie_break_key([10, 9])  # the same total: the last round
    assert tie_break_key([]) == (0,)


@pytest.mark.parametrize("tie_break", ["shared", "last_game"])
def test_22_equal_totals_share_a_rank_or_are_broken_by_the_last_rounds(
    paper_room, director, tie_break: str
) -> None:
    event = paper_room[0].event
    event.tie_break = tie_break
    event.save(update_fields=["tie_break"])
    game, r = horn_game(paper_room)
    first = Ruling.objects.get(round__game=game, round__number=1, player=paper_room[0])
    corrections.ruling_amend(ruling=first, points=10, reason="test: round 1", actor=director)
    paper(paper_room[0], r, "FARM", "8F", 9)  # Ann: 10 + 9
    paper(paper_room[1], r, "FARM", "8F", 9)
    r = score(r)
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    corrections.ruling_amend(ruling=bob, points=19, reason="test: round 2", actor=director)
    publishing.round_publish(round=r, actor=None, now=ROUND_2 + CLOSING)
    rows = {row.name: row for row in standings_game(game=game).rows}
    assert rows["Ann"].total == rows["Bob"].total == 19
    if tie_break == "shared":
        assert (rows["Ann"].rank, rows["Bob"].rank) == (1, 1)
    else:  # the same game total: round 2, the last, decides
        assert (rows["Bob"].rank, rows["Ann"].rank) == (1, 2)
    assert rows["Cleo"].rank == 3  # the others, all at 0, share a rank either way
    assert rows["Dan"].rank == rows["Eve"].rank == 3


def test_21_what_is_stored_and_audited(paper_room, director) -> None:
    _, r = horn_game(paper_room)
    r = score(r)
    given = discipline_warn(round=r, player=paper_room[0], reason="  noise  ", actor=director)
    given.refresh_from_db()
    assert (given.reason, given.given_by, given.round, given.player) == (
        "noise",
        director,
        r,
        paper_room[0],
    )
    warned = AuditEntry.objects.get(action="arbiter.discipline.warned")
    assert (warned.round, warned.game, warned.event) == (r, r.game, r.game.event)
    assert warned.data == {"player": paper_room[0].pk, "discipline": given.pk, "reason": "noise"}
    discipline_withdraw(discipline=given, reason=" mistake ", actor=director)
    withdrawn = AuditEntry.objects.get(action="arbiter.discipline.withdrawn")
    assert (withdrawn.actor, withdrawn.round, withdrawn.game) == (director, r, r.game)
    assert withdrawn.data == {"player": paper_room[0].pk, "given": "noise", "reason": "mistake"}


def test_21_refusals_carry_their_code_and_their_whole_message(paper_room, director) -> None:
    game, r = horn_game(paper_room)
    with pytest.raises(ApplicationError, match=r"^A disciplinary warning needs its reason\.$") as e:
        discipline_warn(round=r, player=paper_room[0], reason="", actor=director)
    assert e.value.data == {"code": "reason_missing"}
    given = discipline_warn(round=r, player=paper_room[0], reason="noise", actor=director)
    with pytest.raises(
        ApplicationError, match=r"^Withdrawing a disciplinary warning needs its reason\.$"
    ) as e:
        discipline_withdraw(discipline=given, reason="", actor=director)
    assert e.value.data == {"code": "reason_missing"}
    stranger = PlayerFactory(event=EventFactory(), name="Zoe")
    with pytest.raises(ApplicationError, match=r"^Zoe does not play this event\.$") as e:
        discipline_warn(round=r, player=stranger, reason="x", actor=director)
    assert e.value.data == {"code": "not_a_player"}
    corrections.round_annul(round=r, reason="bad draw", actor=director)
    r.refresh_from_db()
    with pytest.raises(ApplicationError, match=r"can be given a disciplinary warning\.$"):
        discipline_warn(round=r, player=paper_room[0], reason="x", actor=director)
    event = game.event
    event.status = event.Status.FINISHED
    event.save(update_fields=["status"])
    closed = r"is closed: no new round, no slip and no amendment until its director reopens it\.$"
    with pytest.raises(ApplicationError, match=closed) as e:
        discipline_warn(round=r, player=paper_room[0], reason="x", actor=director)
    assert e.value.data == {"code": "event_closed"}
    with pytest.raises(ApplicationError, match=closed):
        discipline_withdraw(discipline=given, reason="x", actor=director)
    assert Discipline.objects.count() == 1

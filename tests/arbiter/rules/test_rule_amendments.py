"""docs/rules.md, case 11: amendments (a missing slip entered after publication, a reference
penalty set, a slip marked late) and what they move in the standings.
"""

from __future__ import annotations

import pytest

from arbiter.selectors.standings import standings_game
from arbiter.services import corrections, publishing
from tests.arbiter.rules.helpers import CLOSING, ROUND_2, horn_game, phone, score
from tournament.models import Ruling

pytestmark = pytest.mark.django_db


def test_11_a_missing_slip_entered_after_publication_moves_that_round_and_the_standings(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    r = publishing.round_publish(round=score(r), actor=None, now=ROUND_2 + CLOSING)
    before = standings_game(game=r.game).row_of(paper_room[1].pk)
    assert before is not None and before.total == 0
    ruling = corrections.ruling_slip_enter(
        round=r,
        player=paper_room[1],
        word="FARM",
        ref="8F",
        score=9,
        reason="slip found",
        actor=director,
    )
    assert (ruling.code, ruling.points, ruling.amended) == ("valid", 9, True)
    after = standings_game(game=r.game).row_of(paper_room[1].pk)
    assert after is not None and after.total == 9
    entry = r.audit_entries.get(action="arbiter.ruling.slip_entered")
    assert entry.actor == director and entry.data["reason"] == "slip found"


def test_11_an_amendment_sets_a_reference_penalty_or_marks_a_slip_late(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 9)
    r = score(r)
    ann, bob = (
        Ruling.objects.get(round=r, player=paper_room[0]),
        Ruling.objects.get(round=r, player=paper_room[1]),
    )
    corrections.ruling_amend(ruling=ann, penalty=5, reason="reference misread", actor=director)
    corrections.ruling_amend(ruling=bob, late=True, reason="handed in late", actor=director)
    ann.refresh_from_db()
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    assert (ann.points, ann.penalty, ann.total) == (9, 5, 4)
    assert (bob.code, bob.points, bob.amended) == ("late", 0, True)
    with pytest.raises(Exception, match="needs its reason"):
        corrections.ruling_amend(ruling=ann, penalty=0, reason=" ", actor=director)

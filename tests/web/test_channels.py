"""One ruling whatever the channel: the same slip handed in from a phone (the player API), typed
by an arbiter (the game's slip action, as the console and the director API send it) and given
to the ruling CLI (``python -m arbiter batch``, no database) is ruled to the last field: code,
points, penalty, warning, net, the move's score, found-top, rank and reason. Every case of
rules.md's "Rulings in detail" that a slip can be (rule 1 to 7; "late" and "multiple" are the
arbiter's to say, so the phone has no such slip).

The board is the rulebook's: round 1 on the empty board with the rack HORNAEI (the first move,
rule 5), HORN played at H6; round 2 with the rack AFMEIO? (a blank: rule 3).
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from rest_framework.test import APIClient

from arbiter.services import clock, publishing, racks, scoring
from tests.arbiter.conftest import T0
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Event, Game, Player, Round, Ruling

pytestmark = pytest.mark.django_db

ROUND_2 = T0 + dt.timedelta(minutes=10)
CLOSING = dt.timedelta(seconds=190)  # the 3-minute round plus the 10 s grace
FIELDS = (
    "code",
    "points",
    "penalty",
    "warning",
    "net",
    "move_score",
    "found_top",
    "rank",
    "reason",
    "article",
)

# (word, ref, announced score, late, multiple): what the slip says. Round 1, the first move.
FIRST_MOVE = [
    ("HORN", "H6", 14, False, False),  # rule 5: at its best position through the centre
    ("HORN", "", 14, False, False),  # rule 5: the reference is optional
    ("HORN", "8H", 14, False, False),  # rule 5: written across whatever the reference says
    ("HORN", "H6", 20, False, False),  # rule 2: score wrong
    ("HORNs", "H6", None, False, False),  # rule 3 with no blank on the rack: not on the rack
    ("NORIA", "H4", 12, False, False),  # rule 1 or 5: another placement
    ("ZZZ", "H8", 30, False, False),  # rule 6: not a word
]
# Round 2: HORN at H6, rack AFMEIO?.
ROUND_TWO = [
    ("FARM", "8F", 9, False, False),  # rule 1: valid
    ("FARM", "8F", 12, False, False),  # rule 2: score wrong
    ("FARM", "8F", None, False, False),  # rule 2: no score announced
    ("FARMs", "8F", 11, False, False),  # rule 1: the blank marked
    ("FARMS", "8F", 11, False, False),  # rule 3: the blank not marked
    ("fARMS", "8F", 11, False, False),  # rule 3: the blank marked on the wrong letter
    ("FARMS", "8F", 99, False, False),  # rule 3 with the score also wrong: one warning
    ("FARM", "8G", 9, False, False),  # rule 4: wrong reference, right score: 9 - 5
    ("FARM", "10E", 9, False, False),  # rule 4
    ("FARM", "", 9, False, False),  # rule 4: no reference
    ("FARM", "H-8", 9, False, False),  # rule 4: an unreadable reference counts as none
    ("FARM", "10E", 8, False, False),  # rule 4: reference and score wrong: 0
    ("FARM", "P8", 9, False, False),  # rule 4: a reference off the board keeps its direction
    ("ZZXQ", "8F", 9, False, False),  # rule 6: not in the lexicon
    ("SWARM", "8E", 12, False, False),  # rule 6: tiles not on the rack
    ("ABSOLUTELY", "A1", 10, False, False),  # rule 6: not on the rack at any placement
    ("FOAM", "H5", 10, False, False),  # rule 6: clashes with HORN, legal elsewhere
    ("FARM!", "8F", 9, False, False),  # an unreadable word: malformed
    ("FARM", "HOR", 9, False, False),  # case 13: junction letters for a reference
    ("FARM", "hor", 12, False, False),  # case 13: in lower case, the score wrong
    ("FARM", "OR", 9, False, False),  # case 14: two junction letters where three can be
    ("FARM", "HPR", 9, False, False),  # case 15: junction letters altered
    ("FARM", "XYZ", 9, False, False),  # case 13 then 4: letters that designate nothing
    ("HORNs", "A1", 7, False, False),  # case 16: a word extended needs no reference
    ("HORNs", "", 7, False, False),  # case 16
    ("OME", "9E", 7, False, False),  # case 17: the final letter on the board left out
    ("OMEA", "9E", 7, False, False),  # case 17: the final letter changed
    ("FAME", "", 26, False, False),  # case 19: the score fits two placements
    ("FAME", "ORN", 26, False, False),  # case 13: the junction letters fit both, one score
    ("FARM", "F8", 9, False, False),  # FISF 2023 5.3: an inverted reference (before: 0)
    ("FARM", "F8", 12, False, False),  # FISF 2023 5.3.2: inverted, the score wrong
    ("AERO", "9F", 4, False, False),  # FISF 2023 5.6: AERO 8F is worth 4: the penalty, a zero
]
PAPER_ONLY = [
    ("FARM", "8F", 9, True, False),  # rule 6: late (the arbiter says so)
    ("FARM", "8F", 9, False, True),  # rule 7: several slips handed in
]


def cli(
    board: list[str], rack: str, number: int, slips: list[tuple[Any, ...]], rulebook: str
) -> list[dict]:
    lines = [
        json.dumps(
            {
                "op": "rule",
                "board": board,
                "rack": rack,
                "round": number,
                "slip": {"word": w, "ref": r, "score": s, "late": late, "multiple": multiple},
                "policy": {"rulebook": rulebook},
            }
        )
        for w, r, s, late, multiple in slips
    ]
    done = subprocess.run(
        [sys.executable, "-m", "arbiter", "batch"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def stored(player: Player, round: Round) -> dict[str, Any]:
    ruling = Ruling.objects.get(player=player, round=round)
    return {
        "code": ruling.code,
        "points": ruling.points,
        "penalty": ruling.penalty,
        "warning": ruling.warning,
        "net": ruling.points - ruling.penalty,
        "move_score": ruling.move_score,
        "found_top": ruling.found_top,
        "rank": ruling.rank,
        "reason": ruling.reason,
        "article": ruling.article,
    }


class Night:
    """An event with a player per slip and channel, an arbiter, and the game being played."""

    def __init__(self, cases: int, rulebook: str) -> None:
        self.event: Event = EventFactory(slug="channels", solo_min_players=99, rulebook=rulebook)
        self.phones = [PlayerFactory(event=self.event, table=i + 1) for i in range(cases)]
        self.papers = [PlayerFactory(event=self.event, table=101 + i) for i in range(cases)]
        self.arbiter = UserFactory(username="arbiter")
        EventRoleFactory(event=self.event, user=self.arbiter, role="arbiter")
        self.game: Game = GameFactory(event=self.event, source=Game.Source.MANUAL, seed=None)

    def open(self, rack: str, now: dt.datetime) -> Round:
        drawn = racks.round_rack_enter(game=self.game, rack=rack, actor=None)
        return clock.round_open(round=drawn, actor=None, now=now)

    def hand_in(self, round: Round, slips: list[tuple[Any, ...]], at: dt.datetime) -> None:
        arbiter = APIClient()
        arbiter.force_login(self.arbiter)
        action = f"/api/v1/events/channels/games/{self.game.number}/slip"
        with time_machine.travel(at, tick=False):
            for i, (word, ref, score, late, multiple) in enumerate(slips):
                if not (late or multiple):
                    cache.clear()  # the phones' rate limit: one room, many slips
                    phone = APIClient()
                    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {self.phones[i].token}")
                    body = {"round": round.number, "word": word, "ref": ref, "score": score}
                    sent = phone.post("/api/v1/play/submissions", body, format="json")
                    assert sent.status_code == 201, (word, ref, sent.json())
                entry = {"table": self.papers[i].table, "word": word, "ref": ref, "late": late}
                if score is not None:
                    entry["score"] = score
                if multiple:
                    first = dict(entry, word="HORN")
                    assert arbiter.post(action, first, format="json").status_code == 200
                    entry["existing"] = "multiple"
                typed = arbiter.post(action, entry, format="json")
                assert typed.status_code == 200, (word, ref, typed.json())

    def score(self, round: Round, closing: dt.datetime) -> Round:
        assert clock.round_close(round_id=round.pk, now=closing)
        scored = scoring.round_score(round_id=round.pk, now=closing)
        assert scored is not None
        return scored


def compare(night: Night, round: Round, slips: list[tuple[Any, ...]], rulings: list[dict]):
    for i, (slip, by_cli) in enumerate(zip(slips, rulings, strict=True)):
        word, ref, score, late, multiple = slip
        expected = {name: by_cli[name] for name in FIELDS}
        assert stored(night.papers[i], round) == expected, ("paper", slip)
        if not (late or multiple):
            assert stored(night.phones[i], round) == expected, ("phone", slip)


@pytest.mark.parametrize("rulebook", ["fisf-2023", "before-2023"])
def test_the_same_slip_gets_the_same_ruling_from_phone_paper_and_the_ruling_cli(
    rulebook: str,
) -> None:
    night = Night(len(ROUND_TWO) + len(PAPER_ONLY), rulebook)
    first = night.open("HORNAEI", T0)
    night.hand_in(first, FIRST_MOVE, T0 + dt.timedelta(seconds=30))
    scored = night.score(first, T0 + CLOSING)
    compare(night, scored, FIRST_MOVE, cli(["." * 15] * 15, "HORNAEI", 1, FIRST_MOVE, rulebook))
    publishing.round_top_choose(round=scored, ref="H6", word="HORN", actor=None)
    publishing.round_publish(round=scored, actor=None, now=T0 + CLOSING)

    second = night.open("AFMEIO?", ROUND_2)
    slips = ROUND_TWO + PAPER_ONLY
    night.hand_in(second, slips, ROUND_2 + dt.timedelta(seconds=30))
    scored = night.score(second, ROUND_2 + CLOSING)
    board = list(Game.objects.get(pk=night.game.pk).board)
    rulings = cli(board, "AFMEIO?", 2, slips, rulebook)
    compare(night, scored, slips, rulings)
    codes = {r["code"] for r in rulings}
    articles = {r["article"] for r in rulings}
    if rulebook == "fisf-2023":
        assert {"FISF 2023 · " + a for a in ("5.3", "5.3.1", "5.3.2", "5.3.3", "5.5", "5.6")} <= (
            articles
        ), articles
        assert {"FISF 2023 · 5.4.1.a", "FISF 2023 · 5.4.1.d", "FISF 2023 · 5.7"} <= articles
        assert "final_letter_penalty" not in codes
        return
    assert codes >= {
        "valid",
        "valid_warning",
        "reference_penalty",
        "invalid_word",
        "not_on_rack",
        "bad_reference",
        "malformed",
        "late",
        "multiple",
        "final_letter_penalty",
    }, codes
    assert articles >= {"13", "14", "15", "16", "17 · FISF 5.3.1", "18 · FISF 5.3.1"}, articles
    assert "19 · FISF 5.3.2" in articles, articles

"""A multiplex between two real installations on one machine (issue 38): two ``manage.py
run_embedded``, each with its own SQLite database, folder broker, worker and beat, and its own
port. The centre (the host) draws a game live; the club (a remote room) links to it with the
room key through a TCP relay this test owns, so that the link can be cut and restored as a
club's Internet line is: once in the middle of a round (the room plays it, waits for the top),
once across two of the host's rounds (the room catches up in order). The host's one ranking
must then equal the by-hand merge of the two installations' own standings (solos are off:
a room's own standings count its solos over its own room only).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from pathlib import Path

import pytest

from tests.faults.stack import HOST, Stack, free_port

pytestmark = pytest.mark.slow

SECONDS = 8  # per round: the host's, which the room takes with the rest of its rules

HOST_SETUP = """
import datetime as dt, json
from arbiter.services.multiplex import room_key_issue
from tournament.models import Event
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.players import player_register
from tournament.services.rooms import room_create
host = event_create(name="Multiplex", slug="multiplex", starts_on=dt.date(2026, 5, 1), actor=None)
Event.objects.filter(pk=host.pk).update(
    round_seconds={seconds}, warning_seconds=1, grace_seconds=1, publish_after_seconds=0,
    solo_min_players=99,
)
for i, name in enumerate(["Ann", "Bob"]):
    player_register(event=host, name=name, club="Paris", licence="P" + str(i), table=i + 1,
                    actor=None)
game_create(event=host, actor=None, seed=11)
room = room_create(host=Event.objects.get(pk=host.pk), name="Dakar", remote=True, actor=None)
stored, key = room_key_issue(room=room, actor=None)
print(json.dumps({{"key": key}}))
"""

REMOTE_SETUP = """
import datetime as dt, json
from arbiter.services.multiplex_remote import link_create
from tournament.models import Event
from tournament.services.events import event_create
from tournament.services.players import player_register
event = event_create(name="Club de Dakar", slug="dakar", starts_on=dt.date(2026, 5, 1), actor=None)
Event.objects.filter(pk=event.pk).update(warning_seconds=1, grace_seconds=1,
                                         publish_after_seconds=0)
for i, name in enumerate(["Cleo", "Dan", "Eve"]):
    player_register(event=event, name=name, club="Dakar", licence="D" + str(i), table=i + 1,
                    actor=None)
link = link_create(event=Event.objects.get(pk=event.pk), host_url={url!r}, key={key!r},
                   actor=None)
print(json.dumps({{"host_event": link.host_event, "room": link.room_name}}))
"""

# Draw and open the next round of game 1 of ``slug``; the players hand in: the first the top,
# the second another word that scores less, the third the top every other round.
PLAY = """
import json
from arbiter.services import clock, racks
from arbiter.services.scoring import round_tops_compute
from arbiter.services.slips import slip_submit
from tournament.errors import ApplicationError
from tournament.models import Event, Round
event = Event.objects.get(slug={slug!r})
game = event.games.get(number=1)
try:
    drawn = racks.round_draw(game=game, actor=None)
except ApplicationError as exc:
    print(json.dumps({{"refused": exc.code}}))
    raise SystemExit(0)
round = clock.round_open(round=drawn, actor=None)
round_tops_compute(round_id=round.pk)
round.refresh_from_db()
top = round.tops[0]
second = next((t for t in round.tops if t["score"] < top["score"]
               and t["word"].upper() != top["word"].upper()), top)
players = list(event.players.order_by("table"))
moves = [top, second] + ([top] if round.number % 2 else [])
for player, move in zip(players, moves):
    slip_submit(player=player, round=round, word=move["word"], ref=move["ref"],
                score=move["score"])
print(json.dumps({{"round": round.number, "rack": round.rack}}))
"""

STATUS = """
import json
from arbiter.services.multiplex_remote import link_status
from tournament.models import MultiplexLink
said = link_status(MultiplexLink.objects.get())
print(json.dumps({"connected": said.connected, "waiting": said.waiting, "error": said.error}))
"""

AMEND = """
from arbiter.services.corrections import ruling_amend
from tournament.models import Ruling
ruling = Ruling.objects.get(player__name="Dan", round__number=1, round__status="published")
ruling_amend(ruling=ruling, reason="the slip was misread", actor=None, points=ruling.points + 5)
"""

STANDINGS = """
import json
from arbiter.selectors.standings import standings_event, standings_simultaneous
from tournament.models import Event
event = Event.objects.get(slug={slug!r})
rows = (standings_simultaneous(host=event) if {one!r} else standings_event(event=event)).rows
print(json.dumps({{r.name: [r.total, r.rounds, r.room] for r in rows}}))
"""


class Relay:
    """A TCP relay from a port of ours to the host's: the club's line, which we cut."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._server: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()

    def restore(self) -> None:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((HOST, self.port))
        server.listen(16)
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def cut(self) -> None:
        """Refuse new connections and break those open, as a line that drops does."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self._open.clear()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection((HOST, self.target), timeout=10)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)


def _stack(folder: Path, template: Path) -> Stack:
    folder.mkdir()
    stack = Stack(folder, embedded=True)
    stack.extra_env = {"MULTIPLEX_POLL_SECONDS": "1"}
    stack.migrate(template=template)
    return stack


def _json(out: str) -> dict:
    return dict(json.loads(out.strip().splitlines()[-1]))


@pytest.fixture
def installations(tmp_path: Path, migrated_database: Path):
    centre = _stack(tmp_path / "centre", migrated_database)
    club = _stack(tmp_path / "club", migrated_database)
    relay = Relay(centre.web_port)
    try:
        yield centre, club, relay
    finally:
        relay.cut()
        club.close()
        centre.close()


def _round_status(stack: Stack, slug: str, number: int) -> str:
    rows = stack.query(
        "SELECT r.status FROM tournament_round r JOIN tournament_game g ON g.id = r.game_id "
        "JOIN tournament_event e ON e.id = g.event_id "
        "WHERE e.slug = ? AND r.number = ? AND r.status != 'annulled'",
        slug,
        number,
    )
    return str(rows[0][0]) if rows else ""


def _racks_received(club: Stack) -> int:
    rows = club.query(
        "SELECT g.predrawn FROM tournament_game g JOIN tournament_event e ON e.id = g.event_id "
        "WHERE e.slug = 'dakar' AND g.number = 1"
    )
    return len(json.loads(rows[0][0])["rounds"]) if rows else 0


def _receipts(centre: Stack) -> dict[int, int]:
    rows = centre.query("SELECT round_number, version FROM tournament_roomreceipt")
    return {int(n): int(v) for n, v in rows}


def test_two_installations_play_a_multiplex_with_the_link_cut_twice(installations) -> None:
    centre, club, relay = installations
    centre.run_embedded()
    club.run_embedded()
    relay.restore()
    key = _json(centre.manage("shell", "-c", HOST_SETUP.format(seconds=SECONDS)))["key"]
    url = f"http://{HOST}:{relay.port}"
    linked = _json(club.manage("shell", "-c", REMOTE_SETUP.format(url=url, key=key)))
    assert linked == {"host_event": "Multiplex", "room": "Dakar"}

    def host_plays(n: int) -> None:
        assert _json(centre.manage("shell", "-c", PLAY.format(slug="multiplex")))["round"] == n

    def club_plays(n: int, *, then_cut: bool = False) -> None:
        club.wait_until(f"rack {n} at the club", lambda: _racks_received(club) >= n, seconds=30)
        if then_cut:
            relay.cut()
        assert _json(club.manage("shell", "-c", PLAY.format(slug="dakar")))["round"] == n

    def published(stack: Stack, slug: str, n: int) -> None:
        stack.wait_until(
            f"{slug} round {n} published",
            lambda: _round_status(stack, slug, n) == "published",
            seconds=60,
        )

    # Round 1: the link holds.
    host_plays(1)
    club_plays(1)
    published(centre, "multiplex", 1)
    published(club, "dakar", 1)
    centre.wait_until("round 1's results", lambda: 1 in _receipts(centre), seconds=30)

    # Round 2: the line drops once the club has the rack. The club plays its round, scores
    # it, and waits for the host's top, saying so.
    host_plays(2)
    club_plays(2, then_cut=True)
    published(centre, "multiplex", 2)
    club.wait_until(
        "round 2 scored at the club",
        lambda: _round_status(club, "dakar", 2) == "scored",
        seconds=60,
    )
    club.wait_until(
        "the club sees the line down",
        lambda: (
            club.query("SELECT last_error_code FROM tournament_multiplexlink")[0][0]
            == "host_unreachable"
        ),
        seconds=30,
    )
    said = _json(club.manage("shell", "-c", STATUS))
    assert not said["connected"] and "cannot be reached" in said["error"]
    assert any("its top comes when the host publishes it" in w for w in said["waiting"])
    assert _round_status(club, "dakar", 2) == "scored"  # not published without the host's top
    relay.restore()
    published(club, "dakar", 2)
    centre.wait_until("round 2's results", lambda: 2 in _receipts(centre), seconds=30)

    # Rounds 3 and 4: the line drops before the club hears of round 3, the host plays both.
    relay.cut()
    host_plays(3)
    published(centre, "multiplex", 3)
    host_plays(4)
    published(centre, "multiplex", 4)
    assert _racks_received(club) == 2
    refused = _json(club.manage("shell", "-c", PLAY.format(slug="dakar")))
    assert refused == {"refused": "multiplex_rack_awaited"}
    said = _json(club.manage("shell", "-c", STATUS))
    assert any("waiting for round 3's rack" in w for w in said["waiting"])
    relay.restore()
    club_plays(3)
    club.wait_until("caught up in order", lambda: _racks_received(club) == 4, seconds=30)
    published(club, "dakar", 3)
    club_plays(4)
    published(club, "dakar", 4)
    centre.wait_until("every round's results", lambda: len(_receipts(centre)) == 4, seconds=30)

    # An amendment at the club, after the fact: version 2 of round 1 reaches the host.
    club.manage("shell", "-c", AMEND)
    centre.wait_until("the amendment", lambda: _receipts(centre)[1] == 2, seconds=30)

    # The one ranking is the two installations' own standings, merged by hand.
    one = _json(centre.manage("shell", "-c", STANDINGS.format(slug="multiplex", one=True)))
    here = _json(centre.manage("shell", "-c", STANDINGS.format(slug="multiplex", one=False)))
    there = _json(club.manage("shell", "-c", STANDINGS.format(slug="dakar", one=False)))
    merged = {name: total for name, (total, _, _) in {**here, **there}.items()}
    assert {name: total for name, (total, _, _) in one.items()} == merged
    assert {name: (rounds, room) for name, (_, rounds, room) in one.items()} == {
        "Ann": (4, "Multiplex"),
        "Bob": (4, "Multiplex"),
        "Cleo": (4, "Dakar"),
        "Dan": (4, "Dakar"),
        "Eve": (4, "Dakar"),
    }
    assert there["Dan"][0] == one["Dan"][0]  # the amendment counted on both sides
    # The key travelled in every request and is in no log of either installation.
    for stack in (centre, club):
        assert key not in stack.logs()
        for log in (stack.folder / "var").rglob("*.log"):
            assert key not in log.read_text(errors="replace")

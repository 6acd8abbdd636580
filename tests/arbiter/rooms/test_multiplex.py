"""A multiplex (issue 38; docs/design.md, "Multiplex"): the host draws live, a remote room
follows its feed and sends each round's rulings back, idempotent by (room, round, version).

Both sides run here in one database (two events): the host's feed is applied by the remote's
own code (``feed_apply``), the messages the remote queues are accepted by the host's
(``room_round_accept``); the HTTP between them is tested in ``tests/web/test_multiplex_api.py``
and between two real installations in ``tests/faults/test_multiplex_two_installations.py``.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from arbiter.selectors.rooms import room_links, rooms_progress
from arbiter.selectors.standings import standings_event, standings_simultaneous
from arbiter.services.corrections import ruling_amend
from arbiter.services.multiplex import (
    multiplex_feed,
    room_key_authenticated,
    room_key_issue,
    room_key_revoke,
    room_round_accept,
)
from arbiter.services.multiplex_remote import feed_apply, link_status, results_enqueue
from arbiter.services.racks import round_draw
from tests.arbiter.conftest import T0, open_round
from tests.arbiter.rooms.helpers import people, play
from tests.factories import EventFactory, UserFactory
from tournament.errors import ApplicationError
from tournament.models import (
    Event,
    EventRole,
    MultiplexLink,
    MultiplexOutbox,
    RoomKey,
    RoomReceipt,
    Ruling,
)
from tournament.services.games import game_create
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)


@pytest.fixture
def director():
    return UserFactory(username="centre")


@pytest.fixture
def live_host(director) -> Event:
    """A host drawing its game live (not in advance), with solos off so that a room's own
    standings and the one ranking count the same points."""
    event = EventFactory(name="Multiplex", slug="multiplex", solo_min_players=99)
    EventRole.objects.create(user=director, event=event, role=EventRole.Role.DIRECTOR)
    game_create(event=event, actor=director, seed=4242)
    return event


@pytest.fixture
def remote_room(live_host, director) -> Event:
    return room_create(host=live_host, name="Dakar", actor=director, remote=True)


@pytest.fixture
def there(db) -> Event:
    """The remote installation's own event (here in the same database)."""
    return EventFactory(name="Club de Dakar", slug="club-de-dakar", solo_min_players=99)


def _link(there: Event, key: str) -> MultiplexLink:
    return MultiplexLink.objects.create(event=there, host_url="http://127.0.0.1:1", key=key)


def _follow(link: MultiplexLink, key: RoomKey) -> int:
    return feed_apply(link, multiplex_feed(key=key, after=link.cursor))


def _outbox(link: MultiplexLink) -> list[MultiplexOutbox]:
    return list(link.outbox.order_by("pk"))


def _raw(item: MultiplexOutbox) -> bytes:
    return json.dumps(item.payload).encode()


def test_a_remote_room_plays_the_hosts_live_rounds_and_the_one_ranking_takes_them(
    live_host, remote_room, there, director
) -> None:
    stored, key = room_key_issue(room=remote_room, actor=director)
    assert key.startswith("mxk1_") and stored.key_hash != key and key.endswith(stored.hint)
    link = _link(there, key)
    ann, bob = people(live_host, "Ann", "Bob")
    cleo, dan = people(there, "Cleo", "Dan", club="Dakar")
    game_there = None
    for n in range(3):
        now = T0 + n * 10 * MINUTE
        # The host draws: the room gets the rack before the host publishes.
        host_game = live_host.games.get()
        drawn = open_round(host_game, now=now)
        _follow(link, stored)
        game_there = there.games.get()
        assert game_there.predrawn["rounds"][n]["rack"] == drawn.rack
        assert "word" not in game_there.predrawn["rounds"][n]
        # The room plays its round with its own clock while the host plays its own.
        from tests.arbiter.conftest import finish_round

        here = finish_round(drawn, now)  # no slips on the host for this helper: see below
        assert here.status == "published"
        _follow(link, stored)
        assert game_there.__class__.objects.get(pk=game_there.pk).predrawn["rounds"][n]["word"]
        there_round = play(there, {cleo: "top", dan: "second"}, now=now + MINUTE)
        assert (there_round.rack, there_round.played_word) == (here.rack, here.played_word)
    # Every published round queued once, and accepted once.
    assert results_enqueue(link) == 3
    assert results_enqueue(link) == 0  # nothing changed: nothing new
    for item in _outbox(link):
        assert room_round_accept(key=stored, raw=_raw(item)).status == "accepted"
    ranking = {r.name: r for r in standings_simultaneous(host=live_host).rows}
    own = {r.name: r for r in standings_event(event=there).rows}
    for name in ("Cleo", "Dan"):
        assert ranking[name].total == own[name].total and ranking[name].room == "Dakar"
        assert ranking[name].rounds == 3
    assert {"Ann", "Bob"} <= set(ranking)
    links = room_links(live_host)
    assert links[remote_room.pk].received == 3 and not links[remote_room.pk].offline
    progress = {p.event.name: p for p in rooms_progress(live_host)}
    assert progress["Dakar"].published == 3 and not progress["Dakar"].late


def _one_round(live_host, remote_room, there, director):
    stored, key = room_key_issue(room=remote_room, actor=director)
    link = _link(there, key)
    (cleo,) = people(there, "Cleo", club="Dakar")
    from tests.arbiter.conftest import finish_round

    finish_round(open_round(live_host.games.get()), T0)
    _follow(link, stored)
    play(there, {cleo: "top"})
    results_enqueue(link)
    return stored, link, cleo


def test_replays_older_versions_and_conflicting_versions_are_harmless(
    live_host, remote_room, there, director
) -> None:
    stored, link, cleo = _one_round(live_host, remote_room, there, director)
    (first,) = _outbox(link)
    assert room_round_accept(key=stored, raw=_raw(first)).status == "accepted"
    assert room_round_accept(key=stored, raw=_raw(first)).status == "duplicate"
    # An amendment on the room: a new version, which replaces the ruling.
    ruling = Ruling.objects.get(player=cleo)
    ruling_amend(ruling=ruling, reason="slip misread", actor=None, points=3)
    assert results_enqueue(link) == 1
    first, second = _outbox(link)
    assert second.payload["multiplex"]["version"] == 2
    receipt = room_round_accept(key=stored, raw=_raw(second))
    assert receipt.status == "accepted" and receipt.report.rulings_changed == 1
    on_host = Ruling.objects.get(player__event=remote_room, player__name="Cleo")
    assert on_host.points == 3
    # Version 1 arriving late (out of order) changes nothing.
    assert room_round_accept(key=stored, raw=_raw(first)).status == "stale"
    assert Ruling.objects.get(pk=on_host.pk).points == 3
    # The same version with other content is refused with its code.
    other = dict(second.payload)
    other["room"] = {**other["room"], "name": "Somewhere else"}
    with pytest.raises(ApplicationError) as refused:
        room_round_accept(key=stored, raw=json.dumps(other).encode())
    assert refused.value.code == "version_conflict"
    assert RoomReceipt.objects.get(room=remote_room).version == 2


def test_foreign_players_rounds_and_racks_are_refused(
    live_host, remote_room, there, director
) -> None:
    stored, link, cleo = _one_round(live_host, remote_room, there, director)
    (item,) = _outbox(link)
    payload = item.payload
    # A round the host has not published.
    later = json.loads(json.dumps(payload))
    later["multiplex"]["round"] = 2
    later["games"][0]["rounds"][0]["number"] = 2
    with pytest.raises(ApplicationError) as refused:
        room_round_accept(key=stored, raw=json.dumps(later).encode())
    assert refused.value.code == "round_unknown"
    # Another rack than the host's.
    wrong = json.loads(json.dumps(payload))
    wrong["games"][0]["rounds"][0]["score"] += 1
    with pytest.raises(ApplicationError) as refused:
        room_round_accept(key=stored, raw=json.dumps(wrong).encode())
    assert refused.value.code == "bad_message"
    # A player of the host's own room (by licence): not this room's.
    (ann,) = people(live_host, "Ann")
    foreign = json.loads(json.dumps(payload))
    foreign["players"][0]["licence"] = ann.licence
    with pytest.raises(ApplicationError) as refused:
        room_round_accept(key=stored, raw=json.dumps(foreign).encode())
    assert refused.value.code == "player_conflicts"
    # Not a round message at all.
    with pytest.raises(ApplicationError) as refused:
        room_round_accept(key=stored, raw=b'{"format": "duplicate-room-results"}')
    assert refused.value.code == "bad_message"
    assert not RoomReceipt.objects.exists()
    assert not Ruling.objects.filter(player__event=remote_room).exists()


def test_keys_authenticate_one_room_and_revoked_keys_nothing(
    live_host, remote_room, director
) -> None:
    first, old = room_key_issue(room=remote_room, actor=director)
    second, new = room_key_issue(room=remote_room, actor=director)
    assert room_key_authenticated(new).pk == second.pk
    with pytest.raises(ApplicationError) as refused:
        room_key_authenticated(old)  # issuing again revoked the first
    assert refused.value.code == "room_key_revoked"
    with pytest.raises(ApplicationError) as refused:
        room_key_authenticated("mxk1_guessed")
    assert refused.value.code == "unknown_room_key"
    assert room_key_revoke(room=remote_room, actor=director) == 1
    with pytest.raises(ApplicationError) as refused:
        room_key_authenticated(new)
    assert refused.value.code == "room_key_revoked"
    # A key is for a remote room only; the audit log never holds it.
    with pytest.raises(ApplicationError) as refused:
        room_key_issue(room=live_host, actor=director)
    assert refused.value.code == "not_a_remote_room"
    from tournament.models import AuditEntry

    logged = json.dumps(list(AuditEntry.objects.values_list("data", flat=True)))
    assert old not in logged and new not in logged


def test_the_room_waits_for_the_hosts_rack_and_top_and_says_so(
    live_host, remote_room, there, director
) -> None:
    stored, key = room_key_issue(room=remote_room, actor=director)
    link = _link(there, key)
    host_game = live_host.games.get()
    _follow(link, stored)  # the game, no rack yet
    game = there.games.get()
    with pytest.raises(ApplicationError) as refused:
        round_draw(game=game, actor=None)
    assert refused.value.code == "multiplex_rack_awaited"
    assert "waiting for round 1" in " ".join(link_status(link).waiting)
    drawn = open_round(host_game)
    _follow(link, stored)
    (cleo,) = people(there, "Cleo", club="Dakar")
    from arbiter.services import clock, publishing, scoring

    mine = open_round(there.games.get())
    assert mine.rack == drawn.rack
    closing = mine.deadline + dt.timedelta(seconds=there.grace_seconds)
    clock.round_close(round_id=mine.pk, now=closing)
    scored = scoring.round_score(round_id=mine.pk, now=closing)
    with pytest.raises(ApplicationError) as refused:
        publishing.round_publish(round=scored, actor=None, now=closing)
    assert refused.value.code == "multiplex_top_awaited"
    assert "its top comes when the host publishes it" in " ".join(link_status(link).waiting)
    # The host publishes (its director may choose another of the tops): the room takes it.
    from tests.arbiter.conftest import finish_round

    here = finish_round(drawn, T0)
    _follow(link, stored)
    scored.refresh_from_db()
    assert (scored.played_ref, scored.played_word) == (here.played_ref, here.played_word)
    published = publishing.round_publish(round=scored, actor=None, now=closing)
    assert published.status == "published"
    assert cleo.rulings.count() == 1


def test_the_results_file_stays_the_fallback_and_merges_with_the_messages(
    live_host, remote_room, there, director
) -> None:
    from arbiter.selectors.rooms import room_results
    from arbiter.services.rooms import room_results_import

    stored, link, cleo = _one_round(live_host, remote_room, there, director)
    raw = json.dumps(room_results(there)).encode()
    report = room_results_import(room=remote_room, raw=raw, actor=director)
    assert report.rounds_added == 1 and report.players_added == 1 and report.rulings_added == 1
    assert remote_room.games.get().status == "running"  # the host's game goes on
    (item,) = _outbox(link)
    receipt = room_round_accept(key=stored, raw=_raw(item))
    assert receipt.status == "accepted" and receipt.report.rulings_unchanged == 1
    ranking = {r.name: r for r in standings_simultaneous(host=live_host).rows}
    assert ranking["Cleo"].rounds == 1

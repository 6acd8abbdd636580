"""Simultaneous events when two things race, on PostgreSQL with real connections: the same
room file imported twice at once, and a room added while the host adds a game. Both lock the
event's row, so one waits for the other: the file is imported once, and the room gets every
game. And a failed import (the audit down, its last write) leaves nothing."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

import pytest
from django.db import connection

from arbiter.selectors.rooms import room_results
from arbiter.services.rooms import RoomImport, room_results_import
from arbiter.services.simultaneous import game_draw_whole
from tests.arbiter.rooms.helpers import people, play
from tests.atomicity import AuditDown, audit_fails, database_snapshot
from tests.factories import EventFactory
from tournament.models import Event, Game, Ruling
from tournament.services.games import game_create
from tournament.services.rooms import room_create


def in_threads(*calls: Callable[[], object]) -> list[object]:
    """Run the calls at once, each on its own connection, once all are ready."""
    ready = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            ready.wait()
            results[i] = call()
        except Exception as exc:  # the test reads it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def simultaneous() -> tuple[Event, bytes]:
    host = EventFactory(name="Simul", solo_min_players=3)
    game_draw_whole(event=host, actor=None, seed=5)
    there = EventFactory(name="There")
    game_create(
        event=there, actor=None, source=Game.Source.PREDRAWN, predrawn=host.games.get().predrawn
    )
    ann, bob = people(there, "Ann", "Bob")
    play(there, {ann: "top", bob: "second"})
    return host, json.dumps(room_results(there)).encode()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_file_imported_twice_at_once_is_imported_once() -> None:
    host, raw = simultaneous()
    remote = room_create(host=host, name="Remote", actor=None, remote=True)
    results = in_threads(
        lambda: room_results_import(room=remote, raw=raw, actor=None),
        lambda: room_results_import(room=remote, raw=raw, actor=None),
    )
    assert all(isinstance(r, RoomImport) for r in results), results
    reports = sorted(results, key=lambda r: r.changed)  # type: ignore[attr-defined]
    assert [r.changed for r in reports] == [False, True]  # type: ignore[attr-defined]
    assert remote.players.count() == 2
    assert Ruling.objects.filter(round__game__event=remote).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_room_added_while_the_host_adds_a_game_gets_every_game() -> None:
    for attempt in range(3):
        host = EventFactory(name=f"Simul {attempt}")
        game_draw_whole(event=host, actor=None, seed=attempt)
        room_create(host=host, name=f"First {attempt}", actor=None)  # the host has rooms now
        results = in_threads(
            lambda host=host: game_draw_whole(event=host, actor=None, seed=99),
            lambda host=host, attempt=attempt: room_create(
                host=host, name=f"Late {attempt}", actor=None
            ),
        )
        assert not any(isinstance(r, Exception) for r in results), results
        for room in host.rooms.all():
            assert sorted(room.games.values_list("number", flat=True)) == [1, 2], room.name


@pytest.mark.django_db
def test_an_import_that_fails_at_its_last_write_leaves_nothing(monkeypatch) -> None:
    host, raw = simultaneous()
    remote = room_create(host=host, name="Remote", actor=None, remote=True)
    before = database_snapshot()
    audit_fails(monkeypatch)
    with pytest.raises(AuditDown):
        room_results_import(room=remote, raw=raw, actor=None)
    assert database_snapshot() == before

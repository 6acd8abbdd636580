"""Properties of the one ranking of a simultaneous event (hypothesis): with a single room it is
that room's own standings, solos included (the whole field's solo is then the room's), for
whole games played through the services with random players' slips; and counting only the
rounds every room has published never counts more than each room has."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from arbiter.selectors.standings import standings_event, standings_simultaneous
from arbiter.services.rulings import rulings_derive
from arbiter.simulation import simulate_event
from tournament.models import Event
from tournament.services.events import event_policy_update

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 5, 1, 20, 0, tzinfo=dt.UTC)
SOLOS: list[int] = []  # each example's solo points: the property must meet some


def teardown_module() -> None:
    assert any(SOLOS), "no example had a solo: the property tested nothing about them"


def compared(row) -> tuple[object, ...]:
    return (row.player_id, row.rank, row.total, row.points, row.solos, row.penalties, row.gap)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    players=st.integers(min_value=3, max_value=9),
    threshold=st.integers(min_value=1, max_value=9),
    seed=st.integers(0, 2**31),
)
def test_one_room_ranks_as_its_own_standings(players: int, threshold: int, seed: int) -> None:
    summary = simulate_event(players=players, games=1, seed=seed, start=START)
    event = Event.objects.get(pk=summary["event"])
    # A small room with a solo from ``threshold`` players: solos happen (the room's own derive
    # them again, as an amended policy does).
    event = event_policy_update(event=event, actor=None, solo_min_players=threshold)
    for game in event.games.all():  # each game's event is ``event``, with the new policy
        rulings_derive(game=game)
    own = standings_event(event=event)
    solos = sum(r.solos for r in own.rows)
    note(f"solos: {solos}")
    SOLOS.append(solos)
    merged = standings_simultaneous(host=event)
    assert [compared(r) for r in merged.rows] == [compared(r) for r in own.rows]
    assert {r.rounds for r in merged.rows} == {own.rounds}
    common = standings_simultaneous(host=event, common=True)
    assert [compared(r) for r in common.rows] == [compared(r) for r in own.rows]
    assert merged.top_total == own.top_total

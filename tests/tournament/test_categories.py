"""Players' series (1 to 7) and FISF age categories: read, registered, imported, refused with a
clear reason, and filtered on in the standings with a rank within the filter."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from arbiter.selectors.standings import PlayerFilter, standings_event
from tests.factories import EventFactory, PlayerFactory
from tournament.categories import AGE_CATEGORIES, age_category_parse, series_parse
from tournament.errors import ApplicationError
from tournament.models import Player
from tournament.services.player_imports import PlayerImportError, players_import
from tournament.services.players import player_register, player_update


@pytest.mark.parametrize(
    ("typed", "series"),
    [("3", 3), ("S7", 7), ("s1", 1), (2.0, 2), (5, 5), ("", None), (None, None)],
)
def test_a_series_reads_as_typed(typed: object, series: int | None) -> None:
    assert series_parse(typed) == series


@pytest.mark.parametrize("typed", ["0", "8", "S", "S10", "two", -1, 3.5, True, "3a"])
def test_a_series_outside_1_to_7_is_refused_with_the_bounds(typed: object) -> None:
    with pytest.raises(ValueError, match=r"is not a series \(1 to 7\)"):
        series_parse(typed)


def test_an_age_category_reads_in_any_case_with_or_without_accents() -> None:
    assert age_category_parse("emeraude") == "Émeraude"
    assert age_category_parse(" JUNIOR ") == "Junior"
    assert age_category_parse("") == ""
    assert AGE_CATEGORIES[0] == "Poussin" and AGE_CATEGORIES[-1] == "Émeraude"


def test_an_unknown_age_category_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="age category 'Veteran' is not one of Poussin, Benjamin"):
        age_category_parse("Veteran")


@pytest.mark.django_db
def test_a_player_is_registered_and_updated_with_series_and_age_category() -> None:
    event = EventFactory()
    ann = player_register(event=event, name="Ann", actor=None, series="S2", age_category="vermeil")
    assert (ann.series, ann.age_category) == (2, "Vermeil")
    ann = player_update(player=ann, actor=None, name="Ann", series=None, age_category="")
    assert (ann.series, ann.age_category) == (None, "")
    with pytest.raises(ApplicationError, match=r"Series '9' is not a series \(1 to 7\)\."):
        player_register(event=event, name="Bob", actor=None, series=9)
    with pytest.raises(ApplicationError, match="Age category 'Old' is not one of"):
        player_update(player=ann, actor=None, name="Ann", age_category="Old")
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_the_database_refuses_a_series_or_age_category_out_of_bounds() -> None:
    event = EventFactory()
    with pytest.raises(IntegrityError):
        PlayerFactory(event=event, series=8)


@pytest.mark.django_db
def test_the_database_refuses_an_unknown_age_category() -> None:
    with pytest.raises(IntegrityError):
        PlayerFactory(event=EventFactory(), age_category="Veteran")


@pytest.mark.django_db
def test_the_import_reads_series_and_age_categories_and_lists_every_bad_one() -> None:
    event = EventFactory()
    good = b"name,licence,series,age category\nAnn,L1,S1,junior\nBob,L2,7,\n"
    ann, bob = players_import(event=event, file_name="p.csv", content=good, actor=None)
    assert (ann.series, ann.age_category, bob.series, bob.age_category) == (1, "Junior", 7, "")
    bad = b"name,series,age\nCleo,8,Senior\nDan,2,Teen\n"
    with pytest.raises(PlayerImportError) as caught:
        players_import(event=event, file_name="p.csv", content=bad, actor=None)
    assert [str(e) for e in caught.value.errors] == [
        "Row 2: Series '8' is not a series (1 to 7).",
        "Row 3: Age category 'Teen' is not one of Poussin, Benjamin, Cadet, Junior, Espoir, "
        "Senior, Vermeil, Diamant, Émeraude.",
    ]
    assert event.players.count() == 2


@pytest.mark.django_db
def test_standings_filter_by_series_age_or_club_and_keep_the_overall_rank() -> None:
    event = EventFactory()
    PlayerFactory(event=event, name="Ann", club="Lyon", series=1, age_category="Senior")
    PlayerFactory(event=event, name="Bob", club="Nice", series=2, age_category="Senior")
    PlayerFactory(event=event, name="Cleo", club="Lyon", series=2, age_category="Junior")
    everyone = standings_event(event=event)
    assert [(r.name, r.rank) for r in everyone.rows] == [("Ann", 1), ("Bob", 1), ("Cleo", 1)]
    series2 = standings_event(event=event, only=PlayerFilter(series=2))
    assert [r.name for r in series2.rows] == ["Bob", "Cleo"]
    assert [(r.series, r.age_category) for r in series2.rows] == [(2, "Senior"), (2, "Junior")]
    both = standings_event(event=event, only=PlayerFilter(club="Lyon", age_category="Junior"))
    assert [(r.name, r.rank, r.overall_rank) for r in both.rows] == [("Cleo", 1, 1)]
    assert standings_event(event=event, only=PlayerFilter(series=7)).rows == []

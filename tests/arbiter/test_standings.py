"""Standings (docs/rules.md, "Standings"): total = points + solos - penalties, the gap to the top
total, the percentage of it, shared ranks, categories as filters; from published rounds only, of
the game (or of every game of the event), whatever else the database holds.

The rulings here are written as the services leave them (what each slip earned and what the
game derives), so each number can be told apart in the standings.
"""

from __future__ import annotations

import pytest

from arbiter.selectors.standings import Standings, standings_event, standings_game
from tests.factories import (
    EventFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    SubmissionFactory,
)
from tournament.models import Event, Game, Player, Round, Ruling

pytestmark = pytest.mark.django_db

PUBLISHED = Round.Status.PUBLISHED


def a_round(game: Game, number: int, top: int, status: str = PUBLISHED) -> Round:
    return RoundFactory(game=game, number=number, status=status, played_score=top)


def ruled(
    round: Round,
    player: Player,
    points: int = 0,
    *,
    code: str = "valid",
    solo: int = 0,
    penalty: int = 0,
    warning: bool = False,
    warning_penalty: int = 0,
    found_top: bool = False,
) -> Ruling:
    slip = None if code == "missing" else SubmissionFactory(round=round, player=player)
    return Ruling.objects.create(
        round=round,
        player=player,
        submission=slip,
        code=code,
        move_score=points if code != "missing" else None,
        points=points,
        solo=solo,
        penalty=penalty,
        warning=warning,
        warning_penalty=warning_penalty,
        found_top=found_top,
    )


def row(standings: Standings, player: Player):
    found = standings.row_of(player.pk)
    assert found is not None, player.name
    return found


@pytest.fixture
def event() -> Event:
    return EventFactory()


def players(event: Event, *names: str, category: str = "S1") -> list[Player]:
    first = event.players.count() + 1
    return [
        PlayerFactory(event=event, name=n, club=f"{n}'s club", category=category, table=first + i)
        for i, n in enumerate(names)
    ]


def test_a_total_is_points_plus_solos_less_reference_and_warning_penalties(event: Event) -> None:
    (ann,) = players(event, "Ann")
    game = GameFactory(event=event)
    first, second, third = (a_round(game, n, top) for n, top in ((1, 40), (2, 30), (3, 20)))
    ruled(first, ann, 40, solo=10, found_top=True)
    ruled(second, ann, 25, penalty=5, warning=True)
    ruled(third, ann, 20, warning=True, warning_penalty=5, found_top=True)
    got = row(standings_game(game=game), ann)
    assert (got.points, got.solos, got.penalties, got.total) == (85, 10, 10, 85)
    assert (got.warnings, got.tops) == (2, 2)


def test_a_player_with_no_ruling_yet_is_listed_with_nothing(event: Event) -> None:
    ann, bob = players(event, "Ann", "Bob")
    game = GameFactory(event=event)
    ruled(a_round(game, 1, 24), ann, 24, found_top=True)
    late_comer = PlayerFactory(event=event, name="Zoe", club="", category="S2", table=None)
    table = standings_game(game=game)
    got = row(table, late_comer)
    assert (got.points, got.solos, got.penalties, got.warnings, got.tops) == (0, 0, 0, 0, 0)
    assert (got.total, got.gap, got.top_pct) == (0, -24, 0.0)
    assert (got.rank, got.overall_rank) == (2, 2)  # with Bob, who has no ruling either
    assert row(table, bob).total == 0
    assert (got.name, got.club, got.category, got.table) == ("Zoe", "", "S2", None)


def test_a_row_names_the_player_as_registered(event: Event) -> None:
    (ann,) = players(event, "Ann")
    game = GameFactory(event=event)
    ruled(a_round(game, 1, 12), ann, 12)
    got = row(standings_game(game=game), ann)
    assert (got.player_id, got.name, got.club, got.category, got.table) == (
        ann.pk,
        "Ann",
        "Ann's club",
        "S1",
        1,
    )
    assert standings_game(game=game).row_of(ann.pk + 1000) is None


def test_the_gap_and_the_percentage_are_to_the_sum_of_the_tops_played(event: Event) -> None:
    ann, bob, cleo = players(event, "Ann", "Bob", "Cleo")
    game = GameFactory(event=event)
    first, second = a_round(game, 1, 40), a_round(game, 2, 26)
    for r, points in ((first, 40), (second, 26)):
        ruled(r, ann, points, found_top=True)
    ruled(first, bob, 33)
    ruled(second, bob, 0, code="invalid_word")
    ruled(first, cleo, 0, code="missing")
    ruled(second, cleo, 26, found_top=True, solo=0)
    table = standings_game(game=game)
    assert (table.top_total, table.rounds) == (66, 2)
    assert [(r.name, r.total, r.gap, r.top_pct) for r in table.rows] == [
        ("Ann", 66, 0, 100.0),
        ("Bob", 33, -33, 50.0),
        ("Cleo", 26, -40, 39.39),
    ]


def test_before_any_round_is_published_everyone_has_nothing_and_no_percentage(
    event: Event,
) -> None:
    ann, bob = players(event, "Ann", "Bob")
    game = GameFactory(event=event)
    scored = a_round(game, 1, 30, status=Round.Status.SCORED)
    ruled(scored, ann, 30, found_top=True)
    table = standings_game(game=game)
    assert (table.top_total, table.rounds) == (0, 0)
    assert [(r.name, r.total, r.gap, r.top_pct, r.rank) for r in table.rows] == [
        ("Ann", 0, 0, 0.0, 1),
        ("Bob", 0, 0, 0.0, 1),
    ]


def test_only_the_published_rounds_of_the_game_count(event: Event) -> None:
    (ann,) = players(event, "Ann")
    game, other = GameFactory(event=event, number=1), GameFactory(event=event, number=2)
    ruled(a_round(game, 1, 20), ann, 20, found_top=True, warning=True)
    unpublished = (Round.Status.ANNULLED, Round.Status.SCORED)  # one round in play at a time
    for number, status in enumerate(unpublished, start=2):
        ruled(a_round(game, number, 50, status=status), ann, 50, found_top=True, warning=True)
    ruled(a_round(other, 1, 70), ann, 70, found_top=True, warning=True)
    table = standings_game(game=game)
    assert (table.top_total, table.rounds) == (20, 1)
    got = row(table, ann)
    assert (got.points, got.total, got.tops, got.warnings) == (20, 20, 1, 1)


def test_an_events_standings_add_up_its_games_and_nothing_of_another_event(event: Event) -> None:
    ann, bob = players(event, "Ann", "Bob")
    one, two = GameFactory(event=event, number=1), GameFactory(event=event, number=2)
    ruled(a_round(one, 1, 30), ann, 30, found_top=True)
    ruled(a_round(one, 2, 10, status=Round.Status.SCORED), ann, 10, found_top=True)
    r = a_round(two, 1, 25)
    ruled(r, ann, 20)
    ruled(r, bob, 25, found_top=True)
    elsewhere = EventFactory()
    (stranger,) = players(elsewhere, "Stranger")
    ruled(a_round(GameFactory(event=elsewhere), 1, 99), stranger, 99, found_top=True)
    table = standings_event(event=event)
    assert (table.top_total, table.rounds) == (55, 2)
    assert [(r.name, r.total, r.tops, r.gap) for r in table.rows] == [
        ("Ann", 50, 1, -5),
        ("Bob", 25, 1, -30),
    ]
    assert table.row_of(stranger.pk) is None
    assert [r.name for r in standings_game(game=two).rows] == ["Bob", "Ann"]


def test_equal_totals_share_a_rank_and_the_next_rank_counts_everyone_above(event: Event) -> None:
    everyone = players(event, "Ann", "bob", "Cleo", "Dan", "Eve")
    game = GameFactory(event=event)
    r = a_round(game, 1, 50)
    for player, points in zip(everyone, (50, 40, 40, 40, 30), strict=True):
        ruled(r, player, points)
    table = standings_game(game=game)
    assert [(x.name, x.rank, x.overall_rank) for x in table.rows] == [
        ("Ann", 1, 1),
        ("bob", 2, 2),  # equal totals: by name, whatever its case
        ("Cleo", 2, 2),
        ("Dan", 2, 2),
        ("Eve", 5, 5),
    ]


def test_a_category_ranks_its_players_among_themselves_and_keeps_the_overall_rank(
    event: Event,
) -> None:
    ann, bob = players(event, "Ann", "Bob", category="S1")
    cleo, dan, eve = players(event, "Cleo", "Dan", "Eve", category="S2")
    game = GameFactory(event=event)
    r = a_round(game, 1, 40)
    for player, points in ((ann, 40), (cleo, 35), (bob, 30), (dan, 30), (eve, 10)):
        ruled(r, player, points)
    s2 = standings_game(game=game, category="S2")
    assert s2.top_total == 40
    assert [(x.name, x.rank, x.overall_rank, x.top_pct) for x in s2.rows] == [
        ("Cleo", 1, 2, 87.5),
        ("Dan", 2, 3, 75.0),
        ("Eve", 3, 5, 25.0),
    ]
    s1 = standings_event(event=event, category="S1")
    assert [(x.name, x.rank, x.overall_rank) for x in s1.rows] == [("Ann", 1, 1), ("Bob", 2, 3)]
    assert standings_event(event=event, category="V").rows == []


def test_a_games_standings_take_any_filter_as_the_events_do(event: Event) -> None:
    """A club, a series, an age category (``PlayerFilter``) filter a game's standings too,
    with a category on top of them."""
    from arbiter.selectors.standings import PlayerFilter

    ann, bob = players(event, "Ann", "Bob", category="S1")
    (cleo,) = players(event, "Cleo", category="S2")
    game = GameFactory(event=event)
    r = a_round(game, 1, 40)
    for player, points in ((ann, 40), (bob, 30), (cleo, 35)):
        ruled(r, player, points)
    clubs = PlayerFilter(club="Bob's club")
    for standings in (
        standings_game(game=game, only=clubs),
        standings_event(event=event, only=clubs),
    ):
        assert [(x.name, x.rank, x.overall_rank) for x in standings.rows] == [("Bob", 1, 3)]
    assert standings_game(game=game, category="S2", only=clubs).rows == []


def test_ranks_within_a_group_share_equal_totals_and_leave_out_who_has_none() -> None:
    from arbiter.selectors.standings import StandingRow, Standings, ranks_within

    def row(pid: int, total: int, series: int | None) -> StandingRow:
        return StandingRow(
            rank=0,
            overall_rank=0,
            player_id=pid,
            name=f"p{pid}",
            club="",
            category="",
            table=None,
            points=total,
            solos=0,
            penalties=0,
            warnings=0,
            tops=0,
            total=total,
            gap=0,
            top_pct=0.0,
            series=series,
        )

    standings = Standings(
        top_total=100,
        rounds=1,
        rows=[row(1, 90, 2), row(2, 80, 1), row(3, 80, 2), row(4, 80, 2), row(5, 70, None)],
    )
    assert ranks_within(standings, lambda r: r.series) == {1: 1, 3: 2, 4: 2, 2: 1}


def test_a_category_and_a_filter_together_keep_who_fits_all_of_them(event: Event) -> None:
    """With a category on top of a club, a series and an age category, only the player who
    fits all four is shown, ranked among them, with the overall rank, licence, series and age
    category of the registration."""
    from arbiter.selectors.standings import PlayerFilter

    game = GameFactory(event=event)
    r = a_round(game, 1, 40)
    fits = {"category": "S1", "club": "A", "series": 1, "age_category": "Cadet"}
    registered = [
        ("Ann", 10, {}),
        ("Bob", 40, {"age_category": ""}),
        ("Cleo", 35, {"series": 2}),
        ("Dan", 30, {"club": "B"}),
        ("Eve", 20, {"category": "S2"}),
    ]
    for i, (name, points, other) in enumerate(registered, start=1):
        player = PlayerFactory(
            event=event, name=name, table=i, licence=f"L-{name}", **{**fits, **other}
        )
        ruled(r, player, points)
    only = PlayerFilter(club="A", series=1, age_category="Cadet")
    for standings in (
        standings_event(event=event, category="S1", only=only),
        standings_game(game=game, category="S1", only=only),
    ):
        assert [
            (x.name, x.rank, x.overall_rank, x.licence, x.series, x.age_category)
            for x in standings.rows
        ] == [("Ann", 1, 5, "L-Ann", 1, "Cadet")]
    by_series = standings_event(event=event, only=PlayerFilter(series=1))
    assert [x.name for x in by_series.rows] == ["Bob", "Dan", "Eve", "Ann"]
    by_age = standings_event(event=event, only=PlayerFilter(age_category="Cadet"))
    assert [x.name for x in by_age.rows] == ["Cleo", "Dan", "Eve", "Ann"]

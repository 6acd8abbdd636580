"""The printed sheets' content: the game sheet round by round with the board after each, a
score card's rounds and total, the results overall and by category, 24 rows a page; a bad
filter or grouping refused with the reason; the links on the event and game pages."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from arbiter.selectors.printing import game_sheet, score_cards
from arbiter.selectors.standings import PlayerFilter, standings_event, standings_game
from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Game, Player
from web.printing.views import RESULTS_ROWS_PER_PAGE, pages_of, results_pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def game() -> Game:
    """Seed 7, round 1: rack ELORTTW, top H4 WROTE 24. Ann and Bob (series 1) play the top,
    Cleo (series 2) TROW at H5 with no score announced; Dan (series 1) hands in nothing."""
    room = EventFactory(solo_min_players=3, name="Spring open", slug="spring-open")
    players = [
        PlayerFactory(event=room, name=name, table=i + 1, series=series, club=club)
        for i, (name, series, club) in enumerate(
            [("Ann", 1, "Lyon"), ("Bob", 1, "Paris"), ("Cleo", 2, "Lyon"), ("Dan", 1, "")]
        )
    ]
    game = GameFactory(event=room, number=1, seed=7)
    r = open_round(game)
    at = T0 + dt.timedelta(seconds=30)
    slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24, at=at)
    slip_submit(player=players[1], round=r, word="WROTE", ref="H4", score=24, at=at)
    slip_submit(player=players[2], round=r, word="TROW", ref="H5", score=None, at=at)
    finish_round(r, T0)
    open_round(game)  # round 2 in play: not on the sheets
    return game


def staff(game: Game, role: str = "director") -> Client:
    client = Client()
    user = UserFactory(username=f"{role}-user")
    EventRoleFactory(event=game.event, user=user, role=role)
    client.force_login(user)
    return client


def test_the_game_sheet_gives_each_published_round_its_board_rack_top_and_cumulative(
    game: Game,
) -> None:
    (first,) = game_sheet(game)
    assert (first.number, first.rack, first.ref, first.word, first.score) == (
        1,
        "ELORTTW",
        "H4",
        "WROTE",
        24,
    )
    assert (first.cumulative, first.found_by) == (24, 2)
    assert first.board[7] == "...WROTE......."
    assert first.placed == {(7, c) for c in range(3, 8)}
    page = staff(game, "arbiter").get(reverse("printing:game_sheet", args=[game.event.slug, 1]))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('class="sq') == 225  # one board: the published round's
    assert len(re.findall(r'class="sq[^"]* new"', html)) == 5
    assert "<td>H4</td>" in html and "ELORTTW" in html


def test_a_score_card_gives_each_round_the_slip_its_ruling_and_the_running_total(
    game: Game,
) -> None:
    cards = score_cards(game)
    assert [c.standing.name for c in cards] == ["Ann", "Bob", "Cleo", "Dan"]  # by table
    standings = standings_game(game=game)
    for card in cards:
        assert card.lines[-1].cumulative == card.standing.total
        assert card.standing == standings.row_of(card.standing.player_id)
    ann, _, cleo, dan = cards
    (line,) = ann.lines
    assert (line.word, line.ref, line.announced, line.code, line.points) == (
        "WROTE",
        "H4",
        24,
        "valid",
        24,
    )
    assert (line.top_ref, line.top_word, line.top_cumulative) == ("H4", "WROTE", 24)
    assert (cleo.lines[0].word, cleo.lines[0].ref, cleo.lines[0].announced) == ("TROW", "H5", None)
    assert dan.lines[0].word == "" and dan.lines[0].code == "missing" and dan.standing.rank == 4
    series_1 = score_cards(game, only=PlayerFilter(series=1))
    assert [c.standing.name for c in series_1] == ["Ann", "Bob", "Dan"]
    page = staff(game).get(reverse("printing:score_cards", args=[game.event.slug, 1]))
    assert page.content.decode().count('class="sheet-page score-card"') == 4


def sections(pages) -> list:
    return [section for page in pages for section in page.sections]


def test_the_results_rank_each_series_within_it_beside_the_overall_rank(game: Game) -> None:
    standings = standings_event(event=game.event)
    pages = results_pages(standings, only=PlayerFilter(), by="series")
    assert [s.title for s in sections(pages)] == ["Results", "series 1", "series 2"]
    assert [[s.title for s in p.sections] for p in pages] == [["Results"], ["series 1", "series 2"]]
    overall, one, two = sections(pages)
    assert [(r["rank"], r["row"].name) for r in overall.rows] == [
        (1, "Ann"),
        (1, "Bob"),
        (3, "Cleo"),
        (4, "Dan"),
    ]
    assert [(r["rank"], r["overall"], r["row"].name) for r in one.rows] == [
        (1, 1, "Ann"),
        (1, 1, "Bob"),
        (3, 4, "Dan"),
    ]
    assert [(r["rank"], r["overall"], r["row"].name) for r in two.rows] == [(1, 3, "Cleo")]
    by_club = results_pages(standings, only=PlayerFilter(), by="club")
    assert [s.title for s in sections(by_club)] == ["Results", "Lyon", "Paris"]  # Dan: no club
    lyon = standings_event(event=game.event, only=PlayerFilter(club="Lyon"))
    ((section,),) = [p.sections for p in results_pages(lyon, only=PlayerFilter(club="Lyon"), by="")]
    assert section.title == "Results: Lyon" and section.overall


def test_a_long_ranking_is_cut_into_pages_of_24_rows_each_marked_continued(game: Game) -> None:
    for n in range(50):
        PlayerFactory(event=game.event, name=f"Late {n:02d}")
    standings = standings_event(event=game.event)
    pages = results_pages(standings, only=PlayerFilter(), by="")
    assert [len(s.rows) for s in sections(pages)] == [24, 24, 6] and RESULTS_ROWS_PER_PAGE == 24
    assert [s.continued for s in sections(pages)] == [False, True, True]
    assert pages_of([], 24) == [[]]


def test_groups_flow_one_after_the_other_each_under_its_heading(game: Game) -> None:
    """20 players by series: the groups share pages (a heading costs the room of 3 rows), a
    group cut by a page goes on on the next, marked continued."""
    for n in range(16):
        PlayerFactory(event=game.event, name=f"S{n % 7 + 1} {n:02d}", series=n % 7 + 1)
    standings = standings_event(event=game.event)
    pages = results_pages(standings, only=PlayerFilter(), by="series")
    groups = pages[1:]
    assert len(groups) <= 3  # not one page per series
    for page in groups:
        used = sum(len(s.rows) for s in page.sections) + 3 * (len(page.sections) - 1)
        assert used <= RESULTS_ROWS_PER_PAGE
    titles = [s.title for s in sections(groups) if not s.continued]
    assert titles == [f"series {n}" for n in range(1, 8)]
    shown = sorted(r["row"].name for s in sections(groups) for r in s.rows)
    assert shown == sorted(r.name for r in standings.rows if r.series is not None)


def test_the_results_page_prints_a_category_and_refuses_a_bad_filter_or_grouping(
    game: Game,
) -> None:
    client = staff(game, "arbiter")
    url = reverse("printing:event_results", args=[game.event.slug])
    page = client.get(url, {"series": "2", "by": "club"}).content.decode()
    assert "Results: series 2" in page and "Cleo" in page and "Ann" not in page
    for query, reason in (
        ({"by": "nation"}, "Results can be grouped by series, age_category, club, not 'nation'."),
        ({"series": "9"}, "Series"),
        ({"age_category": "Teen"}, "Age category 'Teen' is not one of"),
    ):
        refused = client.get(url, query)
        assert refused.status_code == 302
        assert refused["Location"] == reverse("console:event_detail", args=[game.event.slug])
        said = [str(m) for m in get_messages(refused.wsgi_request)]
        assert said[-1].startswith(reason), said
    game_url = reverse("printing:score_cards", args=[game.event.slug, 1])
    refused = client.get(game_url, {"series": "S9"})
    assert refused["Location"] == reverse("console:game", args=[game.event.slug, 1])


def test_the_sheets_speak_french(game: Game) -> None:
    client = staff(game)
    args = [game.event.slug, 1]
    sheet = client.get(reverse("printing:game_sheet", args=args), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Feuille de partie" in sheet.content.decode() and "Cumul" in sheet.content.decode()
    cards = client.get(reverse("printing:score_cards", args=args), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Feuilles de marque" in cards.content.decode()
    assert "% du top" in cards.content.decode()
    results = client.get(
        reverse("printing:event_results", args=[game.event.slug]) + "?by=series",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "Série 1" in results.content.decode()


def test_the_event_and_game_pages_link_to_every_printed_sheet(game: Game) -> None:
    slug = game.event.slug
    for role in ("director", "arbiter"):
        client = staff(game, role)
        event_page = client.get(reverse("console:event_detail", args=[slug])).content.decode()
        console = client.get(reverse("console:game", args=[slug, 1])).content.decode()
        for url in (
            reverse("printing:event_results", args=[slug]),
            reverse("printing:game_sheet", args=[slug, 1]),
            reverse("printing:score_cards", args=[slug, 1]),
            reverse("printing:game_results", args=[slug, 1]),
        ):
            assert f'href="{url}' in event_page, (role, url)
        for url in (
            reverse("printing:game_sheet", args=[slug, 1]),
            reverse("printing:score_cards", args=[slug, 1]),
            reverse("printing:game_results", args=[slug, 1]),
        ):
            assert f'href="{url}"' in console, (role, url)
        assert (reverse("play:qr_sheet", args=[slug]) in event_page) == (role == "director")
    assert Player.objects.filter(event=game.event).count() == 4

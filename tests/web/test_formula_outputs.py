"""The game's formula shown and ruled in every output (issue 36, docs/formulas.md): the paper
slips' entry page and its rulings (a 7 et 8 rack of eight tiles, its 75-point bonus), the
printed sheets (the formula named, racks of eight and nine tiles whole), the workbook (the
formula in its Event sheet; a mort subite game's Status column), GCG (``#description``) and
SIGLES (whose three fields have no room for it: the totals are the formula's)."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from arbiter.selectors.interchange import eliot_bytes, gcg_text, sigles_bytes
from arbiter.selectors.standings import standings_game
from arbiter.services import clock, racks
from engine.board import Board
from engine.formula import Formula
from engine.lexicon import Lexicon
from engine.movegen import top
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import GameFactory, PlayerFactory
from tournament.models import Event, Game, Player, Ruling
from tournament.services.games import game_create

pytestmark = pytest.mark.django_db

RACK = "ADEINRST"  # a 7 et 8 rack whose top places all eight tiles


@pytest.fixture
def people(event: Event) -> list[Player]:
    return [
        PlayerFactory(event=event, name=name, table=i + 1)
        for i, name in enumerate(["Ann", "Bob", "Cleo"])
    ]


def _act(client: Client, game: Game, action: str, **data: object):
    return client.post(
        reverse("console:action", args=[game.event.slug, game.number, action]), data, follow=True
    )


@pytest.fixture
def seven_and_eight(event: Event, people: list[Player], client_for, director) -> Game:
    """A 7 et 8 game, its first rack typed; Ann's paper slip (the eight-tile top) and Bob's
    (a seven-tile move) typed on the entry page, the round scored and published."""
    game = game_create(event=event, actor=None, source=Game.Source.MANUAL, formula="7et8")
    r = racks.round_rack_enter(game=game, rack=RACK, actor=None)
    r = clock.round_open(round=r, actor=None, now=T0)
    client = client_for(director)
    page = client.get(reverse("console:slip_entry", args=[event.slug, 1])).content.decode()
    assert 'id="formula"' in page and "7 et 8" in page
    assert "Rack (8 tiles)" in page and "75 for 8 tiles" in page and "50 for 7 tiles" in page
    moves = top(Board(), RACK, Lexicon.load(), n=400, formula=Formula.parse("7et8"))
    eight, seven = moves[0], next(m for m in moves if m.tiles == 7)
    assert eight.tiles == 8
    _act(client, game, "slip", table=1, word=eight.word, ref=eight.ref, score=eight.score)
    _act(client, game, "slip", table=2, word=seven.word, ref=seven.ref, score=seven.score)
    finish_round(r, T0)
    game.refresh_from_db()
    return game


def test_paper_slips_are_ruled_in_the_games_formula(seven_and_eight: Game) -> None:
    rulings = {r.player.name: r for r in Ruling.objects.filter(round__game=seven_and_eight)}
    eight = top(Board(), RACK, Lexicon.load(), n=1, formula=Formula.parse("7et8"))[0]
    # The same eight tiles with no bonus: the ruling paid the placement and 3.8.2's 75.
    bare = Formula(name="bare", rack_size=8, max_played=8, bonuses=())
    placed = next(
        m
        for m in top(Board(), RACK, Lexicon.load(), n=2000, formula=bare)
        if (m.ref, m.word) == (eight.ref, eight.word)
    )
    assert rulings["Ann"].points == eight.score == placed.score + 75
    assert rulings["Ann"].found_top and rulings["Ann"].code == "valid"
    assert rulings["Bob"].code == "valid" and rulings["Bob"].points < eight.score


def test_the_printed_sheets_name_the_formula_and_print_the_whole_rack(
    seven_and_eight: Game, client_for, director
) -> None:
    client = client_for(director)
    slug = seven_and_eight.event.slug
    sheet = client.get(reverse("printing:game_sheet", args=[slug, 1])).content.decode()
    assert '<span class="formula">7 et 8</span>' in sheet
    assert RACK in sheet
    results = client.get(reverse("printing:game_results", args=[slug, 1])).content.decode()
    assert '<span class="formula">7 et 8</span>' in results


def test_a_789_game_prints_its_nine_tile_racks(
    event: Event, people: list[Player], client_for, director
) -> None:
    game = GameFactory(event=event, number=1, seed=7, formula="789")
    r = finish_round(open_round(game, now=T0), T0)
    assert len(r.rack) == 9
    sheet = client_for(director).get(reverse("printing:game_sheet", args=[event.slug, 1]))
    text = sheet.content.decode()
    assert '<span class="formula">7, 8 et 9</span>' in text and r.rack in text


def test_the_workbook_names_the_formula_in_its_event_sheet(
    seven_and_eight: Game, client_for, director
) -> None:
    url = reverse("exports:game_export_xlsx", args=[seven_and_eight.event.slug, 1])
    wb = load_workbook(io.BytesIO(client_for(director).get(url).getvalue()))
    rows = [tuple(c for c in row) for row in wb["Event"].iter_rows(values_only=True)]
    assert ("Formula", "7 et 8", "Game 1") in rows
    rounds = list(wb["Rounds"].iter_rows(values_only=True))
    assert rounds[1][1] == RACK  # the eight tiles, whole


def test_a_standard_games_workbook_has_no_formula_row(
    event: Event, people: list[Player], client_for, director
) -> None:
    game = GameFactory(event=event, number=1, seed=7)
    finish_round(open_round(game, now=T0), T0)
    url = reverse("exports:game_export_xlsx", args=[event.slug, 1])
    wb = load_workbook(io.BytesIO(client_for(director).get(url).getvalue()))
    assert all(row[0] != "Formula" for row in wb["Event"].iter_rows(values_only=True))


def test_a_mort_subite_games_workbook_and_printed_results_say_who_is_out(
    event: Event, people: list[Player], client_for, director
) -> None:
    game = GameFactory(event=event, number=1, seed=7, formula="mortsubite")
    r = open_round(game, now=T0)
    best = top(Board(), r.rack, Lexicon.load(), n=1)[0]
    client = client_for(director)
    _act(client, game, "slip", table=1, word=best.word, ref=best.ref, score=best.score)
    finish_round(r, T0)
    assert [(x.name, x.eliminated_at) for x in standings_game(game=game).rows] == [
        ("Ann", None),
        ("Bob", 1),
        ("Cleo", 1),
    ]
    url = reverse("exports:game_export_xlsx", args=[event.slug, 1])
    wb = load_workbook(io.BytesIO(client.get(url).getvalue()))
    standings = list(wb["Standings"].iter_rows(values_only=True))
    status = standings[0].index("Status")
    assert [(row[1], row[status]) for row in standings[1:]] == [
        ("Ann", "Still in"),
        ("Bob", "Out at round 1"),
        ("Cleo", "Out at round 1"),
    ]
    assert ("Formula", "Mort subite", "Game 1") in list(wb["Event"].iter_rows(values_only=True))
    printed = client.get(reverse("printing:game_results", args=[event.slug, 1])).content
    text = printed.decode()
    assert text.count("Out at round 1") == 2 and text.count("Still in") == 1
    # Round 2: the entry page refuses Bob's paper slip, with the reason.
    open_round(game, now=T0 + dt.timedelta(minutes=5))
    page = _act(client, game, "slip", table=2, word=best.word, ref=best.ref, score=best.score)
    assert page.status_code == 400
    refusal = page.content.decode()
    assert 'id="refused"' in refusal and "Bob was eliminated at round 1" in refusal
    assert not game.rounds.get(number=2).slips.exists()


def test_gcg_names_the_formula_and_writes_the_eight_tile_rack(seven_and_eight: Game) -> None:
    text = gcg_text(seven_and_eight)
    lines = text.splitlines()
    assert "#description Duplicate, formula: 7 et 8" in lines
    assert lines.index("#description Duplicate, formula: 7 et 8") < next(
        i for i, line in enumerate(lines) if line.startswith(">")
    )
    move = next(line for line in lines if line.startswith(">top:"))
    assert move.split()[1] == RACK


def test_a_standard_games_gcg_has_no_description(event: Event, people: list[Player]) -> None:
    game = GameFactory(event=event, number=1, seed=7)
    finish_round(open_round(game, now=T0), T0)
    assert "#description" not in gcg_text(game)


def test_sigles_has_no_field_for_the_formula_and_gives_its_totals(
    seven_and_eight: Game,
) -> None:
    lines = sigles_bytes(event=seven_and_eight.event, game=seven_and_eight).decode("cp1252")
    rows = [line.split(",") for line in lines.splitlines()]
    assert all(len(row) == 3 for row in rows)  # "<table>","<name>","<total>": no more
    totals = {r.name: r.total for r in standings_game(game=seven_and_eight).rows}
    assert {row[1].strip('"'): int(row[2].strip('"')) for row in rows} == totals
    assert totals["Ann"] == seven_and_eight.rounds.get(number=1).played_score


def test_a_mort_subite_game_goes_to_eliot_as_plain_duplicate(
    event: Event, people: list[Player]
) -> None:
    """Eliot has no elimination: the game (standard racks and tops) is written with no
    ``<Variant>``, as a standard game is."""
    game = GameFactory(event=event, number=1, seed=7, formula="mortsubite")
    finish_round(open_round(game, now=T0), T0)
    written = eliot_bytes(game).decode()
    assert "<Variant>" not in written and "WROTE" in written

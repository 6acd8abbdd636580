"""The original formulas (FISF 2023, 3.8): the formula's value, the joker game's draw and its
joker replaced on the board, the racks of 8 and 9 tiles, the détonante, and their documents."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError, RackError, RackRejected
from engine.formula import Formula, FormulaError
from engine.game import DuplicateGame, autoplay
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove
from engine.record import GameDocument, placements
from engine.replay import replay
from engine.tiles import BLANK, TileSet

pytestmark = pytest.mark.usefixtures("movegen_engine")  # each test on both engines


# -- the formula ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "size", "most", "bonuses", "joker", "detonante"),
    [
        ("", "standard", 7, 7, {7: 50}, False, False),
        ("standard", "standard", 7, 7, {7: 50}, False, False),
        ("joker", "joker", 7, 7, {7: 50}, True, False),
        ("7sur8", "7sur8", 8, 7, {7: 50}, False, False),
        ("7et8", "7et8", 8, 8, {7: 50, 8: 75}, False, False),
        ("789", "789", 9, 9, {7: 50, 8: 75, 9: 100}, False, False),
        ("detonante", "detonante", 7, 7, {7: 50}, False, True),
        ("joker+7sur8", "joker+7sur8", 8, 7, {7: 50}, True, False),
        (" 7ET8 + Joker ", "joker+7et8", 8, 8, {7: 50, 8: 75}, True, False),
        ("789+joker", "joker+789", 9, 9, {7: 50, 8: 75, 9: 100}, True, False),
        ("Mortsubite", "mortsubite", 7, 7, {7: 50}, False, False),
    ],
)
def test_each_formula_of_the_regulation_reads_with_its_rack_its_bonuses_and_its_joker(
    text: str,
    name: str,
    size: int,
    most: int,
    bonuses: dict[int, int],
    joker: bool,
    detonante: bool,
) -> None:
    formula = Formula.parse(text)
    assert (formula.name, formula.rack_size, formula.max_played) == (name, size, most)
    assert {k: formula.bonus(k) for k in range(16) if formula.bonus(k)} == bonuses
    assert (formula.joker, formula.detonante) == (joker, detonante)
    assert eval(repr(formula)) == formula  # a pasteable repr
    assert Formula.parse(formula.name) == formula
    # mort subite (3.8.3) is a competition: its racks and moves are standard duplicate's
    assert formula.sudden_death == (name == "mortsubite")
    assert formula.play == (Formula() if name == "mortsubite" else formula)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("8sur9", "formula_unknown"),
        ("joker+scrabble", "formula_unknown"),
        ("joker+standard", "formula_unknown"),
        ("7et8+789", "formula_combination"),
        ("7sur8+7et8", "formula_combination"),
        ("joker+detonante", "formula_combination"),
        ("detonante+7sur8", "formula_combination"),
        ("joker+joker", "formula_combination"),
        ("joker+mortsubite", "formula_combination"),
        ("mortsubite+7et8", "formula_combination"),
    ],
)
def test_a_formula_the_text_does_not_define_or_combine_is_refused_with_its_code(
    text: str, code: str
) -> None:
    with pytest.raises(FormulaError) as refused:
        Formula.parse(text)
    assert refused.value.code == code and text in str(refused.value)
    assert isinstance(refused.value, EngineError)


# -- the joker game (3.8.1) ----------------------------------------------------------------------


def joker_game(words: list[str], tiles: TileSet) -> DuplicateGame:
    return DuplicateGame(
        tiles=tiles, lexicon=Lexicon.from_words(words), seed=1, formula=Formula.parse("joker")
    )


def test_both_jokers_leave_the_bag_before_the_first_draw(en: TileSet) -> None:
    game = joker_game(["QAQ"], en)
    assert BLANK not in game.bag.contents and game.jokers == 2
    assert len(game.bag) == 98


def test_a_top_using_the_joker_gets_the_real_letter_from_the_bag_and_the_joker_comes_back(
    en: TileSet, enable: Lexicon
) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=1, formula=Formula.parse("joker"))
    game.offer_rack("AEINRS?")
    assert game.jokers == 1
    ts_before = game.bag.contents.count("T")
    record = game.play(Move.parse("H4 REtAINS"))
    # R on the double letter H4, the joker 0, the centre doubles the word; 50 for seven tiles
    assert record.joker_replaced is True and record.score == 2 * (2 + 1 + 0 + 1 + 1 + 1 + 1) + 50
    assert game.board[7, 5] == "T"  # the real T on H6
    assert game.bag.contents.count("T") == ts_before - 1
    assert game.jokers == 2  # back aside, for the next rack
    assert game.draw() is not None and game.rack.count(BLANK) == 1


def test_a_joker_whose_letter_is_gone_stays_on_the_board_then_the_second_then_normal_play(
    en: TileSet,
) -> None:
    game = joker_game(["QAQ", "ZAZ"], en)
    game.offer_rack("QA?EEIO")  # the only Q is on the rack: the bag has none
    first = game.play(Move.parse("H7 QAq"))
    assert first.joker_replaced is False and game.board[7, 8] == "q" and game.jokers == 1
    with pytest.raises(RackError) as refused:
        game.offer_rack("EEIOZTT")  # a joker is still aside: the rack must hold it
    assert refused.value.code == "rack_joker_missing"
    game.offer_rack("EEIOZ?T")
    second = game.play(Move.parse("8G ZAz"))
    assert second.joker_replaced is False and game.jokers == 0
    assert game.draw() is not None and BLANK not in game.rack  # plain duplicate from now on
    assert len(game.rack) == 7


def test_among_equal_tops_using_the_joker_the_one_whose_joker_comes_back_is_kept(
    en: TileSet,
) -> None:
    game = joker_game(["QAQ", "QAT"], en)
    game.offer_rack("QAT?EEE")
    lost = ScoredMove(Move.parse("H7 QAq"), 20, "AQ?")  # Q: none left in the bag
    back = ScoredMove(Move.parse("H7 QAt"), 20, "AQ?")  # T: the bag has some
    assert game.joker_lost(lost) and not game.joker_lost(back)
    assert game.choose_top([lost, back]) is back
    # Without the joker formula the order (alphabetical here) would have kept QAQ:
    plain = DuplicateGame(tiles=en, lexicon=Lexicon.from_words(["QAQ", "QAT"]), seed=1)
    plain.offer_rack("QAT?EEE")
    assert plain.choose_top([lost, back]) is lost


def test_a_top_that_keeps_the_joker_on_the_rack_wins_over_one_that_plays_it(
    en: TileSet,
) -> None:
    game = joker_game(["QAT"], en)
    game.offer_rack("QAT?EEE")
    keeps = ScoredMove(Move.parse("H7 QAT"), 20, "AQT")
    plays = ScoredMove(Move.parse("H7 QAt"), 20, "AQ?")
    assert game.choose_top([plays, keeps]) is keeps


@pytest.mark.parametrize("name", ["joker", "joker+7et8", "joker+789", "joker+7sur8"])
def test_every_rack_of_a_joker_game_holds_one_joker_until_both_stay_on_the_board(
    en: TileSet, enable: Lexicon, name: str
) -> None:
    formula = Formula.parse(name)
    for seed in (1, 2, 3):
        game = autoplay(seed=seed, tiles=en, lexicon=enable, formula=formula)
        stayed = 0
        for placed in placements(game.rounds):
            record = placed.record
            assert record.rack.count(BLANK) == (1 if stayed < 2 else 0), (seed, record)
            for refused in record.rejected:
                assert refused.count(BLANK) == (1 if stayed < 2 else 0), (seed, record)
            uses_joker = any(ch.islower() for ch in placed.dotted)
            assert (record.joker_replaced is not None) == uses_joker, record
            stayed += record.joker_replaced is False
        lower_on_board = sum(ch.islower() for line in game.board.to_lines() for ch in line)
        assert lower_on_board == stayed


def test_a_joker_game_s_document_says_for_each_round_whether_the_joker_was_replaced(
    en: TileSet, enable: Lexicon
) -> None:
    game = autoplay(seed=4, tiles=en, lexicon=enable, formula=Formula.parse("joker"))
    doc = json.loads(json.dumps(game.to_document()))
    assert doc["formula"] == "joker"
    for r, placed in zip(doc["rounds"], placements(game.rounds), strict=True):
        assert r.get("joker_replaced") == placed.record.joker_replaced
        assert ("joker_replaced" in r) == any(ch.islower() for ch in placed.dotted)
    again = replay(doc, lexicon=enable)
    assert again.board == game.board and again.total == game.total
    flipped: GameDocument = json.loads(json.dumps(doc))
    at = next(i for i, r in enumerate(flipped["rounds"]) if "joker_replaced" in r)
    flipped["rounds"][at]["joker_replaced"] = not flipped["rounds"][at]["joker_replaced"]
    with pytest.raises(EngineError, match=f"round {at + 1}: .* the document says it is"):
        replay(flipped, lexicon=enable)


def test_a_standard_document_names_no_formula(en: TileSet, enable: Lexicon) -> None:
    doc = autoplay(seed=4, tiles=en, lexicon=enable).to_document()
    assert "formula" not in doc and all("joker_replaced" not in r for r in doc["rounds"])


# -- 7 sur 8, 7 et 8, 7-8-9 (3.8.2) -------------------------------------------------------------


@pytest.mark.parametrize(("name", "size"), [("7sur8", 8), ("7et8", 8), ("789", 9)])
def test_the_racks_hold_eight_or_nine_tiles_and_keep_the_minimum(
    en: TileSet, enable: Lexicon, name: str, size: int
) -> None:
    formula = Formula.parse(name)
    game = autoplay(seed=2, tiles=en, lexicon=enable, formula=formula)
    full = [r for r in game.rounds if len(r.rack) == size]
    assert len(full) >= len(game.rounds) - 2
    for record in game.rounds:
        assert len(record.rack) <= size
        v, c, e = en.vowel_consonant(record.rack)
        need = 2 if record.number <= 15 else 1
        assert max(0, need - v) + max(0, need - c) <= e, record
    assert replay(json.loads(json.dumps(game.to_document())), lexicon=enable).total == game.total


def test_seven_sur_huit_never_places_eight_tiles_and_sept_et_huit_pays_75_for_eight(
    en: TileSet, enable: Lexicon
) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=1, formula=Formula.parse("7sur8"))
    game.offer_rack("ADEINRST")
    assert all(len(m.used) <= 7 for m in game.tops(200))
    with pytest.raises(EngineError, match="places 8 tiles: the formula 7sur8 places at most 7"):
        game.play(Move.parse("H1 STRAINED"))
    et = DuplicateGame(tiles=en, lexicon=enable, seed=1, formula=Formula.parse("7et8"))
    et.offer_rack("ADEINRST")
    assert et.play(Move.parse("H1 STRAINED")).score == 60 + 75


def test_a_typed_rack_has_the_formula_s_size(en: TileSet, enable: Lexicon) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=1, formula=Formula.parse("789"))
    with pytest.raises(RackError) as refused:
        game.offer_rack("ADEINRST")
    assert refused.value.code == "rack_count" and refused.value.params["need"] == 9
    assert game.offer_rack("ADEINRSTE") == "ADEEINRST"


def test_a_rack_of_eight_failing_the_minimum_is_rejected_whole(
    en: TileSet, enable: Lexicon
) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=1, formula=Formula.parse("7et8"))
    with pytest.raises(RackRejected):
        game.offer_rack("AEIOUAEI")


# -- the détonante -------------------------------------------------------------------------------


def test_the_detonante_joker_becomes_the_letter_the_top_uses_for_it(
    en: TileSet, enable: Lexicon
) -> None:
    """Each rack that took a joker: the top on that rack (joker included) names the letter the
    joker becomes, taken from the bag, the joker going aside again; a top without the joker
    gives a letter drawn from the bag. Players see the rack without the joker."""
    formula = Formula.parse("detonante")
    used, random_letter = 0, 0
    for seed in range(1, 4):
        game = DuplicateGame(tiles=en, lexicon=enable, seed=seed, formula=formula)
        assert game.jokers == 2 and BLANK not in game.bag.contents
        while not game.over:
            board = game.board.copy()
            bag, aside = game.bag.contents, game.jokers
            draw = game.draw()
            if draw is None:
                break
            if game.detonation is not None:
                with_joker, letter = game.detonation
                assert draw.joker_added and BLANK in with_joker
                assert game.rack == "".join(sorted(with_joker.replace(BLANK, letter, 1)))
                assert BLANK not in game.rack and game.jokers == aside  # taken, put back
                if not draw.rejected:  # the letters drawn, then the joker's, left the bag
                    drawn = with_joker.count(letter) - draw.leftover.count(letter)
                    assert game.bag.contents.count(letter) == bag.count(letter) - drawn - 1
                tops = DuplicateGame(tiles=en, lexicon=enable, formula=formula)
                tops.board, tops.rack = board, with_joker
                best = tops.choose_top(tops.all_tops())
                blanks = [ch for _, _, ch in board.placed_by(best.move) if ch.islower()]
                if blanks:
                    assert letter == blanks[0].upper()
                    used += 1
                else:
                    random_letter += 1
            game.play_top()
        again = replay(json.loads(json.dumps(game.to_document())), lexicon=enable)
        assert again.total == game.total and again.board == game.board
    assert used >= 10

"""The choice among equal tops and the duplicate game state machine."""

from __future__ import annotations

import copy
import doctest
import subprocess
import sys
from collections import Counter

import pytest

from engine import movegen
from engine.board import Board, Layout
from engine.choice import choice_key, choose_top
from engine.errors import EngineError, PlacementError, RackError, RackRejected
from engine.game import END_EMPTY, DuplicateGame, GameStateError, Phase, autoplay
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove
from engine.record import RoundRecord
from engine.replay import replay, replay_rounds
from engine.tiles import TileSet
from engine.validate import validate

pytestmark = pytest.mark.usefixtures("movegen_engine")  # each test on both engines


def sm(text: str, score: int, used: str) -> ScoredMove:
    return ScoredMove(Move.parse(text), score, used)


# -- choose_top: each criterion decides a case ---------------------------------------------------


def test_the_highest_score_wins_whatever_the_leave(en: TileSet) -> None:
    rack = "AEIRST?"
    best = sm("H8 ZZ", 30, "AEIRST?")  # words need not be real here: only the order is tested
    assert choose_top([sm("H8 AA", 29, "A"), best], rack, en) is best


def test_among_equal_tops_the_one_keeping_a_blank_is_chosen(en: TileSet) -> None:
    rack = "AEIRST?"
    keeps_blank = sm("H4 TERAIS", 20, "AEIRST")
    uses_blank = sm("H4 AIRTsE", 20, "AEIRST?".replace("T", "", 1))
    assert choose_top([uses_blank, keeps_blank], rack, en) is keeps_blank


def test_then_the_leave_with_fewer_duplicate_letters(en: TileSet) -> None:
    rack = "AEEERST"
    leaves_eet = sm("H4 ARES", 20, "AERS")
    leaves_aet = sm("H4 SEER", 20, "EERS")
    assert choose_top([leaves_eet, leaves_aet], rack, en) is leaves_aet
    assert choice_key(leaves_eet, rack, en)[1] == 1


def test_then_the_leave_with_vowels_and_consonants_closer_to_even(en: TileSet) -> None:
    rack = "AEINRST"
    leaves_aei = sm("H4 RNST", 20, "NRST")  # |3 - 0| = 3
    leaves_int = sm("H4 AERS", 20, "AERS")  # |1 - 2| = 1
    assert choose_top([leaves_aei, leaves_int], rack, en) is leaves_int


def test_blanks_and_french_y_do_not_count_in_the_balance(fr: TileSet) -> None:
    rack = "AEIRSTY"
    leaves_ay = sm("H4 EIRST", 20, "EIRST")  # A, Y: |1 - 0| = 1
    leaves_at = sm("H4 EIRSY", 20, "EIRSY")  # A, T: |1 - 1| = 0
    assert choose_top([leaves_ay, leaves_at], rack, fr) is leaves_at


def test_then_fewer_tiles_placed(en: TileSet) -> None:
    rack = "AEINRST"
    five = sm("H4 AIRES", 20, "AEIRS")  # leave NT: |0 - 2| = 2
    four = sm("H4 AIRE", 20, "AEIR")  # leave NST: |0 - 3| = 3 ... so balance decides first
    assert choose_top([five, four], rack, en) is five
    four_b = sm("H4 RAIN", 20, "AINR")  # leave EST: |1 - 2| = 1
    five_b = sm("H4 TRAIN", 20, "AINRT")  # leave ES: |1 - 1| = 0
    assert choose_top([four_b, five_b], rack, en) is five_b
    # Equal leaves in duplicates and balance: the fewer tiles win.
    rack = "AEINRSTT"[:7]  # AEINRST
    three = sm("H4 ANT", 20, "ANT")  # leave EIRS: |2 - 2| = 0
    five_c = sm("H4 SANTE", 20, "AENST")  # leave IR: |1 - 1| = 0
    assert choose_top([five_c, three], rack, en) is three


def test_then_the_word_alphabetically(en: TileSet) -> None:
    rack = "AEINRST"
    aster = sm("H4 ASTER", 20, "AERST")
    rates = sm("H4 RATES", 20, "AERST")
    assert choose_top([rates, aster], rack, en) is aster


def test_then_real_tiles_before_blanks_in_the_same_word(en: TileSet) -> None:
    rack = "AHE?BCD"
    real_first = sm("H4 AaH", 20, "AH?")
    blank_first = sm("H4 aAH", 20, "AH?")
    assert choose_top([blank_first, real_first], rack, en) is real_first


def test_then_the_position_nearest_a1(en: TileSet) -> None:
    rack = "AEINRST"
    near = sm("A5 STAIR", 20, "AIRST")
    far = sm("H8 STAIR", 20, "AIRST")
    assert choose_top([far, near], rack, en) is near
    # equal row + column: the smaller row first
    assert (
        choose_top([sm("H3 STAIR", 20, "AIRST"), sm("C8 STAIR", 20, "AIRST")], rack, en).ref == "C8"
    )
    # the same square: across before down
    assert (
        choose_top([sm("8H STAIR", 20, "AIRST"), sm("H8 STAIR", 20, "AIRST")], rack, en).ref == "H8"
    )


def test_choose_top_refuses_an_empty_list_and_a_move_not_from_the_rack(en: TileSet) -> None:
    with pytest.raises(EngineError, match="no move to choose"):
        choose_top([], "AEINRST", en)
    with pytest.raises(RackError, match="not all on the rack"):
        choice_key(sm("H8 ZA", 11, "AZ"), "AEINRST", en)


def test_the_choice_key_is_the_documented_order(en: TileSet) -> None:
    key = choice_key(sm("C3 aHE", 9, "EH?"), "AEEEHS?", en)  # leave AEES
    # blanks kept, duplicates, |v - c|, tiles, word, word as written, row+col, row, col, direction
    assert key == (0, 1, 2, 3, "AHE", "aHE", 4, 2, 2, 0)


# -- the game as a state machine -----------------------------------------------------------------


@pytest.fixture
def game(en: TileSet, enable: Lexicon) -> DuplicateGame:
    return DuplicateGame(tiles=en, lexicon=enable, seed=7)


def test_a_new_game_waits_for_the_first_rack(game: DuplicateGame) -> None:
    assert game.phase is Phase.DRAW
    assert game.round_number == 1
    assert game.rack == "" and game.leftover == ""
    assert len(game.bag) == 100 and game.board.is_empty
    assert game.total == 0 and not game.over and game.end_reason == ""


def test_a_game_without_a_seed_picks_one_and_records_it(en: TileSet, enable: Lexicon) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=None)
    assert isinstance(game.seed, int) and 0 <= game.seed < 2**32
    assert game.to_document()["seed"] == game.seed


def test_playing_before_the_draw_is_refused(game: DuplicateGame) -> None:
    with pytest.raises(GameStateError, match="round 1 has no rack yet; draw one first"):
        game.play(Move.parse("H8 AA"))
    with pytest.raises(GameStateError, match="draw one first"):
        game.play_top()
    with pytest.raises(GameStateError, match="draw one first"):
        game.tops()


def test_drawing_twice_in_a_round_is_refused(game: DuplicateGame) -> None:
    game.draw()
    with pytest.raises(GameStateError, match="already has the rack"):
        game.draw()
    with pytest.raises(GameStateError, match="already has the rack"):
        game.offer_rack("AEINRST")


def test_nothing_happens_after_the_game_is_over(game: DuplicateGame) -> None:
    game.end("the director stopped the game")
    assert game.phase is Phase.OVER
    with pytest.raises(
        GameStateError, match="the game is over \\(the director stopped the game\\)"
    ):
        game.draw()
    with pytest.raises(GameStateError, match="already over"):
        game.end("again")


def test_a_drawn_rack_is_seven_tiles_from_the_bag(game: DuplicateGame) -> None:
    draw = game.draw()
    assert draw is not None
    assert game.rack == draw.rack and len(draw.rack) == 7
    assert len(game.bag) == 93
    assert [m.score for m in game.tops(3)] == sorted((m.score for m in game.tops(3)), reverse=True)


def test_an_invalid_move_is_refused_with_the_validator_messages(game: DuplicateGame) -> None:
    game.offer_rack("AEINRST")
    with pytest.raises(
        PlacementError, match="round 1: A1 RETAINS cannot be placed: .*centre square H8"
    ):
        game.play(Move.parse("A1 RETAINS"))
    with pytest.raises(PlacementError, match="needs Z not on the rack"):
        game.play(Move.parse("H8 ZIN"))
    assert game.phase is Phase.PLAY  # still waiting for a valid move


def test_playing_a_move_records_the_round_and_keeps_the_leftover(game: DuplicateGame) -> None:
    game.offer_rack("AEINRSZ")
    record = game.play(Move.parse("H8 ZIN"))
    assert record == RoundRecord(
        number=1, rack="AEINRSZ", leftover="", rejected=(), ref="H8", word="ZIN", score=24
    )
    assert game.leftover == "AERS"
    assert game.round_number == 2 and game.rack == "" and game.total == 24
    assert game.board.tiles == 3


def test_a_typed_rack_must_hold_the_leftover(game: DuplicateGame) -> None:
    game.offer_rack("AEINRSZ")
    game.play(Move.parse("H8 ZIN"))
    with pytest.raises(RackError, match="does not hold the leftover AERS"):
        game.offer_rack("AAAAOOB")
    assert game.offer_rack("AERSTTO") == "AEORSTT"
    assert len(game.bag) == 100 - 7 - 3


def test_a_rejected_typed_rack_goes_back_whole_and_the_next_is_drawn_afresh(
    game: DuplicateGame,
) -> None:
    game.offer_rack("AEIOUBZ")
    game.play(Move.parse("H8 ZOA"))  # leaves BEIU
    assert game.leftover == "BEIU"
    with pytest.raises(RackRejected, match="round 2 needs at least 2 vowels and 2 consonants"):
        game.offer_rack("BEIUAEO")
    assert game.rejected == ["ABEEIOU"]
    assert game.leftover == ""
    assert len(game.bag) == 100 - 3  # the leftover went back: only the board's tiles are out
    # The next rack need not hold the old leftover.
    assert game.offer_rack("TRAINSE") == "AEINRST"
    record = game.play_top()
    assert record is not None
    assert record.rejected == ("ABEEIOU",) and record.leftover == ""


def test_a_random_draw_after_a_typed_rejection_keeps_it_in_the_record(game: DuplicateGame) -> None:
    with pytest.raises(RackRejected):
        game.offer_rack("AEIOUAE")
    draw = game.draw()
    assert draw is not None
    assert draw.rejected[0] == "AAEEIOU"
    record = game.play_top()
    assert record is not None and record.rejected[0] == "AAEEIOU"


def test_the_game_ends_when_no_move_is_possible(en: TileSet) -> None:
    lexicon = Lexicon.from_words(["XU"], name="xu")
    game = DuplicateGame(tiles=en, lexicon=lexicon, seed=1)
    game.offer_rack("AEBCDFG")
    assert game.play_top() is None
    assert game.over and game.end_reason == "no move is possible with the rack ABCDEFG"
    again = replay(game.to_document(), lexicon=lexicon)
    assert again.over and again.end_reason == game.end_reason


def test_the_game_ends_when_the_bag_and_the_rack_are_empty(en: TileSet, enable: Lexicon) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=1)
    game.bag.take(game.bag.contents)  # as if every tile were played
    assert game.draw() is None
    assert game.over and game.end_reason == END_EMPTY


def test_the_game_ends_when_no_rack_can_meet_the_minimum(en: TileSet, enable: Lexicon) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=1)
    game.bag.take(game.bag.contents)
    game.bag.put("AEIOUAEIOUB")
    with pytest.raises(GameStateError, match="no rack can meet the minimum of round 1"):
        game.offer_rack("AEIOUAB")
    assert game.over
    assert game.end_reason == (
        "no rack can meet the minimum of round 1 (2 vowels and 2 consonants) "
        "from what is left: AABEEIIOOUU"
    )


# -- whole games ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(enable: Lexicon) -> DuplicateGame:
    return autoplay(seed=2026, tiles=TileSet.load("en"), lexicon=enable)


def test_a_seeded_autoplay_is_reproducible(played: DuplicateGame, enable: Lexicon) -> None:
    again = autoplay(seed=2026, tiles=TileSet.load("en"), lexicon=enable)
    assert again.to_document() == played.to_document()
    assert again.board == played.board


def test_an_autoplayed_game_conserves_the_tiles_round_by_round(
    en: TileSet, enable: Lexicon
) -> None:
    game = DuplicateGame(tiles=en, lexicon=enable, seed=31)
    full = Counter(game.bag.contents)
    while not game.over:
        if game.draw() is None:
            break
        assert game.board.tiles + len(game.bag) + len(game.rack) == 100
        on_board = Counter(
            "?" if ch.islower() else ch
            for line in game.board.to_lines()
            for ch in line
            if ch != "."
        )
        assert on_board + Counter(game.bag.contents) + Counter(game.rack) == full
        game.play_top()
        assert game.board.tiles + len(game.bag) + len(game.leftover) == 100
    assert game.end_reason
    assert len(game.rounds) >= 15


def test_every_round_of_a_game_is_a_valid_top_on_the_board_of_its_moment(
    played: DuplicateGame, enable: Lexicon
) -> None:
    board = Board(Layout.load("standard"))
    for record in played.rounds:
        verdict = validate(board, record.move, rack=record.rack, lexicon=enable)
        assert verdict.valid, (record, verdict.problems)
        assert verdict.score == record.score
        assert movegen.top(board, record.rack, enable)[0].score == record.score
        assert Counter(record.rack) >= Counter(record.leftover)
        board.play(record.move)
    assert board == played.board
    assert played.total == sum(r.score for r in played.rounds)


def test_the_document_has_the_cli_shape(played: DuplicateGame) -> None:
    doc = played.to_document()
    assert list(doc) == ["tiles", "seed", "rounds", "total", "end"]
    assert doc["tiles"] == "en" and doc["seed"] == 2026
    assert list(doc["rounds"][0]) == [
        "number",
        "rack",
        "leftover",
        "rejected",
        "ref",
        "word",
        "score",
    ]
    assert doc["rounds"][0]["number"] == 1 and doc["rounds"][0]["leftover"] == ""
    assert doc["total"] == played.total and doc["end"] == played.end_reason


def test_replaying_a_document_reproduces_the_game(played: DuplicateGame, enable: Lexicon) -> None:
    doc = played.to_document()
    again = replay(doc, lexicon=enable)
    assert again.to_document() == doc
    assert again.board == played.board
    assert again.over


def test_a_game_rebuilt_from_its_rounds_waits_for_the_next_rack(
    played: DuplicateGame, en: TileSet, enable: Lexicon
) -> None:
    game = replay_rounds(played.rounds[:5], tiles=en, lexicon=enable, seed=1)
    assert game.round_number == 6 and game.phase is Phase.DRAW
    assert game.total == sum(r.score for r in played.rounds[:5])
    assert game.board.tiles + len(game.bag) + len(game.leftover) == 100
    sixth = played.rounds[5]
    if not sixth.rejected:
        assert game.leftover == sixth.leftover
    for rack in sixth.rejected:  # this seed's round 6 had a rejection: it is replayed as such
        with pytest.raises(RackRejected):
            game.offer_rack(rack)
    assert game.offer_rack(sixth.rack) == sixth.rack
    assert game.play(sixth.move) == sixth
    assert game.total == sum(r.score for r in played.rounds[:6])


def test_a_document_with_a_wrong_score_is_refused_naming_the_round(
    played: DuplicateGame, enable: Lexicon
) -> None:
    doc = copy.deepcopy(played.to_document())
    doc["rounds"][2]["score"] += 1
    with pytest.raises(PlacementError, match=r"^round 3: .* scores \d+, the document says \d+"):
        replay(doc, lexicon=enable)


def test_a_document_with_a_rack_not_in_the_bag_is_refused_naming_the_round(
    played: DuplicateGame, enable: Lexicon
) -> None:
    doc = copy.deepcopy(played.to_document())
    first = doc["rounds"][0]
    first["rack"] = "ZZZZZZZ"
    with pytest.raises(RackError, match=r"^round 1: rack ZZZZZZZ: not in the bag: Z"):
        replay(doc, lexicon=enable)


def test_a_document_with_a_wrong_leftover_or_a_keepable_rejected_rack_is_refused(
    played: DuplicateGame, enable: Lexicon
) -> None:
    doc = copy.deepcopy(played.to_document())
    second = next(r for r in doc["rounds"] if r["leftover"] and r["number"] > 1)
    second["leftover"] = ""
    with pytest.raises(RackError, match=rf"^round {second['number']}: the leftover is"):
        replay(doc, lexicon=enable)
    doc = copy.deepcopy(played.to_document())
    doc["rounds"][0]["rejected"] = ["AEINRST"]
    with pytest.raises(RackError, match="^round 1: the rejected rack AEINRST meets the minimum"):
        replay(doc, lexicon=enable)


def test_a_document_with_an_illegal_move_or_a_false_end_is_refused(
    played: DuplicateGame, enable: Lexicon
) -> None:
    doc = copy.deepcopy(played.to_document())
    doc["rounds"][1]["ref"] = "A1"
    with pytest.raises(PlacementError, match="^round 2: A1 .* cannot be placed"):
        replay(doc, lexicon=enable)
    doc = copy.deepcopy(played.to_document())
    doc["rounds"] = doc["rounds"][:3]
    doc["total"] = sum(r["score"] for r in doc["rounds"])
    with pytest.raises(
        EngineError, match="^round 4: the document ends with .* but a rack can still be drawn"
    ):
        replay(doc, lexicon=enable)
    doc["end"] = ""
    assert replay(doc, lexicon=enable).phase is Phase.DRAW


def test_a_french_game_conserves_its_102_tiles(fr: TileSet, enable: Lexicon) -> None:
    game = autoplay(seed=5, tiles=fr, lexicon=enable)
    assert game.board.tiles + len(game.bag) + len(game.leftover) == 102
    assert replay(game.to_document(), lexicon=enable).to_document() == game.to_document()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_many_seeded_games_replay_and_every_rack_meets_its_minimum(
    seed: int, enable: Lexicon
) -> None:
    from engine.draw import meets_minimum

    tiles = TileSet.load("en" if seed % 2 else "fr")
    game = autoplay(seed=seed, tiles=tiles, lexicon=enable)
    for record in game.rounds:
        assert meets_minimum(tiles, record.rack, record.number)
        assert all(not meets_minimum(tiles, r, record.number) for r in record.rejected)
    assert replay(game.to_document(), lexicon=enable).to_document() == game.to_document()


def test_the_examples_in_the_docstrings_run() -> None:
    import engine.draw
    import engine.game
    import engine.wordlist

    for module in (engine.draw, engine.game, engine.wordlist):
        failed, attempted = doctest.testmod(module)
        assert attempted > 0 and failed == 0, module.__name__


def test_the_engine_imports_no_django() -> None:
    code = "import sys, engine.draw, engine.game; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_game_rebuilt_from_its_rounds_draws_the_same_next_racks_as_one_that_never_stopped(
    enable: Lexicon, en: TileSet
) -> None:
    whole = autoplay(seed=42, tiles=en, lexicon=enable)
    resumed = replay_rounds(whole.rounds[:5], tiles=en, lexicon=enable, seed=42)
    while not resumed.over:
        if resumed.draw() is not None:
            resumed.play_top()
    assert resumed.to_document() == whole.to_document()


def test_a_round_drawn_again_after_an_annulment_gets_another_rack(
    enable: Lexicon, en: TileSet
) -> None:
    first = DuplicateGame(tiles=en, lexicon=enable, seed=5)
    again = DuplicateGame(tiles=en, lexicon=enable, seed=5)
    same = DuplicateGame(tiles=en, lexicon=enable, seed=5)
    a, b, c = first.draw(), again.draw(redraw=1), same.draw()
    assert a is not None and b is not None and c is not None
    assert a.rack == c.rack and a.rack != b.rack

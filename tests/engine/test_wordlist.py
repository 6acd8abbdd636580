"""Reading a word list for a tile set: what it keeps, what it sets aside, what it refuses."""

from __future__ import annotations

import pytest

from engine.errors import LexiconError, WordListError
from engine.tiles import TileSet
from engine.wordlist import LISTED, read_list


def test_accents_fold_to_the_french_tiles_and_repeats_are_counted_once() -> None:
    reading = read_list("Été\nete\ncœur\nÇA\nnaïve\nx\n", "fr.txt", TileSet.load("fr").letters)
    assert reading.words == ["CA", "COEUR", "ETE", "NAIVE"]
    assert (reading.repeated, reading.left_out) == (1, 1)


def test_a_letter_the_tile_set_lacks_is_refused_with_its_line() -> None:
    no_k_or_w = "ABCDEFGHIJLMNOPQRSTUVXYZ"
    with pytest.raises(WordListError) as caught:
        read_list("chien\nkiwi\nvélo\nwagon\n", "list.txt", no_k_or_w)
    assert caught.value.lines == ((2, "kiwi", "K"), (4, "wagon", "W"))
    assert caught.value.count == 2
    assert "2 lines are not a word of letters A, B, C" in str(caught.value)


def test_the_error_lists_the_first_lines_and_counts_them_all() -> None:
    text = "\n".join(f"mot-{n}" for n in range(LISTED + 5))
    with pytest.raises(WordListError) as caught:
        read_list(text, "list.txt")
    assert caught.value.count == LISTED + 5 and len(caught.value.lines) == LISTED
    assert caught.value.lines[0] == (1, "mot-0", "-")
    assert str(caught.value).endswith("; 5 more")


def test_a_list_of_no_playable_word_is_a_lexicon_error_with_no_line() -> None:
    with pytest.raises(LexiconError, match="holds no word of 2 to 15 letters") as caught:
        read_list("a\n\nb\n", "list.txt")
    assert isinstance(caught.value, WordListError) and caught.value.count == 0

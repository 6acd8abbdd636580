"""Word lists as clubs bring them: UTF-8 text, one word a line, any case, accents folded.

A French list writes ÉTÉ, ÇA or CŒUR; the tiles carry no accent, so each letter is folded to
its tile: the accent dropped (É -> E, Ç -> C, Ï -> I), a ligature written out (Œ -> OE,
Æ -> AE). A line that still holds anything but the letters A-Z (a hyphen, an apostrophe, a
digit, a letter of another alphabet) is not a word that can be played: the list is refused
with those lines named (the first ``LISTED`` of them, and how many in all), so that a
director mends the file once, not line after line. Blank lines, a byte-order mark and
Windows line ends are accepted; words of one letter or more than 15 cannot be played and
are left out.

>>> read_words("Été\\ncœur\\nÇA\\n\\nx\\n", "fr.txt")
['CA', 'COEUR', 'ETE']
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from engine.errors import WordListError
from engine.tiles import ALPHABET

MIN_LEN, MAX_LEN = 2, 15
LIGATURES = {"Œ": "OE", "Æ": "AE"}
LISTED = 20  # the lines an error names at the most


def fold(word: str) -> str:
    """The word in tile letters: upper case, accents dropped, ligatures written out. What is
    not a letter A-Z stays as it is (the caller refuses it)."""
    upper = word.upper()
    if upper.isascii():
        return upper
    for ligature, letters in LIGATURES.items():
        upper = upper.replace(ligature, letters)
    decomposed = unicodedata.normalize("NFD", upper)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _not_a_letter(word: str, letters: frozenset[str]) -> str:
    return next(ch for ch in word if ch not in letters)


@dataclass(frozen=True)
class Reading:
    """What a list holds: its playable words (folded, unique, sorted), how many lines repeated
    a word already read (``ÉTÉ`` after ``ete`` is the same word), and how many words were left
    out for their length (one letter, or more than 15)."""

    words: list[str]
    repeated: int
    left_out: int


def read_list(text: str, name: str, letters: str = ALPHABET) -> Reading:
    """Read a word list as ``read_words`` does, with what it left out. ``letters`` are the
    tiles of the set the list is for (A-Z by default): a line that folds to anything else is
    refused. ``WordListError`` names the bad lines (the first ``LISTED``) and their count, or
    says the list holds no word."""
    allowed = frozenset(letters)
    words: set[str] = set()
    bad: list[tuple[int, str, str]] = []
    count = repeated = left_out = 0
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        word = fold(line)
        if not allowed.issuperset(word):
            count += 1
            if len(bad) < LISTED:
                bad.append((number, line[:40], _not_a_letter(word, allowed)))
            continue
        if not MIN_LEN <= len(word) <= MAX_LEN:
            left_out += 1
        elif word in words:
            repeated += 1
        else:
            words.add(word)
    if count:
        more = f"; {count - len(bad)} more" if count > len(bad) else ""
        which = "A-Z" if letters == ALPHABET else ", ".join(sorted(allowed))
        listed = "; ".join(f"line {n}: {line!r} ({ch!r})" for n, line, ch in bad)
        raise WordListError(
            f"lexicon {name!r}: {count} line{'s' if count > 1 else ''} "
            f"{'are' if count > 1 else 'is'} not a word of letters {which} "
            f"(accents are folded: É is E, Œ is OE): {listed}{more}",
            tuple(bad),
            count,
        )
    if not words:
        raise WordListError(f"lexicon {name!r} holds no word of 2 to 15 letters", (), 0)
    return Reading(sorted(words), repeated, left_out)


def read_words(text: str, name: str) -> list[str]:
    """The list's playable words, folded, unique and sorted; ``LexiconError`` naming every line
    that is not a word of letters (the first ``LISTED``) or saying the list holds none."""
    return read_list(text, name).words


__all__ = [
    "LIGATURES",
    "LISTED",
    "MAX_LEN",
    "MIN_LEN",
    "Reading",
    "fold",
    "read_list",
    "read_words",
]

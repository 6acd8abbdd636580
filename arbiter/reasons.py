"""The engine's problems and errors in the room's words.

The engine speaks no language but its CLI's: each ``Problem`` of a verdict carries its fault
(the code) and the values of its message (``params``), and each ``EngineError`` a ``code`` and
``params``. Here each code has its sentence, marked for translation and said through the
judge's ``say`` (the event's language in the services, English as written in the CLI), so a
ruling's reason is one language from end to end. A code without a sentence here is a bug that
``tests/arbiter/test_reasons.py`` catches: every fault and every error code the engine raises
has one.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import EngineError
from engine.game import end_reason_parts
from engine.validate import Fault, Problem
from tournament.vocabulary import gettext_noop as _

Say = Callable[[str], str]

# What each fault says; the values are the problem's params.
FAULTS: dict[Fault, str] = {
    Fault.BAD_NOTATION: _("move %(move)s: %(letter)s is not a letter of the tile set"),
    Fault.CLASH: _(
        "move %(move)s: square %(square)s holds %(here)s, the word has %(letter)s there"
    ),
    Fault.NO_TILE: _("move %(move)s places no tile: every letter is already on the board"),
    Fault.GAP: _(
        "move %(move)s: the word is not written in full: %(square)s next to it holds %(here)s"
    ),
    Fault.NOT_ON_RACK: _("move %(move)s needs %(tiles)s not on the rack %(rack)s"),
    Fault.TOO_MANY_TILES: _(
        "move %(move)s places %(tiles)s tiles: the formula %(formula)s places at most %(most)s"
    ),
    Fault.NOT_CONNECTED: _("move %(move)s does not touch any tile on the board"),
    Fault.MISSES_CENTRE: _("move %(move)s: the first move must cover the centre square %(square)s"),
    Fault.NOT_IN_LEXICON: _("not in the lexicon %(lexicon)s: %(words)s"),
}

# What each engine error code says (``EngineError.code``); the values are its params.
ERRORS: dict[str, str] = {
    "word_not_letters": _("word '%(word)s' must be letters only (lower case for a blank)"),
    "word_too_short": _("word '%(word)s' is too short: a word has at least two letters"),
    "word_too_long": _("word '%(word)s' has %(letters)s letters: no word longer than 15 fits"),
    "ref_unreadable": _(
        "reference '%(ref)s' is not a grid reference: the row letter first for a move across "
        "(H8), the column number first for a move down (8H)"
    ),
    "ref_row_off_board": _("reference '%(ref)s': row %(row)s is off the board (rows are A to O)"),
    "ref_column_off_board": _(
        "reference '%(ref)s': column %(column)s is off the board (columns are 1 to 15)"
    ),
    "move_off_board": _("move %(move)s: '%(word)s' from %(ref)s runs off the board"),
    "rack_not_tile": _(
        "rack '%(rack)s': %(tile)s at position %(position)s is not a tile of the set"
    ),
    "rack_count": _("rack %(rack)s has %(count)s tiles: round %(round)s needs %(need)s"),
    "rack_count_left": _(
        "rack %(rack)s has %(count)s tiles: round %(round)s needs all %(need)s that remain"
    ),
    "rack_leftover": _(
        "rack %(rack)s does not hold the leftover %(leftover)s: %(missing)s missing"
    ),
    "rack_not_in_bag": _("rack %(rack)s: the bag does not hold %(tiles)s"),
    "rack_minimum": _(
        "rack %(rack)s: vowels %(vowels)s, consonants %(consonants)s, either %(either)s; round "
        "%(round)s needs at least %(need_vowels)s vowels and %(need_consonants)s consonants"
    ),
    "rack_joker_missing": _(
        "rack %(rack)s: in a joker game every rack holds a joker while one is left"
    ),
    "formula_unknown": _(
        "formula '%(formula)s': '%(part)s' is not a formula (joker, 7sur8, 7et8, 789, "
        "detonante, mortsubite, or joker+7sur8, joker+7et8, joker+789)"
    ),
    "formula_combination": _(
        "formula '%(formula)s': the regulation (3.8.2) combines only the joker with one of "
        "7sur8, 7et8 or 789"
    ),
}

# Why a game ended (``engine.game.end_reason_parts``).
ENDS: dict[str, str] = {
    "game_empty": _("the bag and the rack are empty"),
    "game_no_move": _("no move is possible with the rack %(rack)s"),
    "game_no_rack": _(
        "no rack can meet the minimum of round %(round)s (%(vowels)s vowels and "
        "%(consonants)s consonants) from what is left: %(pool)s"
    ),
}

BLANKS = {1: _("a blank"), 2: _("two blanks")}
DOES_NOT_FIT = _("it does not fit")


def error_text(exc: EngineError, say: Say) -> str:
    """An engine error in the room's words (its own message when its code has no sentence)."""
    text = ERRORS.get(exc.code)
    return str(exc) if text is None else say(text) % exc.params


def end_text(reason: str, say: Say) -> str:
    """Why a game ended, in the room's words (a reason the engine does not know as it is)."""
    code, params = end_reason_parts(reason)
    said = say(ENDS[code]) if code in ENDS else ""
    return said % params if said and said != ENDS[code] else reason  # English: as the engine


def problem_text(problem: Problem, say: Say, *, lexicon: str = "") -> str:
    """A verdict's problem in the room's words; ``lexicon`` names the list as the event knows
    it (an uploaded list by the name it was given, not its file)."""
    args = problem.args
    code = args.get("error")
    if isinstance(code, str) and code in ERRORS:  # an engine error the verdict reports
        return say(ERRORS[code]) % args
    if problem.fault is Fault.NOT_ON_RACK:
        letters = [str(letter) for letter in str(args["letters"])]
        blanks = int(args["blanks"])
        tiles = ", ".join(letters + ([say(BLANKS[min(blanks, 2)])] if blanks else []))
        return say(FAULTS[Fault.NOT_ON_RACK]) % {**args, "tiles": tiles}
    if problem.fault is Fault.NOT_IN_LEXICON and lexicon:
        args = {**args, "lexicon": lexicon}
    text = FAULTS.get(problem.fault)
    return problem.message if text is None or not args else say(text) % args

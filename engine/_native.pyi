"""Types of the native core (engine/_native.c); see engine/native.py."""

from engine.move import Move
from engine.movegen import ScoredMove
from engine.notation import Direction

class Lexicon:
    def __init__(
        self,
        dmask: memoryview,
        dfirst: memoryview,
        dtarget: memoryview,
        gmask: memoryview,
        gfirst: memoryview,
        gtarget: memoryview,
    ) -> None: ...

def bind(
    move: type[Move], scored: type[ScoredMove], across: Direction, down: Direction
) -> None: ...
def search(
    lexicon: Lexicon,
    cells: bytes,
    letter_mult: bytes,
    word_mult: bytes,
    start: int,
    values: bytes,
    rack: bytes,
    keep: int,
    bonus: bytes,
    max_played: int,
    /,
) -> list[ScoredMove]: ...

"""A rules-exact duplicate Scrabble engine in pure Python (no Django, Celery or database).

Each concept lives in its own module (see engine/README.md); the names most callers need are
re-exported here.
"""

from engine.board import Board, Layout
from engine.choice import choose_top
from engine.draw import Bag, Draw
from engine.errors import (
    EngineError,
    LexiconError,
    NotationError,
    PlacementError,
    RackError,
    RackRejected,
)
from engine.game import DuplicateGame, autoplay
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove, generate, top
from engine.notation import Direction
from engine.record import RoundRecord
from engine.replay import replay
from engine.tiles import TileSet
from engine.validate import Fault, Verdict, validate, validate_text

__all__ = [
    "Bag",
    "Board",
    "Draw",
    "DuplicateGame",
    "RackRejected",
    "RoundRecord",
    "autoplay",
    "choose_top",
    "replay",
    "Direction",
    "EngineError",
    "Fault",
    "Layout",
    "Lexicon",
    "LexiconError",
    "Move",
    "NotationError",
    "PlacementError",
    "RackError",
    "ScoredMove",
    "TileSet",
    "Verdict",
    "generate",
    "top",
    "validate",
    "validate_text",
]

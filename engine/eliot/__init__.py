"""Eliot's XML save game (``<EliotGame format="2">``), read and written, with no I/O
(docs/interchange.md, section 1): the values (``model``), the reader (``reader``), the writer
(``writer``)."""

from __future__ import annotations

from engine.eliot.model import (
    ELIOT_PENALTY_VALUE,
    ELIOT_WARNINGS_LIMIT,
    Dictionary,
    EliotEvent,
    EliotGame,
    EliotMove,
    EliotPlayer,
    EliotTurn,
    PlayerStats,
    Rack,
)
from engine.eliot.reader import MAX_BYTES, eliot_read
from engine.eliot.writer import eliot_word, eliot_write
from engine.interchange import InterchangeError, Problem

__all__ = [
    "ELIOT_PENALTY_VALUE",
    "ELIOT_WARNINGS_LIMIT",
    "MAX_BYTES",
    "Dictionary",
    "EliotEvent",
    "EliotGame",
    "EliotMove",
    "EliotPlayer",
    "EliotTurn",
    "InterchangeError",
    "PlayerStats",
    "Problem",
    "Rack",
    "eliot_read",
    "eliot_word",
    "eliot_write",
]

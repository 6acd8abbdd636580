"""Writes: every state change of the tournament, as keyword-only, typed, atomic functions.

Named ``<entity>_<action>``; each director action writes an audit entry.
"""

from __future__ import annotations

from tournament.services.audit import audit_record
from tournament.services.demo import demo_event_ensure
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.players import player_register, player_token_reissue
from tournament.services.users import director_user_ensure, known_password_replace

__all__ = [
    "audit_record",
    "demo_event_ensure",
    "director_user_ensure",
    "known_password_replace",
    "event_create",
    "game_create",
    "player_register",
    "player_token_reissue",
]

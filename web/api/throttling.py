"""Rate limits per player token (the rates are settings: REST_FRAMEWORK's
DEFAULT_THROTTLE_RATES)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class PlayerTokenThrottle(SimpleRateThrottle):
    """One bucket per player token; the rate is read at each request (settings may change)."""

    def get_rate(self) -> str | None:
        if self.scope is None:
            return None
        # The rates are strings such as "30/min"; djangorestframework-stubs types this setting
        # as dict[str, float | int | None] (its SimpleRateThrottle.THROTTLE_RATES says str).
        rates: dict[str, str | None]
        rates = api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[assignment]
        return rates.get(self.scope)

    def allow_request(self, request: Request, view: APIView) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        player = request.auth
        if player is None or not hasattr(player, "token"):
            return None
        ident = hashlib.sha256(player.token.encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PlayStateThrottle(PlayerTokenThrottle):
    scope = "play_state"


class PlaySubmissionsThrottle(PlayerTokenThrottle):
    scope = "play_submissions"


class RoomCallThrottle(PlayerTokenThrottle):
    """The multiplex's calls (``web.api.multiplex``), one bucket per client address, checked
    before the room key is looked up: a client trying keys is slowed as one holding one."""

    scope = "multiplex"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

"""Rate limits per player token (the rates are settings: REST_FRAMEWORK's DEFAULT_THROTTLE_RATES)."""

from __future__ import annotations

import hashlib

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle


class PlayerTokenThrottle(SimpleRateThrottle):
    """One bucket per player token; the rate is read at each request (settings may change)."""

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view):  # type: ignore[no-untyped-def]
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        player = request.auth
        if player is None or not hasattr(player, "token"):
            return None
        ident = hashlib.sha256(player.token.encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PlayStateThrottle(PlayerTokenThrottle):
    scope = "play_state"


class PlaySubmissionsThrottle(PlayerTokenThrottle):
    scope = "play_submissions"

"""Who is calling the player API: a player, by the secret token their QR code carries.

- ``Authorization: Bearer <token>`` (phones' third-party clients, scripts):
  ``PlayerTokenAuthentication``
- the signed cookie set when the phone opened its QR link (the player page):
  ``PlayerCookieAuthentication``, with Django's CSRF check on unsafe methods.

Both give ``request.user`` a ``PlayerPrincipal`` and ``request.auth`` the ``Player``. An
unknown or revoked token is a 401 with a detail saying so.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, CSRFCheck
from rest_framework.request import Request

from arbiter.services.multiplex import room_key_authenticated
from tournament.errors import ApplicationError
from tournament.models import Player, RoomKey, Submission
from tournament.selectors import player_by_token

PLAY_COOKIE = "dsplay"
PLAY_COOKIE_SALT = "tournament.play"
PLAY_COOKIE_MAX_AGE = 7 * 24 * 3600

REVOKED = gettext_lazy("This access has been revoked: ask the director for a new QR code.")


class PlayerPrincipal:
    """The caller of the player API: one player, authenticated by their token."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False

    def __init__(self, player: Player, *, source: str) -> None:
        self.player = player
        self.source = source  # Submission.Source of the slips this caller hands in
        self.pk = f"player-{player.pk}"

    def __str__(self) -> str:
        return f"player {self.player.name}"


def player_authenticated(token: str, *, source: str) -> tuple[PlayerPrincipal, Player]:
    player = player_by_token(token=token)
    if player is None:
        raise exceptions.AuthenticationFailed(
            gettext("Unknown token: scan your QR code again."), code="unknown_token"
        )
    if not player.token_is_active:
        raise exceptions.AuthenticationFailed(REVOKED, code="revoked")
    return PlayerPrincipal(player, source=source), player


def play_cookie_token(request: HttpRequest) -> str | None:
    """The token the phone stored when it opened its QR link (None if absent or tampered)."""
    return request.get_signed_cookie(
        PLAY_COOKIE, default=None, salt=PLAY_COOKIE_SALT, max_age=PLAY_COOKIE_MAX_AGE
    )


class PlayerTokenAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[PlayerPrincipal, Player] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        keyword, _, token = header.partition(" ")
        if keyword.lower() != self.keyword.lower():
            return None
        token = token.strip()
        if not token or " " in token:
            raise exceptions.AuthenticationFailed(
                gettext("Malformed Authorization header: use 'Bearer <token>'."),
                code="malformed_token",
            )
        return player_authenticated(token, source=Submission.Source.API)

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="play"'


class PlayerCookieAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[PlayerPrincipal, Player] | None:
        token = play_cookie_token(request._request)
        if token is None:
            return None
        result = player_authenticated(token, source=Submission.Source.PHONE)
        self._enforce_csrf(request)
        return result

    def _enforce_csrf(self, request: Request) -> None:
        def dummy_get_response(request: HttpRequest) -> Any:  # pragma: no cover
            return None

        check = CSRFCheck(dummy_get_response)
        check.process_request(request)
        # process_view only reads the view's csrf_exempt flag: this callback has none (DRF's own
        # SessionAuthentication passes None, which the stubs do not accept).
        reason = check.process_view(request, dummy_get_response, (), {})
        if reason:
            raise exceptions.PermissionDenied(
                gettext("CSRF failed: %(reason)s") % {"reason": reason}, code="csrf_failed"
            )


class PlayerTokenScheme(OpenApiAuthenticationExtension):
    target_class = PlayerTokenAuthentication
    name = "playerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The player's secret token (what their QR code carries).",
        }


class PlayerCookieScheme(OpenApiAuthenticationExtension):
    target_class = PlayerCookieAuthentication
    name = "playerCookie"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": PLAY_COOKIE,
            "description": "Set by opening the QR link /play/<token>/.",
        }


class RoomPrincipal:
    """The caller of a multiplex call: one remote room's installation, by its room key."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False

    def __init__(self, key: RoomKey) -> None:
        self.key = key
        self.pk = f"room-{key.room_id}"

    def __str__(self) -> str:
        return f"room {self.key.room_id}"


class RoomKeyAuthentication(BaseAuthentication):
    """``Authorization: Room <key>``: the key the host's director issued for one remote room
    (``arbiter.services.multiplex``); unknown or revoked, a 401 with its code. The key is
    compared by its SHA-256 and never written anywhere."""

    keyword = "Room"

    def authenticate(self, request: Request) -> tuple[RoomPrincipal, RoomKey]:
        keyword, _, key = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
        key = key.strip()
        if keyword.lower() != self.keyword.lower() or not key or " " in key:
            raise exceptions.AuthenticationFailed(
                gettext("Send the room key: 'Authorization: Room <key>'."),
                code="room_key_required",
            )
        try:
            found = room_key_authenticated(key)
        except ApplicationError as exc:
            raise exceptions.AuthenticationFailed(exc.message, code=exc.code) from None
        return RoomPrincipal(found), found

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="multiplex"'


class RoomKeyScheme(OpenApiAuthenticationExtension):
    target_class = RoomKeyAuthentication
    name = "roomKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "'Room <key>': the key the host's director issued for the room.",
        }

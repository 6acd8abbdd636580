"""The player API (v1): thin views over ``arbiter.selectors.play`` and ``slip_submit``.

Errors are ``{"detail": "...", "code": "..."}``, rendered by ``web.api.errors``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any, NoReturn

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.selectors.play import (
    play_round_by_number,
    play_standings,
    play_state_for_phone,
    play_state_version,
)
from arbiter.services.slips import slip_hand_in
from tournament.errors import NotFound
from web.api.authentication import (
    PlayerCookieAuthentication,
    PlayerPrincipal,
    PlayerTokenAuthentication,
)
from web.api.errors import play_exception_handler
from web.api.serializers import (
    ErrorSerializer,
    ReceiptSerializer,
    SlipInSerializer,
    StandingsSerializer,
    StateSerializer,
)
from web.api.throttling import PlayStateThrottle, PlaySubmissionsThrottle
from web.arrival import arrived_at
from web.i18n import event_language_activate
from web.live.polling import POLL_HEADER, poll_seconds
from web.live.store import live_version
from web.outage import (
    HOLD_RUN,
    LOOP_HOLD,
    RETRY_HEADER,
    SERVER_ATTEMPT,
    answered,
    attempt_of,
    credential_of,
    definitive,
    first_arrival,
    held,
    hold_seconds,
    recorded_first_arrival,
    scope_extension,
    slip_digest,
)

# Held on the event loop (SlipArrivals), a slip gives its thread back at the first failure:
# a room's slips retrying in the threads kept every other request waiting (issue 25).
LOOP_HOLD_IN_THREAD = 0.0


class IsPlayer(BasePermission):
    message = gettext_lazy(
        "Authentication credentials were not provided: "
        "scan your QR code or send 'Authorization: Bearer <token>'."
    )

    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.user, PlayerPrincipal)


class PlayAPIView(APIView):
    authentication_classes = [PlayerTokenAuthentication, PlayerCookieAuthentication]
    permission_classes = [IsPlayer]

    def get_exception_handler(
        self,
    ) -> Callable[[Exception, dict[str, Any]], Response | None]:
        return play_exception_handler

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if isinstance(request.user, PlayerPrincipal):  # the phone speaks its event's language
            event_language_activate(request._request, request.user.player.event)

    def permission_denied(
        self, request: Request, message: str | None = None, code: str | None = None
    ) -> NoReturn:
        if request.authenticators and not request.successful_authenticator:
            raise exceptions.NotAuthenticated(message or IsPlayer.message, code="not_authenticated")
        super().permission_denied(request, message=message, code=code)


def _caller(request: Request) -> PlayerPrincipal:
    """Who calls: ``IsPlayer`` lets only a ``PlayerPrincipal`` reach a handler."""
    user: object = request.user
    if not isinstance(user, PlayerPrincipal):
        raise exceptions.NotAuthenticated(IsPlayer.message, code="not_authenticated")
    return user


_ERRORS = {
    401: OpenApiResponse(
        ErrorSerializer, description="No token, an unknown token or a revoked one."
    ),
    429: OpenApiResponse(ErrorSerializer, description="Too many requests for this token."),
}


class PlayStateView(PlayAPIView):
    throttle_classes = [PlayStateThrottle]

    @extend_schema(
        operation_id="play_state",
        summary="What the player's phone shows now",
        description="Where the live stream (GET /api/v1/play/events, Server-Sent Events) "
        "cannot be used, poll it: wait the seconds X-Poll-After says before the next poll "
        "(?hidden=1 while the page is hidden). Send the last ETag as If-None-Match: an "
        "unchanged state is a 304 with no body. X-Server-Time carries the server clock "
        "either way. "
        "`slips` is the player's own slip history for the game (what they show an arbiter "
        "in a dispute): every slip with its server receipt time, which one counts, and its "
        "ruling once the round is published.",
        parameters=[
            OpenApiParameter(
                "If-None-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False
            )
        ],
        responses={
            200: StateSerializer,
            304: OpenApiResponse(description="Unchanged since the ETag sent."),
            **_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        player = _caller(request).player
        now = timezone.now()
        version = live_version(event_id=player.event_id, player_id=player.pk)
        if version is None:  # the live versions cannot be read (Redis down): the database's
            version = "db-" + play_state_version(player=player)
        etag = f'"{version}"'
        headers = {"ETag": etag, "X-Server-Time": now.isoformat(), "Cache-Control": "no-cache"}
        hidden = request.query_params.get("hidden") == "1"
        if request.headers.get("If-None-Match") == etag:
            headers[POLL_HEADER] = str(poll_seconds(status=None, hidden=hidden))
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        state = play_state_for_phone(player=player, now=now, version=version)
        round_ = state.data["round"]
        seconds = poll_seconds(status=round_["status"] if round_ else "", hidden=hidden)
        headers[POLL_HEADER] = str(seconds)
        return Response(StateSerializer(state.data).data, headers=headers)


class PlayStandingsView(PlayAPIView):
    throttle_classes = [PlayStateThrottle]

    @extend_schema(
        operation_id="play_standings",
        summary="The standings after the published rounds: first places and the player's line",
        responses={200: StandingsSerializer, **_ERRORS},
    )
    def get(self, request: Request) -> Response:
        return Response(StandingsSerializer(play_standings(player=_caller(request).player)).data)


def _credential(request: Request) -> str:
    """The token the request authenticates with, read without the database (the header, or
    the phone's cookie): what an attempt's first arrival is kept under."""
    return credential_of(str(request.META.get("HTTP_AUTHORIZATION", "")), request.COOKIES)


class PlaySubmissionsView(PlayAPIView):
    """Hands in a slip, through our own outages (``web.outage``): the request is held while the
    database does not answer, the attempt identity makes every retry safe."""

    throttle_classes = [PlaySubmissionsThrottle]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Held on the event loop by SlipArrivals (the production server), else here.
        self.loop_hold = scope_extension(request._request, LOOP_HOLD) is True
        self.hold_until = time.monotonic() + (
            LOOP_HOLD_IN_THREAD if self.loop_hold else hold_seconds()
        )
        self.arrived = arrived_at(request._request)
        self.attempt = ""
        self.credential = ""
        data = request.data  # parsed without the database (a malformed body: a 400 here)
        found = attempt_of(data)
        if found is not None:
            self.attempt, self.credential = found[0], _credential(request)
            recorded = recorded_first_arrival(request._request)  # by SlipArrivals, if it ran
            self.arrived = recorded or first_arrival(
                credential=self.credential,
                attempt=self.attempt,
                digest=slip_digest(found[1]),
                arrived=self.arrived,
            )
        # authentication reads the database: held too
        held(lambda: PlayAPIView.initial(self, request, *args, **kwargs), until=self.hold_until)

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if self.__dict__.get("attempt") and definitive(response.status_code):
            answered(credential=self.credential, attempt=self.attempt)
        data = getattr(response, "data", None)
        down = isinstance(data, dict) and data.get("code") == "database_unavailable"
        if down and self.__dict__.get("loop_hold"):
            response[RETRY_HEADER.decode()] = "1"  # SlipArrivals runs it again (never sent out)
        return super().finalize_response(request, response, *args, **kwargs)

    def check_throttles(self, request: Request) -> None:
        # A request SlipArrivals runs again (held through an outage) was counted on its first run.
        run = scope_extension(request._request, HOLD_RUN)
        if not (isinstance(run, int) and run > 0):
            super().check_throttles(request)

    @extend_schema(
        operation_id="play_submissions_create",
        summary="Hand in a slip for the open round",
        description="A later slip before the deadline replaces the earlier one (both kept). "
        "The deadline is on the server clock, judged on when the request's first bytes "
        "reached the server. Send `attempt` (a random identity the client keeps for this "
        "slip) and send the very same body again until an answer comes: a slip already "
        "stored for that attempt is answered with its original receipt (201), never stored "
        "twice, never refused as late; while the database does not answer the request is "
        "held, then answered 503 (code database_unavailable, Retry-After): send again.",
        request=SlipInSerializer,
        responses={
            201: ReceiptSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="A slip that cannot be stored (code: malformed_word, "
                "malformed_reference, malformed_score, invalid, attempt_reused); whatever an "
                "arbiter would rule is recorded and ruled.",
            ),
            403: OpenApiResponse(
                ErrorSerializer,
                description="Not this player's event, access revoked, or the player withdrawn "
                "(codes not_your_event, revoked, withdrawn).",
            ),
            404: OpenApiResponse(
                ErrorSerializer, description="No such round in the game being played."
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="Round not open, clock stopped (send again once it runs), event "
                "closed, or deadline passed (codes round_not_open, round_paused, event_closed, "
                "deadline_passed).",
            ),
            503: OpenApiResponse(
                ErrorSerializer,
                description="The database did not answer while the request was held (code "
                "database_unavailable): send the same body again after Retry-After.",
            ),
            **_ERRORS,
        },
    )
    def post(self, request: Request) -> Response:
        slip_in = SlipInSerializer(data=request.data)
        slip_in.is_valid(raise_exception=True)
        data = slip_in.validated_data
        caller = _caller(request)
        # Without an identity from the client, one of the server's own: its retries below are
        # then as safe as the phone's.
        server_attempt = scope_extension(request._request, SERVER_ATTEMPT)
        if not isinstance(server_attempt, str):
            server_attempt = "server-" + uuid.uuid4().hex
        attempt = data["attempt"] or server_attempt

        def hand_in() -> dict[str, Any]:
            player = caller.player
            round_ = play_round_by_number(player=player, number=data["round"])
            if round_ is None:
                raise NotFound(
                    gettext("There is no round %(round)s in the game being played.")
                    % {"round": data["round"]},
                    code="no_such_round",
                )
            return slip_hand_in(
                player=player,
                round=round_,
                word=data["word"],
                ref=data["ref"],
                score=data["score"],
                source=caller.source,
                at=self.arrived,
                attempt=attempt,
            ).receipt()

        receipt = held(hand_in, until=self.hold_until, retry_integrity=True)
        return Response(ReceiptSerializer(receipt).data, status=status.HTTP_201_CREATED)

"""The director API (issue 16.5): the console's events, games, game actions, standings and
workbook as JSON calls under ``/api/v1/events/``, for scripts and other programs.

| call | who | what |
|---|---|---|
| ``GET /api/v1/events`` | signed in | the events one has a role in (every event: superuser) |
| ``POST /api/v1/events`` | signed in | a new event (its creator directs it) |
| ``GET /api/v1/events/<slug>`` | staff | the event and its rules policy |
| ``PATCH /api/v1/events/<slug>`` | director | some rules of the policy |
| ``GET /api/v1/events/<slug>/games`` | staff | its games |
| ``POST /api/v1/events/<slug>/games`` | director | the next game: a random draw, drawn whole, |
| | | racks typed from the bag, or a pre-drawn engine document |
| ``GET /api/v1/events/<slug>/games/<n>/rounds/<r>`` | staff | a round's rulings, with ids |
| ``GET /api/v1/events/<slug>/games/<n>`` | staff | the game now: round, rack, clock, slips |
| ``POST /api/v1/events/<slug>/games/<n>/<action>`` | per action | the console's actions |
| ``GET /api/v1/events/<slug>/standings`` | staff | the event's standings (a category's) |
| ``GET /api/v1/events/<slug>/games/<n>/standings`` | staff | a game's |
| ``GET /api/v1/events/<slug>/rooms`` | staff | a simultaneous's rooms, how far each has played |
| ``POST /api/v1/events/<slug>/rooms`` | director | a new room: ``name``, ``venue``, ``remote`` |
| ``GET /api/v1/events/<slug>/simultaneous/standings`` | staff | one ranking over every room |
| ``GET /api/v1/events/<slug>/room-results`` | staff | the event's results file |
| ``POST /api/v1/events/<slug>/room-results`` | director | a remote room's file (``file``) |

A simultaneous event (issue 16.1) answers at the slug of its host and of each of its rooms:
``?common=1`` ranks on the rounds every room has published; the filter is the standings'.
The event's workbook is ``GET /api/v1/events/<slug>/export`` (``web.exports.views``).
Who may do what is docs/design.md's "Roles" table; every change is the console's own service
(forms included), so it is checked, refused and audited alike. Authentication: the console's
session (unsafe methods carry the CSRF token) or a personal token, ``Authorization: Token
<key>`` (DRF's ``authtoken``: ``manage.py drf_create_token <username>``, or the account's
"API token" page). A refusal is ``{"detail": ..., "code": ...}`` (``web.api.errors``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.forms.models import model_to_dict
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.selectors.console import console_state
from arbiter.selectors.rooms import RoomProgress, room_results, rooms_progress
from arbiter.selectors.standings import (
    PlayerFilter,
    StandingRow,
    Standings,
    standings_event,
    standings_game,
    standings_simultaneous_live,
)
from arbiter.services.interchange import game_import_predrawn, predrawn_imported_message
from arbiter.services.rooms import room_results_import
from arbiter.services.simultaneous import game_draw_whole
from tournament.errors import ApplicationError
from tournament.models import Event, Game
from tournament.selectors import event_list_visible, host_of
from tournament.services.events import POLICY_FIELDS, event_create, event_policy_update
from tournament.services.games import formula_checked, game_create
from tournament.services.rooms import room_create
from web.actions import game_or_404
from web.api.serializers import (
    EventInSerializer,
    EventOutSerializer,
    GameCreatedSerializer,
    GameInSerializer,
    GameOutSerializer,
    GameStateSerializer,
    PolicySerializer,
    RoomInSerializer,
    RoomOutSerializer,
    Shape,
    SimultaneousStandingsSerializer,
    StaffErrorSerializer,
    StandingsOutSerializer,
)
from web.api.staff import ACTION_SCHEMA, StaffGameActionView
from web.forms import EventForm, PolicyForm, form_error
from web.permissions import (
    DIRECTOR,
    STAFF,
    SignedIn,
    event_access,
    event_role,
)
from web.standings_filter import PARAMETERS, common_rounds_asked, player_filter_parse

_ERRORS = {
    400: OpenApiResponse(StaffErrorSerializer, description="Refused: the detail says why."),
    403: OpenApiResponse(StaffErrorSerializer, description="Not signed in, or not the role."),
    404: OpenApiResponse(StaffErrorSerializer, description="No such event (or no role in it)."),
}
_FILTER = [
    OpenApiParameter(name, OpenApiTypes.STR, OpenApiParameter.QUERY, required=False)
    for name in PARAMETERS
]


def _signed_in(request: Request) -> User:
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise exceptions.NotAuthenticated(code="not_authenticated")
    return user


def _event(request: Request, slug: str, roles: tuple[str, ...]) -> tuple[User, Event]:
    """The caller and the event ``slug``, when the caller holds one of ``roles`` in it (the one
    role check of each call: 404 with no role, 403 with the wrong one)."""
    user = _signed_in(request)
    return user, event_access(user, slug, roles)


def _form_data(request: Request, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The body's fields, each one the call takes; a field it does not take is refused."""
    data = request.data
    if not isinstance(data, Mapping):
        raise ApplicationError(gettext("The body must be a JSON object."), code="invalid")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ApplicationError(
            gettext("Not a field of this call: %(fields)s.") % {"fields": ", ".join(unknown)},
            code="unknown_field",
        )
    return dict(data)


def _refused(form: Any) -> ApplicationError:
    return ApplicationError(form_error(form), code="invalid")


def _event_json(event: Event, role: str | None) -> Shape:
    return EventOutSerializer(
        {
            "slug": event.slug,
            "name": event.name,
            "starts_on": event.starts_on,
            "venue": event.venue,
            "status": event.status,
            "closed": event.is_closed,
            "role": role,
            "policy": {name: getattr(event, name) for name in POLICY_FIELDS},
        }
    ).data


def _game_json(game: Game) -> Shape:
    return GameOutSerializer(
        {
            "number": game.number,
            "status": game.status,
            "source": game.source,
            "seed": game.seed,
            "tile_set": game.tile_set,
            "lexicon": game.lexicon,
            "board_layout": game.board_layout,
            "formula": game.formula,
            "end_reason": game.end_reason,
        }
    ).data


def _moment(at: datetime | None) -> datetime | None:
    return None if at is None else timezone.localtime(at)


def _row_json(row: StandingRow) -> Shape:
    return {
        "rank": row.rank,
        "overall_rank": row.overall_rank,
        "player": row.player_id,
        "name": row.name,
        "club": row.club,
        "category": row.category,
        "licence": row.licence,
        "series": row.series,
        "age_category": row.age_category,
        "table": row.table,
        "total": row.total,
        "gap": row.gap,
        "top_pct": row.top_pct,
        "tops": row.tops,
        "solos": row.solos,
        "warnings": row.warnings,
        "penalties": row.penalties,
        "withdrawn": row.withdrawn,
        "eliminated_at": row.eliminated_at,
    }


def _standings_json(standings: Standings, only: PlayerFilter) -> Shape:
    return StandingsOutSerializer(
        {
            "rounds": standings.rounds,
            "top_total": standings.top_total,
            "sudden_death": standings.sudden_death,
            "filter": {name: getattr(only, name) for name in PARAMETERS},
            "rows": [_row_json(row) for row in standings.rows],
        }
    ).data


def _only(request: Request) -> PlayerFilter:
    """The standings filter of the query string (``?series=2``), refused with the reason."""
    return player_filter_parse({k: str(v) for k, v in request.query_params.items()})


class _Object(serializers.Serializer[Shape]):
    """A document whose shape is docs/interchange.md's (the room results file)."""


class EventsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        operation_id="events_list",
        summary="The events the caller has a role in (every event, for a superuser)",
        responses={200: EventOutSerializer(many=True), **_ERRORS},
    )
    def get(self, request: Request) -> Response:
        user = _signed_in(request)
        return Response(
            [_event_json(e, event_role(user, e)) for e in event_list_visible(user=user)]
        )

    @extend_schema(
        operation_id="events_create",
        summary="A new event, directed by its creator: name, starts_on, venue and any rule",
        request=EventInSerializer,
        responses={201: EventOutSerializer, **_ERRORS},
    )
    def post(self, request: Request) -> Response:
        user = _signed_in(request)
        data = _form_data(request, EventForm.event_fields)
        defaults = model_to_dict(Event(), fields=POLICY_FIELDS)
        form = EventForm({**defaults, **data})
        if not form.is_valid():
            raise _refused(form)
        event = event_create(
            name=form.cleaned_data["name"],
            starts_on=form.cleaned_data["starts_on"],
            venue=form.cleaned_data.get("venue", ""),
            actor=user,
            **{f: form.cleaned_data[f] for f in POLICY_FIELDS},
        )
        return Response(_event_json(event, DIRECTOR), status=status.HTTP_201_CREATED)


class EventView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_read",
        summary="The event and its rules policy",
        responses={200: EventOutSerializer, **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        user, event = _event(request, slug, STAFF)
        return Response(_event_json(event, event_role(user, event)))

    @extend_schema(
        operation_id="event_policy_update",
        summary="Change some rules of the policy (directors); the others stay",
        request=PolicySerializer,
        responses={200: EventOutSerializer, **_ERRORS},
    )
    def patch(self, request: Request, slug: str) -> Response:
        user, event = _event(request, slug, (DIRECTOR,))
        data = _form_data(request, POLICY_FIELDS)
        form = PolicyForm({**model_to_dict(event, fields=POLICY_FIELDS), **data}, instance=event)
        if not form.is_valid():
            raise _refused(form)
        event = event_policy_update(
            event=event, actor=user, **{f: form.cleaned_data[f] for f in data}
        )
        return Response(_event_json(event, event_role(user, event)))


class GamesView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_games_list",
        summary="The event's games, by number",
        responses={200: GameOutSerializer(many=True), **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = _event(request, slug, STAFF)
        return Response([_game_json(g) for g in event.games.order_by("number")])

    @extend_schema(
        operation_id="event_games_create",
        summary=(
            "The event's next game (directors): a random draw ({'seed': n} replays one), "
            "the whole game drawn now ({'in_advance': true}, what a simultaneous's rooms "
            "play), racks typed from the bag ({'source': 'manual'}: the rack action enters "
            "each), or a pre-drawn game ({'predrawn': the engine's JSON document, as "
            "python -m engine game --json writes it}; an Eliot save game goes to "
            "games/import as a file)"
        ),
        request=GameInSerializer,
        responses={201: GameCreatedSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = _event(request, slug, (DIRECTOR,))
        data = _form_data(request, ("source", "seed", "in_advance", "predrawn", "formula"))
        source = data.pop("source", None)
        formula = data.pop("formula", None)
        if formula is not None:
            formula = formula_checked(formula if isinstance(formula, str) else repr(formula))
        if source is not None and source not in Game.Source.values:
            raise ApplicationError(
                gettext("A game's source is %(sources)s.")
                % {"sources": ", ".join(Game.Source.values)},
                code="unknown_source",
            )
        if source == Game.Source.MANUAL:
            if data:
                raise ApplicationError(
                    gettext("A game of racks typed from the bag takes no seed, no document."),
                    code="invalid",
                )
            game = game_create(event=event, actor=user, source=Game.Source.MANUAL, formula=formula)
            return Response(_game_json(game), status=status.HTTP_201_CREATED)
        if source == Game.Source.PREDRAWN and "predrawn" not in data:
            raise ApplicationError(
                gettext("A pre-drawn game needs its document (engine `game --json`)."),
                code="predrawn_required",
            )
        if "predrawn" in data:
            if set(data) != {"predrawn"} or source not in (None, Game.Source.PREDRAWN):
                raise ApplicationError(
                    gettext("A pre-drawn game takes no seed and is not drawn in advance."),
                    code="invalid",
                )
            game, read = game_import_predrawn(
                event=event,
                file_name="",
                content=json.dumps(data["predrawn"]).encode(),
                actor=user,
                formula=formula,
            )
            return Response(
                GameCreatedSerializer(
                    {**_game_json(game), "detail": predrawn_imported_message(game, read)}
                ).data,
                status=status.HTTP_201_CREATED,
            )
        seed, in_advance = data.get("seed"), data.get("in_advance", False)
        if not isinstance(in_advance, bool):
            raise ApplicationError(gettext("in_advance is true or false."), code="invalid")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32
        ):
            raise ApplicationError(
                gettext("The seed is a whole number from 0 to 4294967295."),
                code="invalid",
            )
        if in_advance:
            game = game_draw_whole(event=event, actor=user, seed=seed, formula=formula)
        else:
            game = game_create(event=event, actor=user, seed=seed, formula=formula)
        return Response(_game_json(game), status=status.HTTP_201_CREATED)


class GameView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_game_read",
        summary="The game now: its round (rack, status, clock), who has handed in a slip",
        responses={200: GameStateSerializer, **_ERRORS},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        _event(request, slug, STAFF)
        game = game_or_404(slug, number)
        state = console_state(game=game, now=timezone.now())
        r = state.round
        return Response(
            GameStateSerializer(
                _game_json(game)
                | {
                    "round": None
                    if r is None
                    else {
                        "number": r.number,
                        "status": r.status,
                        "rack": r.rack,
                        "rack_shown": state.rack_shown,
                        "opened_at": _moment(r.opened_at),
                        "deadline": _moment(r.deadline),
                        "paused": r.is_paused,
                        "remaining_seconds": state.remaining,
                        "tops_ready": r.tops_ready_at is not None,
                        "played": {
                            "ref": r.played_ref,
                            "word": r.played_word,
                            "score": r.played_score,
                        }
                        if r.played_word
                        else None,
                    },
                    "players": state.players,
                    "slips": state.slips,
                    "missing": [{"table": p.table, "name": p.name} for p in state.missing],
                }
            ).data
        )


class GameActionView(StaffGameActionView):
    """``POST /api/v1/events/<slug>/games/<n>/<action>``: a game's actions at their canonical
    address (``/api/v1/staff/events/...``, the same view, stays for the programs that use it,
    deprecated in the schema)."""

    @extend_schema(operation_id="event_game_action", deprecated=False, **ACTION_SCHEMA)
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        return super().post(request, slug, number, action)


class EventStandingsView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_standings",
        summary="The event's standings (published rounds), a category's with the filter",
        parameters=_FILTER,
        responses={200: StandingsOutSerializer, **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = _event(request, slug, STAFF)
        only = _only(request)
        return Response(_standings_json(standings_event(event=event, only=only), only))


class GameStandingsView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_game_standings",
        summary="A game's standings (published rounds), a category's with the filter",
        parameters=_FILTER,
        responses={200: StandingsOutSerializer, **_ERRORS},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        _event(request, slug, STAFF)
        game = game_or_404(slug, number)
        only = _only(request)
        return Response(_standings_json(standings_game(game=game, only=only), only))


def _room_json(room: RoomProgress) -> dict[str, object]:
    def at(pair: tuple[int, int] | None) -> dict[str, int] | None:
        return None if pair is None else {"game": pair[0], "round": pair[1]}

    return RoomOutSerializer(
        {
            "slug": room.event.slug,
            "name": room.event.name,
            "venue": room.event.venue,
            "host": room.is_host,
            "remote": room.event.remote,
            "players": room.players,
            "published": room.published,
            "last_published": at(room.last),
            "in_play": at(room.in_play),
            "late": room.late,
            "link": None if room.link is None else dataclasses.asdict(room.link),
        }
    ).data


class RoomsView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_rooms_list",
        summary="The simultaneous's rooms, the host first, and how far each has played",
        responses={200: RoomOutSerializer(many=True), **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = _event(request, slug, STAFF)
        return Response([_room_json(r) for r in rooms_progress(host_of(event))])

    @extend_schema(
        operation_id="event_rooms_create",
        summary="A new room of the event (directors): name, venue, remote",
        request=RoomInSerializer,
        responses={201: RoomOutSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, host = _event(request, slug, (DIRECTOR,))
        data = _form_data(request, ("name", "venue", "remote"))
        name, venue, remote = data.get("name"), data.get("venue", ""), data.get("remote", False)
        if not isinstance(name, str) or not isinstance(venue, str) or not isinstance(remote, bool):
            raise ApplicationError(
                gettext("name and venue are texts, remote is true or false."),
                code="invalid",
            )
        room = room_create(host=host, name=name, venue=venue, remote=remote, actor=user)
        progress = next(r for r in rooms_progress(host) if r.event.pk == room.pk)
        return Response(_room_json(progress), status=status.HTTP_201_CREATED)


class SimultaneousStandingsView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call

    @extend_schema(
        operation_id="event_simultaneous_standings",
        summary="One ranking over every room of the simultaneous, live",
        parameters=[
            *_FILTER,
            OpenApiParameter("common", OpenApiTypes.BOOL, OpenApiParameter.QUERY, required=False),
        ],
        responses={200: SimultaneousStandingsSerializer, **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = _event(request, slug, STAFF)
        only = _only(request)
        common = common_rounds_asked(request.query_params)
        host = host_of(event)
        standings = standings_simultaneous_live(host=host, only=only, common=common)
        return Response(
            SimultaneousStandingsSerializer(
                {
                    "host": host.slug,
                    "common": common,
                    "rounds": standings.rounds,
                    "rows": [
                        _row_json(row) | {"room": row.room, "room_rounds": row.rounds}
                        for row in standings.rows
                    ],
                }
            ).data
        )


class RoomResultsView(APIView):
    permission_classes = [SignedIn]  # the event's role: ``_event``, once per call
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="event_room_results",
        summary="The event's results file, for a simultaneous's central installation",
        responses={200: _Object, **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        _, event = _event(request, slug, STAFF)
        return Response(room_results(event))

    @extend_schema(
        operation_id="event_room_results_import",
        summary="Import a remote room's results file (directors; multipart, field 'file')",
        request={
            "multipart/form-data": inline_serializer(
                "RoomResultsFile", {"file": serializers.FileField()}
            )
        },
        responses={200: _Object, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, room = _event(request, slug, (DIRECTOR,))
        upload = request.FILES.get("file")
        if upload is None:
            raise ApplicationError(
                gettext("Send the file as the multipart field 'file'."), code="no_file"
            )
        report = room_results_import(room=room, raw=upload.read(), actor=user)
        return Response(
            {
                "changed": report.changed,
                "rounds_added": report.rounds_added,
                "players_added": report.players_added,
                "players_matched": report.players_matched,
                "rulings_added": report.rulings_added,
                "rulings_changed": report.rulings_changed,
                "rulings_unchanged": report.rulings_unchanged,
            }
        )

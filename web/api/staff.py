"""A game's actions over the API: ``POST /api/v1/events/<slug>/games/<n>/<action>`` (the
canonical address, ``web.api.director``) and, the same view, its first address
``POST /api/v1/staff/events/<slug>/games/<n>/<action>`` (kept for the programs that use it,
marked deprecated in the schema). Every console action as an API call (``web.actions``
runs both, with the same role checks). The director's actions on an event's accounts, players
and closing are in ``web.api.staff_events``.

The schema of each action's body is made from ``actions.ACTION_FIELDS``, the table the console's
parsing is checked against (tests/web/api/test_action_schema.py): a field an action reads cannot
be missing from it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from web.actions import (
    ACTION_FIELDS,
    ACTIONS,
    CHOICES,
    INT_BOUNDS,
    INT_DEFAULT_BOUNDS,
    TEXT_DEFAULT_MAX_LENGTH,
    Field,
    game_or_404,
    perform,
)
from web.actions import TEXT_MAX_LENGTH as TEXT
from web.permissions import STAFF, EventRolePermission

# What each field means, for the schema's readers.
HELP = {
    "rack": "The rack typed from the bag (7 letters, ? a blank).",
    "seconds": "How many seconds the deadline moves on.",
    "reason": "Why, in words (kept in the audit log).",
    "ref": "A grid reference: H8 across, 8H down.",
    "word": "The word in full; a blank as a lowercase letter.",
    "ruling": "The ruling's id (rounds/<r>/rulings lists them).",
    "points": "The points the move is worth, as amended.",
    "penalty": "The reference penalty, as amended.",
    "code": "The ruling code, as amended.",
    "warning": "A warning (true), none (false), unchanged (absent or null).",
    "averaged": "A second zero averaged (true), not (false), unchanged (absent or null).",
    "late": "The slip was late: true or false (as the console's box; '1'/'0' also read).",
    "fallacious": "FISF 2023 5.3.3, the arbiter's decision: the word forms a fallacious "
    "junction (true: ruled 0), not (false), unchanged (absent or null).",
    "round": "The round's number in the game.",
    "table": "The player's table number.",
    "score": "The announced score.",
    "check": "slip: a second entry checking the first (true); resolve: the mismatch's id.",
    "existing": "Over a slip already there: a correction (replaces it) or multiple (ruled 0).",
    "kept": "Which entry of a double-entry mismatch stands.",
    "discipline": "The disciplinary warning's id (rounds/<r>/rulings lists them).",
}


def _schema_field(name: str, spec: Field) -> serializers.Field[Any, Any, Any, Any]:
    """The schema of one field of an action's body, as the console's helpers read it."""
    common: dict[str, Any] = {"required": spec.required, "help_text": HELP[name]}
    if spec.kind == "int":
        bounds = INT_BOUNDS.get(name, INT_DEFAULT_BOUNDS)
        return serializers.IntegerField(
            min_value=bounds.minimum, max_value=bounds.maximum, **common
        )
    if spec.kind == "flag":
        return serializers.BooleanField(**common)
    if spec.kind == "choice":
        return serializers.BooleanField(allow_null=True, **common)
    if spec.kind == "one_of":
        return serializers.ChoiceField(choices=CHOICES[name], **common)
    return serializers.CharField(
        max_length=TEXT.get(name, TEXT_DEFAULT_MAX_LENGTH), allow_blank=True, **common
    )


def action_serializer(action: str) -> type[serializers.Serializer[Any]]:
    """The body of ``action``, a serializer made from ``ACTION_FIELDS``."""
    fields = {name: _schema_field(name, spec) for name, spec in ACTION_FIELDS[action].items()}
    name = "".join(part.capitalize() for part in action.split("_"))
    return type(
        f"Action{name}Serializer",
        (serializers.Serializer,),
        {**fields, "__doc__": f"The body of the game action '{action}'."},
    )


ACTION_SERIALIZERS = {action: action_serializer(action) for action in sorted(ACTIONS)}

# The schema of a game's action, at either address (here, and web.api.director's).
ACTION_SCHEMA: dict[str, Any] = dict(
    summary="A director's or arbiter's action on a game: draw, rack, open, extend, pause, "
    "resume, close, publish, annul, choose_top, amend, amend_slip, slip, resolve, discipline "
    "(a disciplinary warning: round, table, reason), discipline_withdraw (discipline, reason)",
    description="The body is the action's own (one of the StaffAction shapes, each named after "
    "its action). The answer says what happened (`detail`) and gives the ids of what the action "
    "made or changed: `ruling` (amend, amend_slip), `slip` (slip, amend_slip), `discipline` "
    "(discipline).",
    parameters=[
        OpenApiParameter("action", str, OpenApiParameter.PATH, enum=sorted(ACTIONS)),
    ],
    request=PolymorphicProxySerializer(
        component_name="StaffAction",
        serializers=list(ACTION_SERIALIZERS.values()),
        resource_type_field_name=None,
    ),
    responses={
        200: inline_serializer(
            name="StaffActionDone",
            fields={
                "detail": serializers.CharField(),
                "ruling": serializers.IntegerField(required=False),
                "slip": serializers.IntegerField(required=False),
                "discipline": serializers.IntegerField(required=False),
            },
        )
    },
)


class StaffGameActionView(APIView):
    """``POST /api/v1/staff/events/<slug>/games/<n>/<action>``: every console action as a staff
    API call (session or personal token); answers ``{"detail": what happened, ids...}``."""

    permission_classes = [EventRolePermission]
    event_roles = STAFF  # and each action its own (``actions.ACTIONS``)

    @extend_schema(operation_id="staff_game_action", deprecated=True, **ACTION_SCHEMA)
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        user = request.user
        if not user.is_authenticated:  # IsAuthenticated has turned anonymous callers away
            raise exceptions.NotAuthenticated(code="not_authenticated")
        game = game_or_404(slug, number)
        done = perform(game, user, action, request.data)
        return Response({"detail": done.message, **done.data}, status=status.HTTP_200_OK)

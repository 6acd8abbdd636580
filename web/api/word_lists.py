"""The event's word list over the director API, as the set-up page has it:
``GET /api/v1/events/<slug>/word-list`` (what the event plays, and how far its compile has
gone), ``POST`` the same address with a multipart ``file`` (and ``name``): a list uploaded for
the event's tiles and played (compiled by the ``wordlists`` worker),
``POST .../word-list/french``: the open French list, with the French tiles. Directors (the
set-up's role); each change is the set-up page's own function (``web.console.setup``), so it is
checked, refused and audited alike."""

from __future__ import annotations

from dataclasses import asdict

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arbiter.state import lexicon_info
from tournament.models import Event
from web.api.serializers import StaffErrorSerializer
from web.console.setup import french_list_play, word_list_play
from web.permissions import DIRECTOR, EventRolePermission

_ERRORS = {
    400: OpenApiResponse(StaffErrorSerializer, description="Refused: the detail says why."),
    403: OpenApiResponse(StaffErrorSerializer, description="Not signed in, or not a director."),
    404: OpenApiResponse(StaffErrorSerializer, description="No such event (or no role in it)."),
}


class WordListStateSerializer(serializers.Serializer[dict[str, object]]):
    name = serializers.CharField()
    words = serializers.IntegerField(allow_null=True, help_text="null while it compiles.")
    status = serializers.CharField(help_text="pending, compiling, ready or failed.")
    progress = serializers.IntegerField(help_text="The compile's progress, 0-100.")
    message = serializers.CharField(allow_blank=True)
    builtin = serializers.BooleanField(help_text="A list offered out of the box (not the ODS).")


class WordListDoneSerializer(WordListStateSerializer):
    detail = serializers.CharField(help_text="What happened, for people.")


def _answer(event: Event, detail: str | None = None) -> Response:
    event.refresh_from_db()
    state: dict[str, object] = asdict(lexicon_info(event.lexicon))
    if detail is not None:
        state["detail"] = detail
    return Response(state)


class _DirectorView(APIView):
    permission_classes = [EventRolePermission]
    event_roles = (DIRECTOR,)

    def director(self, request: Request, slug: str) -> tuple[User, Event]:
        user = request.user
        if not isinstance(user, User) or not user.is_authenticated:
            raise exceptions.NotAuthenticated(code="not_authenticated")
        return user, get_object_or_404(Event, slug=slug)


class WordListView(_DirectorView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        operation_id="event_word_list_read",
        summary="The word list the event plays, and how far its compile has gone",
        responses={200: WordListStateSerializer, **_ERRORS},
    )
    def get(self, request: Request, slug: str) -> Response:
        return _answer(self.director(request, slug)[1])

    @extend_schema(
        operation_id="event_word_list_upload",
        summary="Upload a word list for the event's tiles and play it (multipart: file, name); "
        "a worker compiles it, the event's rounds can start once it is ready",
        request={
            "multipart/form-data": inline_serializer(
                "WordListFile",
                {
                    "file": serializers.FileField(),
                    "name": serializers.CharField(required=False, max_length=100),
                },
            )
        },
        responses={200: WordListDoneSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        said = word_list_play(user=user, event=event, data=request.data, files=request.FILES)
        return _answer(event, said)


class FrenchListView(_DirectorView):
    @extend_schema(
        operation_id="event_word_list_french",
        summary="Play the open French list offered out of the box, with the French tiles",
        request=None,
        responses={200: WordListDoneSerializer, **_ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        user, event = self.director(request, slug)
        said = french_list_play(user=user, event=event)
        return _answer(event, said)

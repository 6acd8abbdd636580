"""The player API's shapes: input parsing and the documented output (no queries here)."""

from __future__ import annotations

from typing import Any, TypeAlias

from django.core.validators import RegexValidator
from rest_framework import serializers

from web.inputs import INT32_MAX

# What every serializer here reads or writes: the plain dicts the selectors build.
Shape: TypeAlias = dict[str, Any]


class ErrorSerializer(serializers.Serializer[Shape]):
    detail = serializers.CharField(help_text="What went wrong, for people.")
    code = serializers.CharField(help_text="What went wrong, for programs (e.g. deadline_passed).")


class SlipInSerializer(serializers.Serializer[Shape]):
    round = serializers.IntegerField(
        min_value=1, max_value=INT32_MAX, help_text="The round number the slip is for."
    )
    ref = serializers.CharField(
        max_length=8,
        allow_blank=True,
        validators=[
            RegexValidator(
                r"^\s*[A-Za-z0-9]*\s*$",
                "A grid reference is a row letter A-O and a column number 1-15 written with the "
                "digits 0-9 (H8 across, 8H down).",
            )
        ],
        help_text="H8 across, 8H down.",
    )
    word = serializers.CharField(max_length=15, help_text="In full; a blank as a lowercase letter.")
    score = serializers.IntegerField(
        allow_null=True,
        required=False,
        default=None,
        max_value=INT32_MAX,
        help_text="The announced score.",
    )


class ReceiptSerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    word = serializers.CharField()
    ref = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    received_at = serializers.DateTimeField(help_text="On the server clock.")
    replaced_previous = serializers.BooleanField(
        help_text="An earlier slip of this round is no longer current."
    )


class SlipSerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    word = serializers.CharField()
    ref = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    received_at = serializers.DateTimeField()


class StandingLineSerializer(serializers.Serializer[Shape]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField()
    gap = serializers.IntegerField()
    top_pct = serializers.FloatField()
    players = serializers.IntegerField()
    rounds = serializers.IntegerField()
    me = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer[Shape]):
    rounds = serializers.IntegerField(help_text="Published rounds counted.")
    top_total = serializers.IntegerField()
    players = serializers.IntegerField()
    leaders = StandingLineSerializer(many=True)
    me = StandingLineSerializer(allow_null=True)


class _EventSerializer(serializers.Serializer[Shape]):
    slug = serializers.CharField()
    name = serializers.CharField()
    warning_seconds = serializers.IntegerField(
        help_text="The countdown takes its warning colour this many seconds before the end."
    )
    time_zone = serializers.CharField(
        help_text="The event's time zone (IANA, e.g. Europe/Paris): show times in it."
    )


class _PlayerSerializer(serializers.Serializer[Shape]):
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)


class _GameSerializer(serializers.Serializer[Shape]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    end_reason = serializers.CharField()


class _RoundSerializer(serializers.Serializer[Shape]):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="drawn, open, closed, scored or published.")
    rack = serializers.CharField(
        allow_null=True, help_text="'?' is a blank; hidden until the round opens."
    )
    opened_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="Server clock; null unless open."
    )
    paused = serializers.BooleanField()
    remaining_seconds = serializers.FloatField(allow_null=True)
    accepts_slips = serializers.BooleanField()


class _MoveSerializer(serializers.Serializer[Shape]):
    ref = serializers.CharField()
    word = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)


class _RulingSerializer(serializers.Serializer[Shape]):
    code = serializers.CharField()
    # DRF's metaclass pops declared fields off the class, so this does not shadow Field.label;
    # the stubs cannot express that.
    label = serializers.CharField()  # type: ignore[assignment]
    reason = serializers.CharField()
    points = serializers.IntegerField()
    penalty = serializers.IntegerField()
    solo = serializers.IntegerField()
    total = serializers.IntegerField()
    move_score = serializers.IntegerField(allow_null=True)
    found_top = serializers.BooleanField()
    slip = _MoveSerializer(allow_null=True)


class _ResultSerializer(serializers.Serializer[Shape]):
    round = serializers.IntegerField()
    top = _MoveSerializer(allow_null=True)
    ruling = _RulingSerializer(allow_null=True)


class _SlipRulingSerializer(serializers.Serializer[Shape]):
    code = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # as _RulingSerializer.label
    reason = serializers.CharField()
    points = serializers.IntegerField(help_text="Points for the move.")
    total = serializers.IntegerField(
        help_text="What the round adds to the standings: points, solo, less penalties."
    )


class SlipHistorySerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    round_status = serializers.CharField(
        help_text="drawn, open, closed, scored, published or annulled."
    )
    word = serializers.CharField()
    ref = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    received_at = serializers.DateTimeField(
        help_text="When the server received it (or the arbiter typed it), on the server clock."
    )
    source = serializers.CharField(help_text="phone, api or arbiter.")  # type: ignore[assignment]
    current = serializers.BooleanField(
        help_text="The slip that counts for its round; a later slip replaced the others."
    )
    late = serializers.BooleanField()
    ruling = _SlipRulingSerializer(
        allow_null=True, help_text="Its ruling, once the round is published."
    )


class StateSerializer(serializers.Serializer[Shape]):
    version = serializers.CharField(
        help_text="Changes whenever anything shown changes (also the ETag)."
    )
    server_time = serializers.DateTimeField(
        help_text="The server clock: count down from deadline - server_time."
    )
    event = _EventSerializer()
    player = _PlayerSerializer()
    game = _GameSerializer(allow_null=True)
    round = _RoundSerializer(allow_null=True)
    board = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="15 strings: '.' empty, A-Z tile, a-z blank.",
    )
    premiums = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="15 strings: T/D word, t/d letter premiums.",
    )
    slip = SlipSerializer(allow_null=True, help_text="This player's current slip for the round.")
    result = _ResultSerializer(
        allow_null=True, help_text="The last published round: top and this player's ruling."
    )
    standings = StandingLineSerializer(allow_null=True, help_text="This player's line.")
    slips = SlipHistorySerializer(
        many=True, help_text="This player's slips in the game, newest first (play_slips)."
    )

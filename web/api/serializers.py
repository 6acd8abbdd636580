"""The API's shapes: input parsing and the documented output (no queries here): the player
API's, then the director's account actions'."""

from __future__ import annotations

from typing import Any, TypeAlias

from rest_framework import serializers

from tournament.models import AuditEntry, Discipline, Event, Ruling, Submission
from tournament.models.choices import Formula
from tournament.models.event import EventRoleName
from tournament.services.events import POLICY_FIELDS
from tournament.services.invitations import DAYS_VALID, MAX_DAYS_VALID
from tournament.vocabulary import TABLE_MAX, TABLE_MIN
from web.inputs import INT32_MAX
from web.outage import ATTEMPT

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
        required=False,
        default="",
        help_text="H8 across, 8H down; empty when the slip gives none (an unreadable one is "
        "ruled as none, as on paper).",
    )
    word = serializers.CharField(max_length=15, help_text="In full; a blank as a lowercase letter.")
    score = serializers.IntegerField(
        allow_null=True,
        required=False,
        default=None,
        max_value=INT32_MAX,
        help_text="The announced score.",
    )
    attempt = serializers.RegexField(
        ATTEMPT,
        max_length=64,
        required=False,
        default="",
        help_text="This slip's identity, made by the client (8-64 letters, digits, - or _) and "
        "sent again with every retry of the same slip: a retry is answered with the original "
        "receipt.",
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
    top_pct_text = serializers.CharField(
        help_text="The percentage as the event's language writes it (17,20 % or 17.20%)."
    )
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
    rulebook = serializers.CharField(
        help_text="The regulation the event is ruled by: fisf-2023 (the FISF text in force "
        "since 1 January 2023) or before-2023 (docs/rules.md)."
    )


class _PlayerSerializer(serializers.Serializer[Shape]):
    name = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)


class _GameSerializer(serializers.Serializer[Shape]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    end_reason = serializers.CharField()
    formula = serializers.CharField(help_text="standard or an original formula (joker, 7et8...).")
    formula_label = serializers.CharField(
        allow_blank=True, help_text="The formula as people read it; empty for standard."
    )


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


_PLACED = (
    "The slip's move is on the board (valid, or valid with a penalty): the phone shows it as good."
)


class _RulingSerializer(serializers.Serializer[Shape]):
    code = serializers.CharField()
    # DRF's metaclass pops declared fields off the class, so this does not shadow Field.label;
    # the stubs cannot express that.
    label = serializers.CharField()  # type: ignore[assignment]
    placed = serializers.BooleanField(help_text=_PLACED)
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
    placed = serializers.BooleanField(help_text=_PLACED)
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


class _SuddenDeathSerializer(serializers.Serializer[Shape]):
    eliminated_at = serializers.IntegerField(
        allow_null=True, help_text="The round this player was eliminated at; null: still in."
    )
    still_in = serializers.IntegerField(help_text="How many players are still in.")


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
    values = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Each tile's points in the game's tile set (the blank, '?', is 0).",
    )
    slip = SlipSerializer(allow_null=True, help_text="This player's current slip for the round.")
    result = _ResultSerializer(
        allow_null=True, help_text="The last published round: top and this player's ruling."
    )
    standings = StandingLineSerializer(allow_null=True, help_text="This player's line.")
    slips = SlipHistorySerializer(
        many=True, help_text="This player's slips in the game, newest first (play_slips)."
    )
    sudden_death = _SuddenDeathSerializer(
        required=False,
        help_text="Only in a mort subite game (FISF 2023 3.8.3): whether this player is out.",
    )


# --- the director's account actions (``web.api.staff_events``) ------------------------------


class InvitationInSerializer(serializers.Serializer[Shape]):
    name = serializers.CharField(max_length=120, help_text="Who the link is for.")
    role = serializers.ChoiceField(
        choices=EventRoleName.choices, default=EventRoleName.ARBITER, help_text="The role given."
    )
    days = serializers.IntegerField(
        min_value=1,
        max_value=MAX_DAYS_VALID,
        default=DAYS_VALID,
        help_text="How long the link works, in days.",
    )


class InvitationSerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.CharField(help_text="director or arbiter.")
    state = serializers.CharField(help_text="pending, accepted, revoked or expired.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    created_by = serializers.CharField(allow_null=True, help_text="The inviting account.")
    accepted_by = serializers.CharField(allow_null=True, help_text="The account that took it.")
    link = serializers.URLField(
        allow_null=True, help_text="The one-time link to hand over; null unless pending."
    )


class StaffRoleSerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField(help_text="The role's id (to remove it).")
    username = serializers.CharField()
    name = serializers.CharField()
    role = serializers.CharField(help_text="director or arbiter.")


class WithdrawInSerializer(serializers.Serializer[Shape]):
    reason = serializers.CharField(
        max_length=500, allow_blank=True, default="", help_text="Why, for the audit log."
    )


class EventPlayerSerializer(serializers.Serializer[Shape]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    category = serializers.CharField()
    licence = serializers.CharField()
    series = serializers.IntegerField(allow_null=True, help_text="1 (strongest) to 7.")
    age_category = serializers.CharField(help_text="The FISF age category, or empty.")


class PlayerInSerializer(serializers.Serializer[Shape]):
    """A registration, as the console's player form takes it."""

    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, allow_blank=True, default="")
    category = serializers.CharField(max_length=40, allow_blank=True, default="")
    licence = serializers.CharField(max_length=40, allow_blank=True, default="")
    table = serializers.IntegerField(
        min_value=TABLE_MIN,
        max_value=TABLE_MAX,
        allow_null=True,
        default=None,
        help_text="1 to 9,999 (docs/rules.md).",
    )
    series = serializers.IntegerField(min_value=1, max_value=7, allow_null=True, default=None)
    age_category = serializers.CharField(
        max_length=16,
        allow_blank=True,
        default="",
        help_text="Poussin, Benjamin, Cadet, Junior, Espoir, Senior, Vermeil, Diamant, Émeraude.",
    )


class EventClosingSerializer(serializers.Serializer[Shape]):
    detail = serializers.CharField()
    closed = serializers.BooleanField(help_text="No new round, slip or amendment while true.")


class StaffErrorSerializer(serializers.Serializer[Shape]):
    detail = serializers.CharField(help_text="What went wrong, for people.")
    code = serializers.CharField(
        help_text="What went wrong, for programs (e.g. last_director, no_round_in_play)."
    )
    fields = serializers.DictField(  # type: ignore[assignment]  # as _RulingSerializer.label
        required=False, help_text="A malformed body: the message of each field."
    )


class RoleInSerializer(serializers.Serializer[Shape]):
    username = serializers.CharField(max_length=150, help_text="An existing account's username.")
    role = serializers.ChoiceField(choices=["director", "arbiter"])


class StaffDoneSerializer(serializers.Serializer[Shape]):
    detail = serializers.CharField(help_text="What happened, for people.")


# The director API's round: every field of each ruling, its slip and the disciplinary warnings,
# as the models have them (ModelSerializer: a field added to a model is in the answer and the
# schema at once). Read from a selector's rows (``select_related``): no query here.


class SlipRecordSerializer(serializers.ModelSerializer[Any]):
    """A slip as stored (the ruled one): every field of ``Submission``."""

    class Meta:
        model = Submission
        fields = "__all__"


class RulingRecordSerializer(serializers.ModelSerializer[Any]):
    """A ruling as stored, with what the standings add (``total``) and the player's table and
    name: every field of ``Ruling``; its ``id`` is what the ``amend`` action takes."""

    total = serializers.IntegerField(read_only=True, help_text="What the standings add.")
    name = serializers.CharField(source="player.name", read_only=True)
    table = serializers.IntegerField(source="player.table", read_only=True, allow_null=True)
    slip = SlipRecordSerializer(source="submission", read_only=True, allow_null=True)

    class Meta:
        model = Ruling
        fields = "__all__"


class DisciplineRecordSerializer(serializers.ModelSerializer[Any]):
    """A disciplinary warning as stored; its ``id`` is what ``discipline_withdraw`` takes."""

    name = serializers.CharField(source="player.name", read_only=True)
    table = serializers.IntegerField(source="player.table", read_only=True, allow_null=True)

    class Meta:
        model = Discipline
        fields = "__all__"


class MismatchSerializer(serializers.Serializer[Shape]):
    check = serializers.IntegerField(help_text="Its id: what the resolve action takes.")
    player = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    first = serializers.DictField(allow_null=True, help_text="word, ref, score")
    second = serializers.DictField(help_text="word, ref, score")
    checked_by = serializers.CharField()


class RoundRulingsSerializer(serializers.Serializer[Shape]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    rack = serializers.CharField()
    played = serializers.DictField(allow_null=True, help_text="ref, word, score of the top played")
    rulings = RulingRecordSerializer(many=True, help_text="One per player, by table.")
    disciplines = DisciplineRecordSerializer(many=True)
    mismatches = MismatchSerializer(many=True, help_text="Double entries that disagree.")


class RankedMoveSerializer(serializers.Serializer[Shape]):
    rank = serializers.IntegerField(help_text="1 = a top; equal scores share a rank.")
    ref = serializers.CharField()
    word = serializers.CharField()
    score = serializers.IntegerField()
    used = serializers.CharField(help_text="The rack's tiles it uses, ? a blank.")


class RoundMovesSerializer(serializers.Serializer[Shape]):
    round = serializers.IntegerField()
    rack = serializers.CharField()
    total = serializers.IntegerField(help_text="How many legal moves in all.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    moves = RankedMoveSerializer(many=True)


class AuditEntrySerializer(serializers.ModelSerializer[Any]):
    """An audit entry as stored (every field), with its round's number."""

    round_number = serializers.IntegerField(
        source="round.number", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = AuditEntry
        fields = "__all__"


class TableSlipsSerializer(serializers.Serializer[Shape]):
    table = serializers.IntegerField()
    name = serializers.CharField()
    round = serializers.IntegerField()
    slips = SlipRecordSerializer(many=True, help_text="Newest first; `is_current` counts.")


# The director API's answers (web.api.director): each is rendered through its serializer, so the
# schema is the answer (a key the serializer does not declare is not sent).


class PolicySerializer(serializers.ModelSerializer[Any]):
    """Every rule of the event's policy (``tournament.services.events.POLICY_FIELDS``)."""

    class Meta:
        model = Event
        fields = list(POLICY_FIELDS)


class EventOutSerializer(serializers.Serializer[Shape]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    starts_on = serializers.DateField()
    venue = serializers.CharField(allow_blank=True)
    status = serializers.CharField()
    closed = serializers.BooleanField()
    role = serializers.CharField(allow_null=True, help_text="director or arbiter.")
    policy = PolicySerializer()


class GameOutSerializer(serializers.Serializer[Shape]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    source = serializers.CharField(help_text="random, manual (racks typed) or predrawn.")  # type: ignore[assignment]  # a declared field, not Field.source
    seed = serializers.IntegerField(allow_null=True)
    tile_set = serializers.CharField()
    lexicon = serializers.CharField()
    board_layout = serializers.CharField()
    formula = serializers.CharField(
        help_text="standard, or an original formula: joker, 7sur8, 7et8, 789, detonante, "
        "joker+7sur8, joker+7et8, joker+789, mortsubite (docs/formulas.md)."
    )
    end_reason = serializers.CharField(allow_blank=True)


class GameCreatedSerializer(GameOutSerializer):
    detail = serializers.CharField(required=False, help_text="A pre-drawn game: what was read.")


class PlayedSerializer(serializers.Serializer[Shape]):
    ref = serializers.CharField()
    word = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)


class RoundStateSerializer(serializers.Serializer[Shape]):
    number = serializers.IntegerField()
    status = serializers.CharField()
    rack = serializers.CharField(allow_blank=True)
    rack_shown = serializers.CharField(allow_blank=True, help_text="The leftover marked.")
    opened_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField()
    remaining_seconds = serializers.FloatField(allow_null=True)
    tops_ready = serializers.BooleanField()
    played = PlayedSerializer(allow_null=True)


class TableNameSerializer(serializers.Serializer[Shape]):
    table = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()


class GameStateSerializer(GameOutSerializer):
    round = RoundStateSerializer(allow_null=True)
    players = serializers.IntegerField(help_text="Players not withdrawn.")
    slips = serializers.IntegerField(help_text="How many have handed in a slip.")
    missing = TableNameSerializer(many=True, help_text="Who has not, by table.")


class StandingRowSerializer(serializers.Serializer[Shape]):
    rank = serializers.IntegerField()
    overall_rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    category = serializers.CharField(allow_blank=True)
    licence = serializers.CharField(allow_blank=True)
    series = serializers.IntegerField(allow_null=True)
    age_category = serializers.CharField(allow_blank=True)
    table = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField()
    gap = serializers.IntegerField()
    top_pct = serializers.FloatField()
    tops = serializers.IntegerField()
    solos = serializers.IntegerField()
    warnings = serializers.IntegerField()
    penalties = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    eliminated_at = serializers.IntegerField(
        allow_null=True,
        help_text="Mort subite (FISF 2023 3.8.3): the round the player was eliminated at; "
        "null while still in (and in any other formula).",
    )


class StandingsFilterSerializer(serializers.Serializer[Shape]):
    category = serializers.CharField(allow_null=True)
    club = serializers.CharField(allow_null=True)
    series = serializers.IntegerField(allow_null=True)
    age_category = serializers.CharField(allow_null=True)


class StandingsOutSerializer(serializers.Serializer[Shape]):
    rounds = serializers.IntegerField()
    top_total = serializers.IntegerField()
    sudden_death = serializers.BooleanField(
        help_text="A mort subite game's: still in first, then those out, latest first."
    )
    filter = StandingsFilterSerializer()
    rows = StandingRowSerializer(many=True)


class RoomRowSerializer(StandingRowSerializer):
    room = serializers.CharField()
    room_rounds = serializers.IntegerField(help_text="The rounds of the room that count.")


class SimultaneousStandingsSerializer(serializers.Serializer[Shape]):
    host = serializers.SlugField()
    common = serializers.BooleanField()
    rounds = serializers.IntegerField()
    rows = RoomRowSerializer(many=True)


class GameRoundSerializer(serializers.Serializer[Shape]):
    game = serializers.IntegerField()
    round = serializers.IntegerField()


class RoomLinkSerializer(serializers.Serializer[Shape]):
    key_hint = serializers.CharField(allow_blank=True)
    last_seen_at = serializers.DateTimeField(allow_null=True)
    last_results_at = serializers.DateTimeField(allow_null=True)
    offline = serializers.BooleanField()
    received = serializers.IntegerField()


class RoomOutSerializer(serializers.Serializer[Shape]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    venue = serializers.CharField(allow_blank=True)
    host = serializers.BooleanField()
    remote = serializers.BooleanField()
    players = serializers.IntegerField()
    published = serializers.IntegerField()
    last_published = GameRoundSerializer(allow_null=True)
    in_play = GameRoundSerializer(allow_null=True)
    late = serializers.BooleanField()
    link = RoomLinkSerializer(allow_null=True)


class EventInSerializer(PolicySerializer):
    """A new event: its name, date and venue, and any rule (the others keep their defaults)."""

    name = serializers.CharField(max_length=200)
    starts_on = serializers.DateField()
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)

    class Meta(PolicySerializer.Meta):
        fields = ["name", "starts_on", "venue", *POLICY_FIELDS]


class GameInSerializer(serializers.Serializer[Shape]):
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a declared field, not Field.source
        choices=["random", "manual", "predrawn"],
        required=False,
        help_text="random (default), manual (racks typed from the bag), predrawn (with predrawn).",
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**32 - 1)
    in_advance = serializers.BooleanField(required=False, help_text="The whole game drawn now.")
    predrawn = serializers.JSONField(
        required=False, help_text="The engine's document: python -m engine game --json."
    )
    formula = serializers.ChoiceField(
        choices=Formula.values,
        required=False,
        help_text="The game's formula (default standard; a pre-drawn game's is its document's).",
    )


class RoomInSerializer(serializers.Serializer[Shape]):
    name = serializers.CharField(max_length=200)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    remote = serializers.BooleanField(required=False)

"""The director's account actions over the staff API (web.api.staff_events): invitations, the
staff, withdrawals and closing, for every persona, each bad input a 4xx saying what is wrong,
each change audited by the service the console calls."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import AuditEntry, Event, EventRole, Invitation, Player
from tournament.services.invitations import invitation_create, invitation_token

pytestmark = pytest.mark.django_db


class Room:
    """The event of ``event`` with its director, an arbiter, an outsider, a superuser, two
    players (Ann's phone holds her token), a pending invitation and a game with an open round."""

    def __init__(self, event: Event, director) -> None:
        self.event = event
        self.director = director
        self.arbiter = UserFactory(username="arnold")
        self.arbiter_role = EventRoleFactory(event=event, user=self.arbiter, role="arbiter")
        self.ann = PlayerFactory(event=event, name="Ann", table=1)
        self.bob = PlayerFactory(event=event, name="Bob", table=2)
        self.invitation = invitation_create(event=event, name="Iris", role="arbiter", actor=None)
        self.game = GameFactory(event=event, number=1, seed=7)
        self.round = open_round(self.game)
        self.users = {
            "director": director,
            "arbiter": self.arbiter,
            "outsider": UserFactory(username="otto"),
            "superuser": UserFactory(username="boss", is_superuser=True, is_staff=True),
        }

    def client(self, persona: str) -> APIClient:
        client = APIClient()
        if persona in self.users:
            client.force_login(self.users[persona])
        elif persona == "player":
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.ann.token}")
        return client

    def url(self, name: str, **ids: int) -> str:
        return reverse(f"staff_api:{name}", kwargs={"slug": self.event.slug, **ids})

    def post(self, persona: str, name: str, body: object = None, **ids: int):
        return self.client(persona).post(self.url(name, **ids), body or {}, format="json")

    def get(self, persona: str, name: str):
        return self.client(persona).get(self.url(name))


@pytest.fixture
def room(event, director) -> Room:
    return Room(event, director)


def actions() -> list[str]:
    return list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))


# (method, URL name, the ids it takes, a body): every endpoint of web.api.staff_events.
ENDPOINTS = [
    ("GET", "invitations", {}, None),
    ("POST", "invitations", {}, {"name": "Vera", "role": "arbiter", "days": 3}),
    ("POST", "invitation_revoke", {"invitation_id": "invitation"}, None),
    ("GET", "staff", {}, None),
    ("POST", "role_remove", {"role_id": "arbiter_role"}, None),
    ("GET", "players", {}, None),
    ("POST", "player_withdraw", {"player_id": "bob"}, {"reason": "unwell"}),
    ("POST", "player_reinstate", {"player_id": "bob"}, None),
    ("POST", "event_close", {}, None),
    ("POST", "event_reopen", {}, None),
]
# Who gets what: a director or a superuser gets past the role check (the view answers, a
# refusal of the service included); an arbiter is refused (403); an account with no role in the
# event does not see it (404); no session (anonymous, a player's token): 403, nothing done.
DENIED = {"arbiter": 403, "outsider": 404, "anonymous": 403, "player": 403}


def _ids(room: Room, ids: dict[str, str]) -> dict[str, int]:
    return {key: getattr(room, attr).pk for key, attr in ids.items()}


@pytest.mark.parametrize("persona", ["director", "superuser", *DENIED])
@pytest.mark.parametrize(("method", "name", "ids", "body"), ENDPOINTS)
def test_each_endpoint_is_for_the_events_directors_only(room, persona, method, name, ids, body):
    client = room.client(persona)
    url = room.url(name, **_ids(room, ids))
    before = actions()
    response = client.get(url) if method == "GET" else client.post(url, body, format="json")
    if persona in DENIED:
        assert response.status_code == DENIED[persona], (persona, name, response.content)
        assert set(response.json()) == {"detail", "code"}  # docs/design.md: every refusal
        assert actions() == before, "a refused caller changed nothing"
    else:
        assert response.status_code in (200, 201, 400), (persona, name, response.content)
        assert response.status_code != 400 or response.json()["code"] in {
            "round_in_play",  # the room's round is open
            "not_withdrawn",  # Bob has not withdrawn
            "event_not_closed",
        }


def test_a_director_invites_and_gets_the_one_time_link(room) -> None:
    response = room.post("director", "invitations", {"name": " Vera ", "role": "director"})
    assert response.status_code == 201
    body = response.json()
    invitation = Invitation.objects.get(pk=body["id"])
    assert (body["name"], body["role"], body["state"]) == ("Vera", "director", "pending")
    assert body["created_by"] == "dora" and body["accepted_by"] is None
    assert body["link"] == f"http://testserver/invitations/{invitation_token(invitation)}/"
    assert (invitation.expires_at - invitation.created_at).days == 7  # the default
    assert room.client("anonymous").get(body["link"]).status_code == 200  # the link works
    entry = AuditEntry.objects.get(action="tournament.invitation.created", data__name="Vera")
    assert entry.actor == room.director and entry.data["role"] == "director"


def test_the_list_gives_a_pending_invitation_its_link_and_a_revoked_one_none(room) -> None:
    revoked = room.post("director", "invitation_revoke", invitation_id=room.invitation.pk)
    assert revoked.status_code == 200 and revoked.json()["state"] == "revoked"
    assert revoked.json()["link"] is None
    room.post("director", "invitations", {"name": "Vera"})
    listed = room.get("director", "invitations").json()
    assert [(i["name"], i["state"], i["link"] is not None) for i in listed] == [
        ("Vera", "pending", True),
        ("Iris", "revoked", False),
    ]
    assert actions()[-2:] == ["tournament.invitation.revoked", "tournament.invitation.created"]


def test_revoking_twice_or_an_unknown_invitation_says_why(room) -> None:
    room.post("director", "invitation_revoke", invitation_id=room.invitation.pk)
    again = room.post("director", "invitation_revoke", invitation_id=room.invitation.pk)
    assert again.status_code == 400
    assert again.json() == {
        "detail": "The invitation for Iris is already revoked: nothing to revoke.",
        "code": "invitation_revoked",
    }
    elsewhere = invitation_create(event=EventFactory(), name="Other", role="arbiter", actor=None)
    for pk in (elsewhere.pk, 10**6, 2**63):
        unknown = room.post("director", "invitation_revoke", invitation_id=pk)
        assert unknown.status_code == 404
        assert unknown.json() == {
            "detail": f"There is no invitation {pk} in Spring open.",
            "code": "no_such_invitation",
        }
    assert Invitation.objects.get(pk=elsewhere.pk).revoked_at is None


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        ({}, "name", "This field is required."),
        ({"name": ""}, "name", "This field may not be blank."),
        ({"name": ["Vera"]}, "name", "Not a valid string."),
        ({"name": "V" * 121}, "name", "Ensure this field has no more than 120 characters."),
        ({"name": "Vera", "role": "king"}, "role", '"king" is not a valid choice.'),
        ({"name": "Vera", "role": 1}, "role", '"1" is not a valid choice.'),
        ({"name": "Vera", "days": "many"}, "days", "A valid integer is required."),
        ({"name": "Vera", "days": True}, "days", "A valid integer is required."),
        ({"name": "Vera", "days": 0}, "days", "Ensure this value is greater than or equal to 1."),
        ({"name": "Vera", "days": 61}, "days", "Ensure this value is less than or equal to 60."),
    ],
)
def test_a_bad_invitation_is_a_400_naming_the_field(room, body, field, says) -> None:
    before = Invitation.objects.count()
    response = room.post("director", "invitations", body)
    assert response.status_code == 400
    assert response.json()["detail"] == f"{field}: {says}"
    assert response.json()["fields"] == {field: [says]}
    assert Invitation.objects.count() == before


def test_a_body_that_is_not_a_json_object_is_a_400(room) -> None:
    client = room.client("director")
    for raw, says in (("[1]", "not list"), ('{"name": ', "JSON parse error"), ('"x"', "not str")):
        response = client.post(room.url("invitations"), raw, content_type="application/json")
        assert response.status_code == 400 and says in response.json()["detail"], raw
    assert Invitation.objects.count() == 1


def test_a_director_lists_the_staff_and_removes_an_arbiter(room) -> None:
    listed = room.get("director", "staff").json()
    assert [(r["username"], r["role"]) for r in listed] == [
        ("arnold", "arbiter"),
        ("dora", "director"),
    ]
    assert listed[0]["id"] == room.arbiter_role.pk
    removed = room.post("director", "role_remove", role_id=room.arbiter_role.pk)
    assert removed.status_code == 200 and removed.json() == {
        "detail": "arnold is no longer arbiter."
    }
    assert not EventRole.objects.filter(user=room.arbiter).exists()
    entry = AuditEntry.objects.get(action="tournament.event.role_removed")
    assert entry.actor == room.director and entry.data == {"user": "arnold", "role": "arbiter"}
    assert room.client("arbiter").get(room.url("staff")).status_code == 404  # no role any more


def test_the_last_director_stays_and_an_unknown_role_is_a_404(room) -> None:
    own = EventRole.objects.get(user=room.director, event=room.event)
    refused = room.post("director", "role_remove", role_id=own.pk)
    assert refused.status_code == 400
    assert refused.json() == {
        "detail": "You are the last director of Spring open: "
        "invite another director before removing this role.",
        "code": "last_director",
    }
    assert EventRole.objects.filter(pk=own.pk).exists()
    other = EventRoleFactory(event=EventFactory(), user=UserFactory(), role="arbiter")
    for pk in (other.pk, 10**6):
        unknown = room.post("director", "role_remove", role_id=pk)
        assert (unknown.status_code, unknown.json()["code"]) == (404, "no_such_role")
    assert EventRole.objects.filter(pk=other.pk).exists()


def test_a_director_withdraws_and_reinstates_a_player(room) -> None:
    listed = room.get("director", "players").json()
    assert [(p["name"], p["table"], p["withdrawn"]) for p in listed] == [
        ("Ann", 1, False),
        ("Bob", 2, False),
    ]
    response = room.post("director", "player_withdraw", {"reason": "unwell"}, player_id=room.bob.pk)
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["withdrawn"], body["withdrawn_at"] is not None) == (
        room.bob.pk,
        True,
        True,
    )
    entry = AuditEntry.objects.get(action="tournament.player.withdrawn")
    assert entry.actor == room.director and entry.data["reason"] == "unwell"
    assert Player.objects.get(pk=room.bob.pk).is_withdrawn
    assert [p["withdrawn"] for p in room.get("director", "players").json()] == [False, True]

    again = room.post("director", "player_withdraw", player_id=room.bob.pk)
    assert again.status_code == 400
    assert again.json() == {"detail": "Bob has already withdrawn.", "code": "already_withdrawn"}

    back = room.post("director", "player_reinstate", player_id=room.bob.pk)
    assert back.status_code == 200 and back.json()["withdrawn"] is False
    assert back.json()["withdrawn_at"] is None
    assert actions()[-1] == "tournament.player.reinstated"
    twice = room.post("director", "player_reinstate", player_id=room.bob.pk)
    assert (twice.status_code, twice.json()["code"]) == (400, "not_withdrawn")


def test_an_unknown_player_or_a_bad_reason_is_refused_and_nothing_changes(room) -> None:
    stranger = PlayerFactory(event=EventFactory(), name="Sam", table=1)
    for name in ("player_withdraw", "player_reinstate"):
        for pk in (stranger.pk, 10**6):
            response = room.post("director", name, player_id=pk)
            assert response.status_code == 404
            assert response.json() == {
                "detail": f"There is no player {pk} in Spring open.",
                "code": "no_such_player",
            }
    for reason, says in (({"a": 1}, "Not a valid string."), ("x" * 501, "no more than 500")):
        bad = room.post("director", "player_withdraw", {"reason": reason}, player_id=room.bob.pk)
        assert bad.status_code == 400 and bad.json()["detail"].startswith("reason: ")
        assert says in bad.json()["detail"]
    assert not Player.objects.filter(withdrawn_at__isnull=False).exists()


def test_a_withdrawn_players_phone_is_refused_after_the_api_withdraws_them(room) -> None:
    room.post("director", "player_withdraw", player_id=room.ann.pk)
    slip = {"round": 1, "word": "WROTE", "ref": "H4", "score": 24}
    refused = room.client("player").post("/api/v1/play/submissions", slip, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "withdrawn")


def test_closing_waits_for_the_round_in_play_then_closes_and_reopens(room) -> None:
    refused = room.post("director", "event_close")
    assert refused.status_code == 400
    assert refused.json() == {
        "detail": "Round 1 of game 1 is open: publish or annul it before closing the event.",
        "code": "round_in_play",
    }
    room.event.refresh_from_db()
    assert not room.event.is_closed
    finish_round(room.round, T0)
    closed = room.post("director", "event_close")
    assert closed.status_code == 200 and closed.json()["closed"] is True
    assert "Spring open is closed" in closed.json()["detail"]
    again = room.post("director", "event_close")
    assert (again.status_code, again.json()["code"]) == (400, "event_closed")
    drawn = room.client("arbiter").post(
        reverse("staff_api:action", args=[room.event.slug, 1, "draw"]), {}, format="json"
    )
    assert (drawn.status_code, drawn.json()["code"]) == (400, "event_closed")
    reopened = room.post("superuser", "event_reopen")
    assert reopened.status_code == 200
    assert reopened.json() == {"detail": "Spring open is open again.", "closed": False}
    twice = room.post("director", "event_reopen")
    assert (twice.status_code, twice.json()["code"]) == (400, "event_not_closed")
    closing = AuditEntry.objects.filter(action__startswith="tournament.event.")
    assert [(e.action, e.actor.username) for e in closing.order_by("pk")] == [
        ("tournament.event.closed", "dora"),
        ("tournament.event.reopened", "boss"),
    ]


def test_the_schema_lists_every_endpoint_with_its_operation() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS, "drf-spectacular warned or failed on some view"
    base = "/api/v1/events/{slug}"
    operations = {
        (path, method): op["operationId"]
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if path.startswith(base)
    }
    assert {
        (f"{base}/invitations", "get"): "event_invitations_list",
        (f"{base}/invitations", "post"): "event_invitations_create",
        (f"{base}/invitations/{{invitation_id}}/revoke", "post"): "event_invitation_revoke",
        (f"{base}/staff", "get"): "event_staff_list",
        (f"{base}/staff/{{role_id}}/remove", "post"): "event_staff_role_remove",
        (f"{base}/players", "get"): "event_players_list",
        (f"{base}/players/{{player_id}}/withdraw", "post"): "event_player_withdraw",
        (f"{base}/players/{{player_id}}/reinstate", "post"): "event_player_reinstate",
        (f"{base}/close", "post"): "event_close",
        (f"{base}/reopen", "post"): "event_reopen",
    }.items() <= operations.items()
    create = schema["paths"][f"{base}/invitations"]["post"]
    assert {"201", "400", "403", "404"} <= set(create["responses"])
    body = schema["components"]["schemas"]["InvitationIn"]
    assert body["required"] == ["name"] and body["properties"]["days"]["maximum"] == 60

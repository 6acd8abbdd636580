"""docs/design.md's "Roles" table, walked over EVERY URL pattern for every persona.

The patterns come from the resolver, so a new route fails here until it is in ``ROUTES`` with
who may call it; each view must also declare its rule (``web.permissions``: ``event_roles``,
``signed_in``, ``public``, or an API permission). A request is *allowed* when it gets past the
checks (2xx, 3xx elsewhere than the login page, 400, 405, 409: the view ran); *denied* when it
is sent to the login page or answered 401, 403 or 404.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.arbiter.conftest import open_round
from tests.factories import EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Event, EventRole, ExportJob, Player, Season, TrainingAttempt
from tournament.services.invitations import invitation_create
from web.actions import ACTIONS
from web.api.views import IsPlayer
from web.permissions import EventRolePermission, RoomKeyHolder, SignedIn
from web.training.views import training_key

pytestmark = pytest.mark.django_db

ANONYMOUS, OUTSIDER, ARBITER, DIRECTOR, SUPERUSER, PLAYER = (
    "anonymous",
    "outsider",
    "arbiter",
    "director",
    "superuser",
    "player",
)
PERSONAS = (ANONYMOUS, OUTSIDER, ARBITER, DIRECTOR, SUPERUSER, PLAYER)
EVERYONE = frozenset(PERSONAS)
SIGNED_IN = frozenset({OUTSIDER, ARBITER, DIRECTOR, SUPERUSER})
STAFF = frozenset({ARBITER, DIRECTOR, SUPERUSER})  # of the event
DIRECTORS = frozenset({DIRECTOR, SUPERUSER})
PLAYERS = frozenset({PLAYER})

# URL name -> (the method the test calls it with, who may). The rows of the design's table:
# the event, its set-up, players and imports: directors; tokens and QR codes: directors (a
# player holds their own in their link); running rounds, slips, rulings: staff; standings
# and exports: staff; the phone's page and API: the player.
ROUTES: dict[str, tuple[str, frozenset[str]]] = {
    "console:event_list": ("GET", SIGNED_IN),
    "console:event_new": ("GET", SIGNED_IN),  # whoever creates an event directs it
    "console:event_detail": ("GET", STAFF),
    "console:setup": ("GET", DIRECTORS),
    "console:setup_post": ("POST", DIRECTORS),
    "console:word_list_state": ("GET", DIRECTORS),
    "console:setup_post_one": ("POST", DIRECTORS),
    "console:game": ("GET", STAFF),
    "console:game_state": ("GET", STAFF),
    "console:action": ("POST", STAFF),  # each action's own roles: ACTION_ROLES below
    "console:slip_entry": ("GET", STAFF),
    "console:slip_table": ("GET", STAFF),
    "console:round_rulings": ("GET", STAFF),
    "console:round_moves": ("GET", STAFF),
    "console:audit": ("GET", STAFF),
    "console:players_import": ("GET", DIRECTORS),
    "console:staff": ("GET", DIRECTORS),  # invitations, roles, withdrawals, closing
    "console:staff_post": ("POST", DIRECTORS),
    "console:staff_post_one": ("POST", DIRECTORS),
    "console:simultaneous": ("GET", STAFF),  # the rooms and the one ranking
    "console:room_add": ("POST", DIRECTORS),
    "console:room_results": ("GET", STAFF),  # the event's results file
    "console:room_results_upload": ("POST", DIRECTORS),  # a remote room's file
    "console:invitation": ("GET", EVERYONE),  # the signed link is the secret (here: tampered)
    "play:qr_sheet": ("GET", DIRECTORS),
    "play:qr_player": ("GET", DIRECTORS),
    "play:player_token_revoke": ("POST", DIRECTORS),
    "play:player_token_reissue": ("POST", DIRECTORS),
    "play:play": ("GET", PLAYERS),
    "play:play_join": ("GET", EVERYONE),  # the link is the secret: whoever holds it is the player
    "screen:screen": ("GET", STAFF),
    "screen:state": ("GET", STAFF),
    "screen:game_screen": ("GET", STAFF),
    "screen:game_state": ("GET", STAFF),
    "exports:event_export_xlsx": ("GET", STAFF),
    "exports:game_export_xlsx": ("GET", STAFF),
    "exports:standings_csv": ("GET", STAFF),
    "exports:categories_csv": ("GET", STAFF),
    "exports:ranking_csv": ("GET", STAFF),  # a simultaneous's one ranking
    "exports:ranking_xlsx": ("GET", STAFF),
    "exports:event_export_csv_zip": ("GET", STAFF),
    "exports:game_export_csv_zip": ("GET", STAFF),
    "exports:event_files": ("GET", STAFF),
    "exports:game_eliot": ("GET", STAFF),
    "exports:game_gcg": ("GET", STAFF),
    "exports:game_predrawn": ("GET", STAFF),  # the game drawn in advance, for another room
    "exports:game_sigles": ("GET", STAFF),
    "exports:event_sigles": ("GET", STAFF),
    "exports:game_import": ("GET", DIRECTORS),
    "exports:api_game_import": ("POST", DIRECTORS),
    "exports:export_job_create": ("POST", STAFF),
    "exports:export_job": ("GET", STAFF),
    "exports:export_job_download": ("GET", STAFF),
    "exports:api_event_export": ("GET", STAFF),
    "exports:api_export_job": ("GET", STAFF),
    "printing:event_results": ("GET", STAFF),  # the printed sheets: standings and rulings
    "printing:game_results": ("GET", STAFF),
    "printing:game_sheet": ("GET", STAFF),
    "printing:score_cards": ("GET", STAFF),
    "play_api:state": ("GET", PLAYERS),
    "play_api:standings": ("GET", PLAYERS),
    "play_api:submissions": ("POST", PLAYERS),
    "staff_api:action": ("POST", STAFF),
    "staff_api:events": ("GET", SIGNED_IN),  # each sees the events they have a role in
    "staff_api:event": ("GET", STAFF),  # PATCH: directors (tests/web/api/test_director_api)
    "staff_api:games": ("GET", STAFF),  # POST: directors (tests/web/api/test_director_api)
    "staff_api:game": ("GET", STAFF),
    "staff_api:game_action": ("POST", STAFF),  # each action's own roles, as staff_api:action
    "staff_api:round": ("GET", STAFF),  # a round's rulings, warnings, mismatches
    "staff_api:round_moves": ("GET", STAFF),  # every legal move, ranked
    "staff_api:audit": ("GET", STAFF),  # the game's audit log
    "staff_api:table_slips": ("GET", STAFF),  # a table's slips of the round in play
    "staff_api:word_list": ("GET", DIRECTORS),  # POST, an upload: test_director_setup_api
    "staff_api:word_list_french": ("POST", DIRECTORS),
    "staff_api:players_import": ("POST", DIRECTORS),  # refused (400): no file
    "staff_api:player_token_revoke": ("POST", DIRECTORS),
    "staff_api:player_token_reissue": ("POST", DIRECTORS),
    "staff_api:game_standings": ("GET", STAFF),
    "staff_api:standings": ("GET", STAFF),
    "staff_api:rooms": ("GET", STAFF),  # POST: directors (tests/web/test_rooms_pages)
    # The multiplex: a room's key only, no account nor phone (tests/web/api/test_multiplex_api)
    "staff_api:multiplex_feed": ("GET", frozenset()),
    "staff_api:multiplex_results": ("POST", frozenset()),
    "staff_api:room_key": ("POST", DIRECTORS),  # DELETE: the same (test_multiplex_api)
    "staff_api:multiplex": ("POST", DIRECTORS),  # GET: the staff, once linked (test_multiplex_api)
    "staff_api:simultaneous_standings": ("GET", STAFF),
    "staff_api:room_results": ("GET", STAFF),  # POST: directors (tests/web/test_rooms_pages)
    "staff_api:invitations": ("POST", DIRECTORS),  # GET too: tests/web/api/test_staff_events
    "staff_api:invitation_revoke": ("POST", DIRECTORS),
    "staff_api:staff": ("GET", DIRECTORS),
    "staff_api:role_remove": ("POST", DIRECTORS),  # the arbiter's role
    "staff_api:players": ("GET", DIRECTORS),
    "staff_api:player": ("POST", DIRECTORS),
    "staff_api:player_withdraw": ("POST", DIRECTORS),
    "staff_api:player_reinstate": ("POST", DIRECTORS),
    "staff_api:event_close": ("POST", DIRECTORS),  # refused (400): the round is open
    "staff_api:event_reopen": ("POST", DIRECTORS),
    "training:event": ("GET", DIRECTORS),  # opening games for training, their links
    "training:home": ("GET", SIGNED_IN),  # the games open for training, one's attempts
    "training:game": ("GET", EVERYONE),  # the training link carries its own signature
    "training:attempt": ("GET", EVERYONE),  # an attempt's secret address
    "public:results": ("GET", EVERYONE),  # the audience's page, when the event makes it public
    "public:state": ("GET", EVERYONE),
    "history:player": ("GET", STAFF | PLAYERS),  # the player, and the staff of their events
    "history:player_csv": ("GET", STAFF | PLAYERS),
    "history:player_xlsx": ("GET", STAFF | PLAYERS),
    "history:seasons": ("GET", SIGNED_IN),  # one's own seasons
    "history:season": ("GET", DIRECTORS),  # its owner (the world's director), a superuser
    "history:season_print": ("GET", DIRECTORS),
    "history:season_xlsx": ("GET", DIRECTORS),
    "login": ("GET", EVERYONE),
    "logout": ("POST", EVERYONE),
    "password_change": ("GET", SIGNED_IN),  # one's own password
    "password_change_done": ("GET", SIGNED_IN),
    "api-schema": ("GET", EVERYONE),  # the API's shape, no data
    "healthz": ("GET", EVERYONE),
    "favicon": ("GET", EVERYONE),  # the site's icon, no data
    "set_language": ("POST", EVERYONE),  # the header's language switch (a cookie)
    "javascript_catalog": ("GET", EVERYONE),  # the scripts' strings, no data
}
# The framework's own views: their rule is Django's or DRF's, not a decorator of ours.
FRAMEWORK_VIEWS = {
    "login",
    "logout",
    "password_change",
    "password_change_done",
    "api-schema",
    "healthz",
    "favicon",
    "set_language",
}

# docs/design.md: arbiters draw and enter racks, open, pause, extend, close, publish, enter
# slips and amend rulings; annulling a round is the director's.
ACTION_ROLES = {
    "draw": STAFF,
    "rack": STAFF,
    "open": STAFF,
    "extend": STAFF,
    "pause": STAFF,
    "resume": STAFF,
    "close": STAFF,
    "publish": STAFF,
    "choose_top": STAFF,
    "amend": STAFF,
    "amend_slip": STAFF,
    "slip": STAFF,
    "resolve": STAFF,
    "discipline": STAFF,  # a disciplinary warning (rules.md case 21)
    "discipline_withdraw": STAFF,
    "annul": DIRECTORS,
}


def patterns(
    resolver: URLResolver | None = None, prefix: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    """Every URL pattern the site serves, as (its namespaced name, the pattern)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            namespace = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            yield from patterns(entry, namespace)
        else:
            yield f"{prefix}{entry.name}", entry


def site_patterns() -> list[tuple[str, URLPattern]]:
    return [(name, p) for name, p in patterns() if not name.startswith("admin:")]


class World:
    """One event with every persona: its director, an arbiter, an outsider, a superuser, and a
    player with their phone; a game with an open round; a finished export job."""

    def __init__(self, event: Event, director, tmp_path) -> None:
        self.event = event
        self.player: Player = PlayerFactory(event=event, name="Ann", table=1)
        PlayerFactory(event=event, name="Bob", table=2)
        self.game = GameFactory(event=event, number=1, seed=7)
        open_round(self.game)
        arbiter = UserFactory(username="arnold")
        EventRoleFactory(event=event, user=arbiter, role="arbiter")
        self.invitation = invitation_create(event=event, name="Iris", role="arbiter", actor=None)
        self.users = {
            DIRECTOR: director,
            ARBITER: arbiter,
            OUTSIDER: UserFactory(username="otto"),
            SUPERUSER: UserFactory(username="boss", is_superuser=True, is_staff=True),
        }
        job = ExportJob.objects.create(
            event=event, status=ExportJob.Status.DONE, file_name="walk.xlsx"
        )
        assert job.path is not None
        job.path.parent.mkdir(parents=True, exist_ok=True)
        job.path.write_bytes(b"PK")
        self.job = job
        # beyond the room: the results made public, a finished game open for training
        event.public_results = True
        event.save(update_fields=["public_results"])
        finished = GameFactory(event=event, number=2, seed=8, status="finished", training_open=True)
        self.training_key = training_key(finished)
        self.attempt = TrainingAttempt.objects.create(game=finished, round_seconds=60)
        self.player.licence = "L-ANN"
        self.player.save(update_fields=["licence"])
        self.season = Season.objects.create(name="Winter", slug=event.slug, owner=director)

    def client(self, persona: str) -> Client:
        client = Client(raise_request_exception=False)
        if persona in self.users:
            client.force_login(self.users[persona])
        elif persona == PLAYER:
            client.get(reverse("play:play_join", args=[self.player.token]))  # the cookie
            client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {self.player.token}"
        return client

    def kwargs(self, pattern: URLPattern) -> dict[str, object]:
        values: dict[str, object] = {
            "slug": self.event.slug,
            "number": self.game.number,
            "round_number": 1,
            "table": 1,
            "pk": self.player.pk,
            "job_id": self.job.pk,
            "what": "policy",
            "action": "pause",
            "token": self.player.token,
            "invitation_id": self.invitation.pk,
            "role_id": EventRole.objects.get(event=self.event, role="arbiter").pk,
            "player_id": self.player.pk,
            "language": "fr",
            "key": self.training_key,
            "attempt": self.attempt.token,
            "licence": "L-ANN",
        }
        return {name: values[name] for name in pattern.pattern.converters}


@pytest.fixture
def world(event, director, tmp_path, settings) -> World:
    settings.VAR_DIR = tmp_path
    return World(event, director, tmp_path)


def allowed(response) -> bool:
    if response.status_code in (301, 302):
        location = response["Location"]
        return "login/?next=" not in location
    assert response.status_code != 500, response.content[:500]  # 503: /healthz, no worker
    return response.status_code not in (401, 403, 404)


def call(client: Client, method: str, url: str, data: dict[str, object] | None = None):
    if method == "GET":
        return client.get(url)
    return client.post(url, data or {})


def test_every_route_is_in_the_table() -> None:
    names = {name for name, _ in site_patterns()}
    missing = names - set(ROUTES)
    assert not missing, f"routes with no rule in ROUTES (who may call them?): {sorted(missing)}"
    assert not set(ROUTES) - names, "ROUTES names routes that no longer exist"


def test_every_view_declares_who_may_call_it() -> None:
    for name, pattern in site_patterns():
        if name in FRAMEWORK_VIEWS:
            continue
        view = pattern.callback
        view_class = getattr(view, "view_class", None)
        if view_class is not None and hasattr(view_class, "permission_classes"):
            rules = set(view_class.permission_classes)
            allowed = {EventRolePermission, IsPlayer, SignedIn, RoomKeyHolder}
            assert rules & allowed, f"{name}: no role permission"
        else:
            assert getattr(view, "access", None), f"{name}: no web.permissions decorator"


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("name", sorted(ROUTES))
def test_each_route_lets_in_exactly_the_roles_of_the_table(world: World, name, persona) -> None:
    method, who = ROUTES[name]
    pattern = dict(site_patterns())[name]
    url = reverse(name, kwargs=world.kwargs(pattern))
    response = call(world.client(persona), method, url)
    assert allowed(response) == (persona in who), (
        f"{persona} {method} {url}: {response.status_code} "
        f"{response.get('Location', '')} {response.content[:200]!r}"
    )


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_each_action_lets_in_exactly_the_roles_of_the_table(world: World, action, persona):
    assert set(ACTIONS) <= set(ACTION_ROLES), "a new action needs its roles in ACTION_ROLES"
    client = world.client(persona)
    args = [world.event.slug, world.game.number, action]
    page = call(client, "POST", reverse("console:action", args=args), {"reason": "walk"})
    apis = [
        client.post(reverse(name, args=args), {"reason": "walk"}, content_type="application/json")
        for name in ("staff_api:action", "staff_api:game_action")
    ]
    for response in (page, *apis):
        assert allowed(response) == (persona in ACTION_ROLES[action]), (
            f"{persona} {action}: {response.status_code} {response.content[:200]!r}"
        )


def test_an_arbiter_sees_neither_tokens_nor_the_import_on_the_event_page(world: World) -> None:
    page = world.client(ARBITER).get(reverse("console:event_detail", args=[world.event.slug]))
    assert page.status_code == 200 and b"Ann" in page.content
    assert b"/qr/" not in page.content and b"/players/import/" not in page.content
    assert world.player.token.encode() not in page.content
    page = world.client(DIRECTOR).get(reverse("console:event_detail", args=[world.event.slug]))
    assert b"/qr/" in page.content and b"/players/import/" in page.content


ADMIN_VALUES = {"app_label": "tournament", "object_id": "1", "content_type_id": "1"}


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_admin_is_for_superusers_only(world: World, persona) -> None:
    """Every admin page but its login and logout sends anyone but a superuser to the admin's
    login page (Django's ``admin_view``; no account here but the superuser is staff)."""
    client = world.client(persona)
    urls = ["/admin/no-such-page/"]  # the admin's catch-all pattern has no name
    for name, pattern in patterns():
        if not name.startswith("admin:") or name.endswith(":None"):
            continue
        if name in {"admin:login", "admin:logout"}:
            continue
        converters = pattern.pattern.converters
        if "app_label" in str(pattern.pattern) and not converters:  # a regex: the app index
            urls.append(reverse(name, kwargs={"app_label": "tournament"}))
        else:
            urls.append(reverse(name, kwargs={k: ADMIN_VALUES.get(k, "1") for k in converters}))
    assert len(urls) > 20
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, (url, response.status_code)
        to_login = response.status_code == 302 and "/admin/login/" in response["Location"]
        assert (not to_login) == (persona == SUPERUSER), (persona, url, response.status_code)


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_events_directors_may_upload_a_word_list(
    world: World, persona, settings, tmp_path
) -> None:
    """The roles table's row: uploading a list (which a worker compiles) or choosing the French
    list is the event's director's (a superuser is one); nobody else's, not even an arbiter."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournament.models import WordList

    settings.WORD_LISTS_DIR = tmp_path / "wordlists"
    client = world.client(persona)
    for what, data in (
        ("wordlist", {"name": "Mots", "file": SimpleUploadedFile("mots.txt", b"chat\nchien\n")}),
        ("french", {}),
    ):
        url = reverse("console:setup_post", kwargs={"slug": world.event.slug, "what": what})
        response = client.post(url, data)
        assert allowed(response) == (persona in DIRECTORS), (
            f"{persona} {what}: {response.status_code} {response.content[:200]!r}"
        )
    assert WordList.objects.exists() == (persona in DIRECTORS)

"""What stopped a director's night (issue 14), page by page: the event's badge said PLANNED all
night, times were in UTC, set-up errors named database constraints, a wrong address or role
showed the framework's bare pages, Close now / Publish / Revoke went without asking, the
console's countdown warned at a fixed 30 s, and there were no keyboard shortcuts."""

from __future__ import annotations

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.arbiter.conftest import T0, open_round
from tests.factories import EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Event, EventRole, Game, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(event: Event) -> Game:
    for table, name in enumerate(["Ann", "Bob", "Cleo"], start=1):
        PlayerFactory(event=event, name=name, table=table)
    return GameFactory(event=event, number=1, seed=7)


def act(client: Client, game: Game, action: str, **data: object):
    url = reverse("console:action", args=[game.event.slug, game.number, action])
    return client.post(url, data, follow=True)


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def badge(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    start = html.index('<span class="badge status-')
    return html[start : html.index("</span>", start)]


# --- the event's status, from its games ------------------------------------------------------


def test_the_event_badge_follows_its_games_on_the_events_page_and_the_event_page(
    client_for, director, event: Event, game: Game
) -> None:
    client = client_for(director)
    pages = [reverse("console:event_list"), reverse("console:event_detail", args=[event.slug])]
    for url in pages:
        assert "status-planned" in badge(client, url) and "Planned" in badge(client, url)
    open_round(game)
    for url in pages:
        assert "status-running" in badge(client, url) and "Running" in badge(client, url)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    GameFactory(event=event, number=2, seed=8)
    assert "Running" in badge(client, pages[1])  # between its two games
    Game.objects.filter(event=event).update(status=Game.Status.FINISHED)
    for url in pages:
        assert "status-finished" in badge(client, url) and "Finished" in badge(client, url)


# --- times in the event's time zone ----------------------------------------------------------


def test_the_console_says_the_deadline_in_the_events_time_zone_not_utc(
    client_for, director, game: Game
) -> None:
    # The event is played in Paris (the server's TIME_ZONE is UTC): 1 May 2026, 20:00 UTC is
    # 22:00 there.
    Event.objects.filter(pk=game.event_id).update(time_zone="Europe/Paris")
    client = client_for(director)
    with time_machine.travel(T0, tick=False):
        act(client, game, "draw")
        opened = act(client, game, "open")
        assert "Round 1 is open until 22:03:00." in said(opened)
        extended = act(client, game, "extend", seconds=30)
        assert "Round 1 extended to 22:03:30." in said(extended)
        page = client.get(reverse("console:game", args=[game.event.slug, 1])).content.decode()
    assert "<time>22:00:00</time>" in page  # the audit log too
    assert "20:00:00" not in page


# --- set-up errors in words ------------------------------------------------------------------


def policy_posted(**times: int) -> dict[str, object]:
    """The policy form's fields as an older page posts them (no tie-break, no audience)."""
    return {
        "grace_seconds": 5,
        "warnings_free": 3,
        "warning_penalty": 5,
        "reference_penalty": 5,
        "solo_bonus": 10,
        "solo_min_players": 16,
        "tile_set": "en",
        "lexicon": "enable",
        "board_layout": "standard",
        **times,
    }


def test_a_warning_longer_than_the_round_is_refused_in_words_not_by_constraint_name(
    client_for, director, event: Event
) -> None:
    client = client_for(director)
    url = reverse("console:setup_post", args=[event.slug, "policy"])
    policy = policy_posted(round_seconds=60, warning_seconds=90)
    messages = said(client.post(url, policy, follow=True))
    assert any("warning time must be shorter than the round time" in m for m in messages)
    assert not any("event_warning_within_round" in m or "Constraint" in m for m in messages)

    created = client.post(
        reverse("console:event_new"),
        {"name": "Bad night", "starts_on": "2026-12-01", **policy, "grace_seconds": -1},
        follow=True,
    )
    text = " ".join(said(created))
    assert "cannot be negative" in text and "event_rules_non_negative" not in text
    assert "shorter than the round time" in text


def test_a_policy_posted_without_its_tie_break_keeps_the_events(
    client_for, director, event: Event
) -> None:
    """A form of the policy that does not name the tie-break (an older page, a script) keeps the
    event's, as it keeps its language and time zone (rules.md, case 22)."""
    Event.objects.filter(pk=event.pk).update(tie_break="last_game")
    url = reverse("console:setup_post", args=[event.slug, "policy"])
    policy = policy_posted(round_seconds=180, warning_seconds=30)
    messages = said(client_for(director).post(url, policy, follow=True))
    assert not any("tie_break" in m for m in messages), messages
    event.refresh_from_db()
    assert (event.round_seconds, event.tie_break) == (180, "last_game")


def test_every_constraint_the_set_up_can_break_says_its_rule_in_words() -> None:
    """Django's own ``violation_error_message`` on each constraint (no pattern over Django's
    "Constraint “name” is violated." any more): what full_clean and the forms say."""
    for model in (Event, Player, EventRole, Game):
        for constraint in model._meta.constraints:
            said = constraint.get_violation_error_message()
            assert said != constraint.default_violation_error_message % {"name": constraint.name}, (
                constraint.name
            )
    event = Event(name="Night", slug="night", starts_on="2026-05-01", round_seconds=0)
    with pytest.raises(ValidationError) as broken:
        event.full_clean()
    assert "The round time must be at least one second." in broken.value.messages
    with translation.override("fr"), pytest.raises(ValidationError) as in_french:
        event.full_clean()
    assert not any("violated" in m or "violée" in m for m in in_french.value.messages)


# --- friendly 403 and 404 --------------------------------------------------------------------


def test_a_missing_page_and_a_refused_one_are_the_sites_own_pages(
    client_for, director, event: Event, settings
) -> None:
    settings.DEBUG = False
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    missing = client_for(director).get("/events/no-such-night/")
    assert missing.status_code == 404
    html = missing.content.decode()
    assert 'class="topbar"' in html and "Nothing here" in html and "dora" in html
    assert reverse("console:event_list") in html
    refused = client_for(arbiter).get(reverse("console:setup", args=[event.slug]))
    assert refused.status_code == 403
    html = refused.content.decode()
    assert 'class="topbar"' in html and "Not for your role" in html
    assert "This needs the director role in Spring open." in html
    assert Client().get("/no/such/page/").status_code == 404  # anonymous: the same page
    assert b"Nothing here" in Client().get("/no/such/page/").content


# --- the console asks, warns at the event's time and has keys --------------------------------


def test_close_now_publish_and_revoke_ask_before_they_are_sent(
    client_for, director, game: Game
) -> None:
    client = client_for(director)
    act(client, game, "draw")
    act(client, game, "open")
    console = client.get(reverse("console:game", args=[game.event.slug, 1])).content.decode()
    close = console[console.index("/console/close/") :]
    assert close.index("data-confirm=") < close.index("</form>")
    ann = game.event.players.get(name="Ann")
    qr = client.get(reverse("play:qr_player", args=[game.event.slug, ann.pk])).content.decode()
    revoke = qr[qr.index("/token/revoke/") :]
    assert revoke.index("data-confirm=") < revoke.index("</form>")
    assert "/static/site.js" in qr and "/static/site.js" in console


def test_the_console_counts_down_to_the_events_warning_time_and_lists_its_keys(
    client_for, director, event: Event, game: Game
) -> None:
    Event.objects.filter(pk=event.pk).update(warning_seconds=45)
    client = client_for(director)
    page = client.get(reverse("console:game", args=[event.slug, 1])).content.decode()
    assert 'data-warning="45"' in page
    assert "Keyboard shortcuts" in page and 'data-key="d"' in page  # draw
    act(client, game, "draw")
    page = client.get(reverse("console:game", args=[event.slug, 1])).content.decode()
    assert 'data-key="o"' in page  # open
    for key, what in [("d", "draw"), ("o", "open"), ("p", "publish"), ("c", "close")]:
        assert f"<kbd>{key}</kbd>" in page and what in page

"""The staff's page and the staff API say the same sentence for the same change (closing,
reopening, a role taken away), in the reader's language: each is written once, beside its
service (they had drifted: "until reopened" against "until it is reopened", and the API's
were not translated)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import EventRoleFactory, UserFactory

pytestmark = pytest.mark.django_db


def page_says(client, event, what: str, pk: int | None = None, language: str = "en") -> str:
    args = [event.slug, what] if pk is None else [event.slug, what, pk]
    name = "console:staff_post" if pk is None else "console:staff_post_one"
    answer = client.post(reverse(name, args=args), follow=True, HTTP_ACCEPT_LANGUAGE=language)
    return str(next(iter(answer.context["messages"])))


def api_says(client, event, what: str, language: str = "en", **ids: int) -> str:
    url = reverse(f"staff_api:{what}", kwargs={"slug": event.slug, **ids})
    answer = client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, answer.content
    return str(answer.json()["detail"])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_page_and_the_api_say_the_same_sentence_for_the_same_change(
    event, director, client_for, language
) -> None:
    page, api = client_for(director), APIClient()
    api.force_login(director)
    said = {
        "closed": (
            page_says(page, event, "close", language=language),
            page_says(page, event, "reopen", language=language),
        ),
    }
    assert api_says(api, event, "event_close", language) == said["closed"][0]
    assert api_says(api, event, "event_reopen", language) == said["closed"][1]
    arnold, iris = UserFactory(username="arnold"), UserFactory(username="iris")
    first = EventRoleFactory(event=event, user=arnold, role="arbiter")
    second = EventRoleFactory(event=event, user=iris, role="arbiter")
    removed_by_page = page_says(page, event, "role_remove", first.pk, language)
    removed_by_api = api_says(api, event, "role_remove", language, role_id=second.pk)
    assert removed_by_api == removed_by_page.replace("arnold", "iris")
    expected = {
        "en": ("Spring open is closed: no new round", "arnold is no longer arbiter."),
        "fr": ("Spring open est clos\u00a0: ni nouveau coup", "arnold n’est plus arbitre."),
    }[language]
    assert said["closed"][0].startswith(expected[0]) and removed_by_page == expected[1]

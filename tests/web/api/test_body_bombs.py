"""JSON bodies that cost the server (issue 25.4), on the staff API and the phone's: deep nesting,
a body over the limit, numbers of thousands of digits or too large for a float. Each is a 4xx
with a sentence and a code, refused before any view runs, in little time and memory."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

BOMBS = {
    "100,000 [": (b"[" * 100_000, 400, "parse_error", "nested more than 16 levels deep"),
    "objects 20 deep": (
        b'{"a":' * 20 + b"1" + b"}" * 20,
        400,
        "parse_error",
        "the JSON is nested more than 16 levels deep",
    ),
    "300 KB": (b'{"name": "' + b"x" * 300_000 + b'"}', 413, "too_large", "larger than 262144"),
    "a number of 100,000 digits": (
        b'{"name": "Ann", "table": 1' + b"0" * 100_000 + b"}",
        400,
        "parse_error",
        "a number of 100001 digits: at most 30",
    ),
    "1e999": (b'{"name": "Ann", "table": 1e999}', 400, "parse_error", "is too large"),
    "NaN": (b'{"name": "Ann", "table": NaN}', 400, "parse_error", "NaN"),
}


@pytest.fixture
def api(director) -> APIClient:
    client = APIClient()
    client.force_authenticate(director)
    return client


@pytest.mark.parametrize("name", BOMBS)
def test_a_hostile_json_body_is_a_4xx_with_a_code_in_little_time_and_memory(
    api, event, name
) -> None:
    body, status, code, said = BOMBS[name]
    url = f"/api/v1/events/{event.slug}/players"
    api.post(url, {}, format="json")  # the first request loads what every request uses
    tracemalloc.start()
    started = time.process_time()
    response = api.post(url, body, content_type="application/json")
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert said in response.json()["detail"]
    assert cpu < 0.5, f"{cpu:.2f} s of processor"
    assert peak < 32 * 1024 * 1024, f"{peak / 2**20:.1f} MB"
    assert not event.players.exists()


def test_the_phones_api_refuses_the_same_bodies_with_its_codes(event) -> None:
    phone = APIClient()
    response = phone.post(
        "/api/v1/play/submissions", b"[" * 100_000, content_type="application/json"
    )
    assert response.status_code in (400, 401, 403)
    assert "code" in response.json()

from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.django_db
def test_healthz_reports_the_database_and_the_embedded_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": {"kind": connection.vendor, "status": "ok"},
        "broker": {"kind": "filesystem", "status": "ok"},
    }


@pytest.mark.django_db
def test_healthz_answers_503_when_the_broker_does_not(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"]["kind"] == "redis"
    assert body["broker"]["status"] == "error"
    assert body["database"]["status"] == "ok"


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_pings_redis_when_it_is_the_broker(client, settings):
    from tests.conftest import test_redis_url

    settings.REDIS_URL = test_redis_url()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == {"kind": "redis", "status": "ok"}


def test_the_api_schema_is_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content

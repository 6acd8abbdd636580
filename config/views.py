"""Project-level endpoints: ``/healthz``."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config import health


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and readiness in one: 200 when the database and the broker answer, else 503."""
    database = health.database_status(connection)
    broker = health.broker_status(redis_url=settings.REDIS_URL, celery_dir=settings.CELERY_DIR)
    ok = database.ok and broker.ok
    return JsonResponse(
        {
            "status": "ok" if ok else "error",
            "database": database.describe(),
            "broker": broker.describe(),
        },
        status=200 if ok else 503,
    )

"""Project-level endpoints: ``/healthz``."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config import health

CHECKS = ("database", "broker", "worker", "rounds")
# A queue's worker is missing when its heartbeat is three intervals old.
HEARTBEAT_MISSED = 3
# A round open this many seconds past its deadline and grace, plus the workers' watch interval
# (ROUNDS_SWEEP_SECONDS), is overdue: nothing closes rounds.
ROUNDS_OVERDUE_SECONDS = 5


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Readiness: 200 when the database and the broker answer, every queue of
    ``HEALTH_QUEUES`` has a live consumer (its worker's heartbeat, written from its main
    process whether its pool is busy or not) and no round is overdue (open past its deadline,
    grace and the workers' watch interval and a few seconds), else 503 naming what is missing
    (each queue without a consumer, the overdue rounds by name).
    ``?checks=database,broker`` runs only those (a web container's own health, which must not
    wait for the workers it starts before)."""
    asked = request.GET.get("checks")
    names = CHECKS if asked is None else tuple(n.strip() for n in asked.split(",") if n.strip())
    unknown = sorted(set(names) - set(CHECKS))
    if unknown or not names:
        return JsonResponse(
            {"detail": f"unknown checks {unknown}: choose among {', '.join(CHECKS)}"}, status=400
        )
    results: dict[str, health.Check] = {}
    if "database" in names:
        results["database"] = health.database_status(connection)
    if "broker" in names:
        results["broker"] = health.broker_status(
            redis_url=settings.REDIS_URL, celery_dir=settings.CELERY_DIR
        )
    if "worker" in names:  # each queue's consumers (busy or not), not a task run lately
        results["worker"] = health.queues_status(
            queues=list(settings.HEALTH_QUEUES),
            now=timezone.now(),
            max_age=HEARTBEAT_MISSED * settings.HEALTH_HEARTBEAT_SECONDS,
        )
    if "rounds" in names:
        results["rounds"] = health.rounds_status(
            now=timezone.now(),
            tolerance=settings.ROUNDS_SWEEP_SECONDS + ROUNDS_OVERDUE_SECONDS,
        )
    ok = all(check.ok for check in results.values())
    return JsonResponse(
        {"status": "ok" if ok else "error"}
        | {name: check.describe() for name, check in results.items()},
        status=200 if ok else 503,
    )


def _icon() -> bytes:
    """The site's icon: a 16x16 tile (the board's tile colour on its green), as a PNG inside
    an .ico, made once. Browsers ask every site for ``/favicon.ico``: answered, not a 404."""
    import struct
    import zlib

    size = 16
    tile, green = b"\xf5\xd3\x8b\xff", b"\x0d\x3b\x2e\xff"
    rows = b"".join(
        b"\x00" + b"".join(tile if 2 <= x < 14 and 2 <= y < 14 else green for x in range(size))
        for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png


ICON = _icon()


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(ICON, content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response

"""What a worker records when it runs the health task, and the heartbeat /healthz reads.

Beat sends ``tournament.health_ping`` every ``HEALTH_HEARTBEAT_SECONDS``; the worker that runs
it writes its heartbeat in the ``health`` cache, which every process of the deployment shares
(Redis, or a folder when embedded), and, for a person or a test watching one machine, a file
beside the broker's folders.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.utils import timezone
from django.utils.dateparse import parse_datetime

HEARTBEAT_CACHE = "health"
HEARTBEAT_KEY = "worker-heartbeat"
QUEUE_KEY = "queue-heartbeat:{queue}"


def heartbeat_path() -> Path:
    return Path(settings.CELERY_DIR) / "heartbeat.json"


def health_ping_record(*, stamp: str, now: datetime | None = None) -> Path:
    """Record that a worker ran the health task now: the heartbeat /healthz reads, and the
    file (written atomically) that shows a real worker picked up a real task."""
    now = now or timezone.now()
    beat = {"stamp": stamp, "pid": os.getpid(), "host": socket.gethostname(), "at": now.isoformat()}
    caches[HEARTBEAT_CACHE].set(HEARTBEAT_KEY, beat, timeout=None)
    path = heartbeat_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(beat))
    os.replace(tmp, path)
    return path


def worker_heartbeat_last() -> dict[str, Any] | None:
    """The last heartbeat a worker recorded (``at`` as a datetime), or None: none yet, or the
    cache does not answer."""
    beat = caches[HEARTBEAT_CACHE].get(HEARTBEAT_KEY)
    if not isinstance(beat, dict) or not isinstance(beat.get("at"), str):
        return None
    at = parse_datetime(beat["at"])
    return None if at is None else {**beat, "at": at}


def queue_heartbeat_record(*, queues: list[str], now: datetime | None = None) -> None:
    """Record that a worker consuming ``queues`` is alive now: written by a thread of the
    worker's main process (``config.celery.QueueHeartbeat``), busy or not, every
    ``HEALTH_HEARTBEAT_SECONDS``: a worker whose pool compiles a word list still consumes."""
    now = now or timezone.now()
    beat = {"pid": os.getpid(), "host": socket.gethostname(), "at": now.isoformat()}
    caches[HEARTBEAT_CACHE].set_many(
        {QUEUE_KEY.format(queue=q): beat for q in queues}, timeout=None
    )


def queue_heartbeats_last(queues: list[str]) -> dict[str, datetime | None]:
    """{queue: when a worker consuming it was last alive (None: never, or the cache does not
    answer)}."""
    found = caches[HEARTBEAT_CACHE].get_many([QUEUE_KEY.format(queue=q) for q in queues])
    last: dict[str, datetime | None] = {}
    for queue in queues:
        beat = found.get(QUEUE_KEY.format(queue=queue))
        at = beat.get("at") if isinstance(beat, dict) else None
        last[queue] = parse_datetime(at) if isinstance(at, str) else None
    return last

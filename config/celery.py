"""The Celery app: ``celery -A config worker`` / ``celery -A config beat``.

Its settings are the ``CELERY_*`` names in ``config.settings``: Redis when ``REDIS_URL`` is
set, otherwise the embedded filesystem broker under ``var/celery/``. Tasks live in each app's
``tasks.py`` and only call services. A worker records its heartbeat as soon as it is ready,
then each time beat sends it the health task (``HEALTH_HEARTBEAT_SECONDS``); /healthz reads it.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _heartbeat_when_ready(**kwargs: Any) -> None:
    from tournament.services.health import health_ping_record

    health_ping_record(stamp="ready")

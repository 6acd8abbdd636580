"""The Celery app: ``celery -A config worker`` / ``celery -A config beat``.

Its settings are the ``CELERY_*`` names in ``config.settings``: Redis when ``REDIS_URL`` is
set, otherwise the embedded filesystem broker under ``var/celery/``. Tasks live in each app's
``tasks.py`` and only call services.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

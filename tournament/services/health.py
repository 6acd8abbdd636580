from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings
from django.utils import timezone


def heartbeat_path() -> Path:
    return Path(settings.CELERY_DIR) / "heartbeat.json"


def health_ping_record(*, stamp: str) -> Path:
    """Write what a worker last executed (the health task), atomically, and return the file.

    It lets a person or a test see that a real worker picked up a real task.
    """
    path = heartbeat_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(
        json.dumps({"stamp": stamp, "pid": os.getpid(), "at": timezone.now().isoformat()})
    )
    os.replace(tmp, path)
    return path

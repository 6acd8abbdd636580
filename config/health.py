"""Checks behind ``/healthz``: can we query the database, can we reach the broker."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from config.brokers import embedded_broker_folders


@dataclass(frozen=True)
class Check:
    name: str  # what was checked: "sqlite", "postgresql", "redis", "filesystem"
    ok: bool
    error: str = ""

    def describe(self) -> dict[str, Any]:
        result: dict[str, Any] = {"kind": self.name, "status": "ok" if self.ok else "error"}
        if self.error:
            result["error"] = self.error
        return result


def database_status(connection: Any) -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return Check(connection.vendor, False, f"{type(exc).__name__}: {exc}")
    return Check(connection.vendor, True)


def broker_status(*, redis_url: str | None, celery_dir: Path) -> Check:
    if redis_url is not None:
        import redis

        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=1, socket_timeout=1)
            try:
                client.ping()
            finally:
                client.close()
        except Exception as exc:
            return Check("redis", False, f"{type(exc).__name__}: {exc}")
        return Check("redis", True)

    for path in embedded_broker_folders(celery_dir).values():
        if not (path.is_dir() and os.access(path, os.W_OK)):
            return Check("filesystem", False, f"{path} is not a writable folder")
    return Check("filesystem", True)

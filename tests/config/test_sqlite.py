"""The embedded database holds a club night: processes that read then write in one transaction
(as a slip does: read the round, then insert) wait their turn instead of failing with
"database is locked"."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from config.env import parse_database_url
from tests.config.settings_probe import ROOT
from tests.config.test_celery_workers import _env

WRITER = """
import django, time
django.setup()
from django.db import connection, transaction
for i in range({transactions}):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM probe")
        seen = cursor.fetchone()[0]
        time.sleep(0.002)  # another process commits meanwhile
        cursor.execute("INSERT INTO probe (seen) VALUES (%s)", [seen])
"""


def test_the_sqlite_file_is_in_wal_mode_with_immediate_transactions(tmp_path: Path) -> None:
    config = parse_database_url("DATABASE_URL", f"sqlite:///{tmp_path}/db.sqlite3").as_django()
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] >= 10
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]


def test_processes_reading_then_writing_at_once_never_see_database_is_locked(
    tmp_path: Path,
) -> None:
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        db.execute("CREATE TABLE probe (id INTEGER PRIMARY KEY, seen INTEGER)")
    env = _env(tmp_path, None)
    writers, transactions = 6, 40
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER.format(transactions=transactions)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(writers)
    ]
    errors = [proc.communicate(timeout=60)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * writers, "\n".join(errors)[-3000:]
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        count, distinct = db.execute("SELECT COUNT(*), COUNT(DISTINCT seen) FROM probe").fetchone()
    assert count == writers * transactions
    assert distinct == count  # each transaction saw every earlier one: they ran one at a time

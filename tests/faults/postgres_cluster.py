"""A PostgreSQL cluster of the test's own, in a temporary folder on a free port (Debian's
``/usr/lib/postgresql/*/bin/initdb`` and ``pg_ctl``, run as the ``postgres`` user when the tests
run as root): the fault tests stop it, start it again and kill its connections, which they
must never do to the machine's shared server. Skips with the reason without PostgreSQL's
binaries (fails under REQUIRE_SERVICES)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import services_required

HOST = "127.0.0.1"


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    path = shutil.which("initdb")
    if found:
        return Path(found[-1]).parent
    if path:
        return Path(path).parent
    reason = "no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql"
    if services_required():
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


class Cluster:
    def __init__(self, folder: Path, port: int) -> None:
        self.bin = _binaries()
        self.folder = folder
        self.data = folder / "data"
        self.port = port
        self.log = folder / "postgres.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                reason = "run as root, and no 'postgres' user to run PostgreSQL as"
                if services_required():
                    pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
                pytest.skip(reason)
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(folder, "postgres")

    @property
    def url(self) -> str:
        return f"postgres://postgres@{HOST}:{self.port}/faults"

    def _run(self, *args: str, timeout: float = 60) -> None:
        result = subprocess.run(
            [*self.as_user, *args], capture_output=True, text=True, timeout=timeout
        )
        assert result.returncode == 0, (args, result.stdout[-2000:], result.stderr[-2000:])

    def init(self) -> None:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses={HOST} "
            "-c max_connections=300 -c shared_buffers=32MB"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def sql(self, query: str, *params: object, database: str = "faults") -> list[tuple[Any, ...]]:
        import psycopg

        url = f"postgres://postgres@{HOST}:{self.port}/{database}"
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
            cursor = conn.execute(query, params)  # type: ignore[arg-type]
            return cursor.fetchall() if cursor.description else []

    def kill_connections(self) -> int:
        """Terminate every client connection but this one (pg_terminate_backend)."""
        rows = self.sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )
        return int(rows[0][0])


@contextlib.contextmanager
def postgres_cluster(port: int) -> Iterator[Cluster]:
    folder = Path(tempfile.mkdtemp(prefix="faults-pg-"))
    cluster = Cluster(folder, port)
    try:
        cluster.init()
        cluster.start()
        cluster.sql("CREATE DATABASE faults", database="postgres")
        yield cluster
    finally:
        with contextlib.suppress(Exception):
            cluster.stop("immediate")
        deadline = time.monotonic() + 10
        while (cluster.data / "postmaster.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)

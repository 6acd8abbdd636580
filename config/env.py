"""Typed readers for the environment: the only way settings look at ``os.environ``.

Each helper returns a typed value or raises ``ImproperlyConfigured`` naming the variable
and the bad value, so a typo stops the process at start-up instead of misbehaving later.
``READ_VARIABLES`` records every name asked for, so a test can check that a deployment
(docker/compose.yaml) sets no variable the settings ignore.

A bad value that nothing catches (``DEBUG=maybe python manage.py check``) ends the process with
its one-line message on stderr and exit code 1, not a traceback: importing this module adds
that to ``sys.excepthook`` for ``EnvironmentValueError`` alone.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

READ_VARIABLES: set[str] = set()

# ALLOWED_HOSTS when unset: this machine only.
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    READ_VARIABLES.add(name)
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


class EnvironmentValueError(ImproperlyConfigured):
    """A variable of the environment is missing or has a value the settings cannot use."""


def env_error(name: str, value: str, expected: str) -> EnvironmentValueError:
    """The error for a bad value: names the variable, the value and what is allowed."""
    return EnvironmentValueError(f"{name}={value!r} is not valid: expected {expected}")


def _excepthook(
    kind: type[BaseException], error: BaseException, traceback: TracebackType | None
) -> None:
    if isinstance(error, EnvironmentValueError):
        print(f"Configuration error: {error}", file=sys.stderr)
        return
    _previous_excepthook(kind, error, traceback)


_previous_excepthook = sys.excepthook
sys.excepthook = _excepthook


def env_str(name: str, default: str = "", *, environ: Mapping[str, str] | None = None) -> str:
    """The variable as a string, or ``default`` when unset or blank."""
    value = _raw(name, environ)
    return default if value is None else value


def env_optional_str(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """The variable as a string, or None when unset or blank."""
    return _raw(name, environ)


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case); anything else is an error."""
    value = _raw(name, environ)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise env_error(name, value, "one of 1/0, true/false, yes/no, on/off")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """A base-10 integer, optionally bounded."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value, 10)
    except ValueError:
        raise env_error(name, value, "an integer") from None
    if minimum is not None and number < minimum:
        raise env_error(name, value, f"an integer >= {minimum}")
    if maximum is not None and number > maximum:
        raise env_error(name, value, f"an integer <= {maximum}")
    return number


def env_list(
    name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blanks around items and empty items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_time_zone(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """An IANA time zone name that ``zoneinfo`` knows (``Europe/Paris``, ``UTC``)."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise env_error(name, value, "an IANA time zone name such as UTC or Europe/Paris") from None
    return value


def env_path(
    name: str, default: Path, *, folder: bool = False, environ: Mapping[str, str] | None = None
) -> Path:
    """A filesystem path; relative paths are taken from the current directory. With ``folder``,
    a path that exists must be a folder."""
    value = _raw(name, environ)
    if value is None:
        return default
    path = Path(value).expanduser().resolve()
    if folder and path.exists() and not path.is_dir():
        raise env_error(name, value, "a folder (this is a file)")
    return path


@dataclass(frozen=True)
class DatabaseUrl:
    """A ``DATABASE_URL`` read by dj-database-url (``sqlite:///path`` or
    ``postgres://user:pw@host:port/name``), with this project's connection settings."""

    config: dict[str, Any]

    @property
    def vendor(self) -> str:
        return "postgresql" if str(self.config["ENGINE"]).endswith("postgresql") else "sqlite"

    @property
    def name(self) -> str:
        return str(self.config["NAME"])

    @property
    def port(self) -> str:
        return str(self.config.get("PORT") or "")

    def as_django(self) -> dict[str, Any]:
        config = dict(self.config)
        if self.vendor == "postgresql":
            config.update(
                CONN_MAX_AGE=60,
                CONN_HEALTH_CHECKS=True,
                # A database host that drops packets would hold a connection attempt for the
                # kernel's two minutes: a slip held through an outage (web/outage.py) tries
                # again every second or so instead. ?connect_timeout= in the URL wins.
                OPTIONS={"connect_timeout": 5, **dict(config.get("OPTIONS") or {})},
            )
        else:
            config["OPTIONS"] = dict(SQLITE_OPTIONS)
        return config


# SQLite shared by the web process (many threads), the worker and beat, as on a club night:
# WAL lets readers go on while one process writes; every transaction takes the write lock when
# it begins (BEGIN IMMEDIATE), so a writer waits its turn (up to the busy timeout, 20 s) instead
# of failing with "database is locked" when a read turns into a write under another writer;
# synchronous=FULL keeps each committed slip across a power cut.
SQLITE_OPTIONS: dict[str, Any] = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
}


def parse_database_url(name: str, value: str) -> DatabaseUrl:
    """Read a database URL with dj-database-url, for the two databases the project runs on;
    ``name`` is for the error message. SQLite as SQLAlchemy writes it: sqlite:///relative/file
    (from the current directory, made absolute here), sqlite:////absolute/file,
    sqlite:///:memory:."""
    expected = "a sqlite:/// or postgres:// URL"
    scheme = urlsplit(value).scheme
    if scheme not in {"sqlite", "postgres", "postgresql", "pgsql"}:
        raise env_error(name, value, expected)
    try:
        config = dict(dj_database_url.parse(value))
    except ValueError:  # its ParseError: a port that is no number, say
        raise env_error(name, value, "a numeric port in postgres://host:PORT/database") from None
    if scheme == "sqlite":
        path = unquote(urlsplit(value).path)[1:]
        if not path:  # "sqlite://" would be dj-database-url's in-memory database: a slip
            raise env_error(
                name, value, "sqlite:///relative/file.sqlite3 or sqlite:////absolute/file"
            )
        if config["NAME"] != ":memory:":
            config["NAME"] = str(Path(str(config["NAME"])).resolve())
    elif not config["NAME"] or "/" in str(config["NAME"]):
        raise env_error(name, value, "postgres://user:password@host:5432/database")
    return DatabaseUrl(config)


def env_database_url(
    name: str, default: str, *, environ: Mapping[str, str] | None = None
) -> DatabaseUrl:
    """The variable parsed as a database URL (see ``parse_database_url``)."""
    value = _raw(name, environ)
    return parse_database_url(name, default if value is None else value)


def env_redis_url(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """A ``redis://`` or ``rediss://`` URL, or None when unset."""
    value = _raw(name, environ)
    if value is None:
        return None
    parts = urlsplit(value)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise env_error(name, value, "redis://host:6379/0")
    try:
        parts.port  # noqa: B018 - reading it validates the port
    except ValueError:
        raise env_error(name, value, "redis://host:6379/0 with a numeric port") from None
    return value


def env_public_url(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """``http(s)://host[:port]`` (no path, query or user), without a trailing slash; None when
    unset. IPv6 hosts go in brackets: ``http://[fd00::2]:8000``."""
    value = _raw(name, environ)
    if value is None:
        return None
    expected = "http://ADDRESS:PORT, such as http://192.168.1.20:8000 (no path)"
    parts = urlsplit(value)
    try:
        port = parts.port
    except ValueError:
        raise env_error(name, value, expected) from None
    if (
        parts.scheme not in {"http", "https"}
        or not parts.hostname
        or parts.username is not None
        or parts.path not in {"", "/"}
        or parts.query
        or parts.fragment
    ):
        raise env_error(name, value, expected)
    return f"{parts.scheme}://{url_host(value)}" + ("" if port is None else f":{port}")


def url_host(url: str) -> str:
    """The host of a URL as ALLOWED_HOSTS writes it: ``192.168.1.20``, ``[fd00::2]``."""
    host = urlsplit(url).hostname or ""
    return f"[{host}]" if ":" in host else host

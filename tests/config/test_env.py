from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    EnvironmentValueError,
    env_bool,
    env_database_url,
    env_int,
    env_list,
    env_public_url,
    env_redis_url,
    env_str,
    env_time_zone,
    parse_database_url,
    url_host,
)


def test_it_reads_booleans_in_the_usual_spellings():
    assert env_bool("DEBUG", False, environ={"DEBUG": "True"}) is True
    assert env_bool("DEBUG", True, environ={"DEBUG": "off"}) is False
    assert env_bool("DEBUG", True, environ={}) is True
    assert env_bool("DEBUG", False, environ={"DEBUG": "  "}) is False


def test_it_names_the_variable_and_the_value_when_a_boolean_is_bad():
    with pytest.raises(ImproperlyConfigured, match=r"DEBUG='maybe' is not valid"):
        env_bool("DEBUG", True, environ={"DEBUG": "maybe"})


def test_it_reads_bounded_integers_and_refuses_the_rest():
    assert env_int("PORT", 8000, environ={"PORT": "8123"}) == 8123
    assert env_int("PORT", 8000, environ={}) == 8000
    with pytest.raises(ImproperlyConfigured, match="PORT='80a'"):
        env_int("PORT", 8000, environ={"PORT": "80a"})
    with pytest.raises(ImproperlyConfigured, match=">= 1"):
        env_int("PORT", 8000, minimum=1, environ={"PORT": "0"})


def test_it_splits_lists_on_commas_and_drops_blanks():
    assert env_list("ALLOWED_HOSTS", environ={"ALLOWED_HOSTS": " a.org, ,b.org "}) == [
        "a.org",
        "b.org",
    ]
    assert env_list("ALLOWED_HOSTS", ["x"], environ={}) == ["x"]


def test_it_returns_the_default_string_when_unset():
    assert env_str("LOG_LEVEL", "INFO", environ={}) == "INFO"


def test_it_accepts_only_time_zones_that_zoneinfo_knows():
    assert env_time_zone("TIME_ZONE", "UTC", environ={"TIME_ZONE": "Europe/Paris"}) == (
        "Europe/Paris"
    )
    with pytest.raises(ImproperlyConfigured, match="TIME_ZONE='Mars/Olympus'"):
        env_time_zone("TIME_ZONE", "UTC", environ={"TIME_ZONE": "Mars/Olympus"})


def test_it_parses_sqlite_urls_relative_absolute_and_in_memory(tmp_path):
    absolute = parse_database_url("DATABASE_URL", f"sqlite:///{tmp_path}/db.sqlite3")
    assert absolute.vendor == "sqlite"
    assert absolute.name == str(tmp_path / "db.sqlite3")
    assert parse_database_url("DATABASE_URL", "sqlite:///:memory:").name == ":memory:"
    relative = parse_database_url("DATABASE_URL", "sqlite:///var/x.sqlite3")
    assert relative.name.endswith("/var/x.sqlite3")


def test_it_parses_postgres_urls_with_credentials_port_and_options():
    url = "postgresql://ann:p%40ss@db.example:6543/duplicate?sslmode=require"
    config = env_database_url("DATABASE_URL", "sqlite:///:memory:", environ={"DATABASE_URL": url})
    django = config.as_django()
    assert django["ENGINE"] == "django.db.backends.postgresql"
    assert (django["NAME"], django["USER"], django["PASSWORD"]) == ("duplicate", "ann", "p@ss")
    assert (django["HOST"], str(django["PORT"])) == ("db.example", "6543")
    assert (django["CONN_MAX_AGE"], django["CONN_HEALTH_CHECKS"]) == (60, True)
    assert django["OPTIONS"] == {"connect_timeout": 5, "sslmode": "require"}
    assert parse_database_url("X", "postgres://postgres@127.0.0.1/postgres").port == ""


@pytest.mark.parametrize(
    "url",
    ["mysql://root@localhost/db", "postgres://host:5432/", "postgres://h:port/db", "sqlite://"],
)
def test_it_refuses_database_urls_it_cannot_use(url):
    with pytest.raises(ImproperlyConfigured, match=r"DATABASE_URL="):
        env_database_url("DATABASE_URL", "sqlite:///:memory:", environ={"DATABASE_URL": url})


def test_it_accepts_redis_urls_and_refuses_others():
    assert env_redis_url("REDIS_URL", environ={}) is None
    assert env_redis_url("REDIS_URL", environ={"REDIS_URL": "redis://r:6379/0"}) == (
        "redis://r:6379/0"
    )
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL='http://r'"):
        env_redis_url("REDIS_URL", environ={"REDIS_URL": "http://r"})


def test_a_public_url_is_a_scheme_a_host_and_a_port_without_a_path():
    assert env_public_url("PUBLIC_URL", environ={}) is None
    read = {"PUBLIC_URL": "http://192.168.1.20:8000/"}
    assert env_public_url("PUBLIC_URL", environ=read) == "http://192.168.1.20:8000"
    read = {"PUBLIC_URL": "https://Scrabble.example.org"}
    assert env_public_url("PUBLIC_URL", environ=read) == "https://scrabble.example.org"
    read = {"PUBLIC_URL": "http://[fd00::2]:8000"}
    assert env_public_url("PUBLIC_URL", environ=read) == "http://[fd00::2]:8000"
    assert url_host("http://[fd00::2]:8000") == "[fd00::2]"
    assert url_host("http://192.168.1.20:8000") == "192.168.1.20"


@pytest.mark.parametrize(
    "url",
    [
        "192.168.1.20:8000",
        "ftp://192.168.1.20",
        "http://192.168.1.20:8000/play/",
        "http://192.168.1.20:port",
        "http://u:p@192.168.1.20",
        "http://192.168.1.20/?x=1",
        "http://",
    ],
)
def test_it_refuses_a_public_url_phones_could_not_open(url):
    with pytest.raises(EnvironmentValueError, match=r"PUBLIC_URL=.* expected http://ADDRESS:PORT"):
        env_public_url("PUBLIC_URL", environ={"PUBLIC_URL": url})

from __future__ import annotations

from tests.config.settings_probe import settings_chosen, settings_probe


def test_it_runs_embedded_with_no_variable_set(tmp_path):
    chosen = settings_chosen({}, tmp_path)
    assert chosen["DEBUG"] is True
    assert "DEV-ONLY" in chosen["SECRET_KEY"]
    assert chosen["DATABASE_ENGINE"] == "django.db.backends.sqlite3"
    assert chosen["DATABASE_NAME"] == str(tmp_path / "db.sqlite3")
    assert chosen["BROKER_URL"] == "filesystem://localhost/"
    assert chosen["PUBLIC_URL"] is None
    assert chosen["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    assert chosen["TIME_ZONE"] == "UTC"
    assert (tmp_path / "celery" / "queue").is_dir()


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off(tmp_path):
    result = settings_probe({"DEBUG": "false"}, tmp_path)
    assert result.returncode != 0
    assert result.stderr.startswith("Configuration error: SECRET_KEY is not set")
    assert "Traceback" not in result.stderr


def test_it_uses_postgresql_and_redis_when_their_urls_are_set(tmp_path):
    chosen = settings_chosen(
        {
            "DEBUG": "false",
            "SECRET_KEY": "s" * 50,
            "DATABASE_URL": "postgres://u:p@db:5432/duplicate",
            "REDIS_URL": "redis://cache:6379/0",
            "ALLOWED_HOSTS": "scrabble.example.org",
        },
        tmp_path,
    )
    assert chosen["DATABASE_ENGINE"] == "django.db.backends.postgresql"
    assert chosen["DATABASE_HOST"] == "db"
    assert chosen["BROKER_URL"] == "redis://cache:6379/0"
    assert chosen["ALLOWED_HOSTS"] == ["scrabble.example.org"]
    assert not (tmp_path / "celery").exists()


def test_it_stops_with_the_variable_name_when_a_value_is_bad(tmp_path):
    for env, expected in [
        ({"TIME_ZONE": "Europe/Atlantis"}, "TIME_ZONE='Europe/Atlantis' is not valid"),
        ({"DATABASE_URL": "mongodb://x/y"}, "DATABASE_URL='mongodb://x/y' is not valid"),
        ({"DEBUG": "sometimes"}, "DEBUG='sometimes' is not valid"),
        ({"LEXICONS": "nwl"}, "LEXICONS='nwl' is not valid"),
    ]:
        result = settings_probe(env, tmp_path)
        assert result.returncode != 0, env
        assert expected in result.stderr, result.stderr

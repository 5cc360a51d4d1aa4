from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456789:AAExampleTokenExampleTokenExample"


def test_defaults_and_overrides(tmp_path: Path) -> None:
    config = Config.from_env({"BOT_TOKEN": TOKEN}, dotenv=tmp_path / "none")
    assert config.api_base_url == "https://api.telegram.org/bot"
    assert config.database_url == "sqlite:///data/koloda.sqlite3"
    assert config.default_language == "ru"
    assert config.webhook_url is None
    custom = Config.from_env(
        {
            "BOT_TOKEN": TOKEN,
            "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9/bot",
            "DATABASE_PATH": str(tmp_path / "x.db"),
            "DEFAULT_LANGUAGE": "EN",
            "GROUP_EDITS_PER_MINUTE": "10",
            "COMPUTER_PAUSE_MS": "0",
            "COMPUTER_WORKERS": "1",
        },
        dotenv=tmp_path / "none",
    )
    assert custom.api_base_url == "http://127.0.0.1:9/bot"
    assert custom.database_url == f"sqlite:///{tmp_path / 'x.db'}"  # DATABASE_PATH, as before
    assert custom.default_language == "en"
    assert custom.group_edits_per_minute == 10
    assert custom.computer_pause_ms == 0
    assert (config.computer_workers, custom.computer_workers) == (0, 1)


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///data/koloda.sqlite3",
        "sqlite:////var/lib/koloda/koloda.sqlite3",
        "postgresql://koloda:secret@db.example:5432/koloda",
        "postgres://koloda@/koloda?host=/run/postgresql",
    ],
)
def test_database_url_names_either_backend_and_wins_over_database_path(
    tmp_path: Path, url: str
) -> None:
    env = {"BOT_TOKEN": TOKEN, "DATABASE_URL": url, "DATABASE_PATH": "old.sqlite3"}
    config = Config.from_env(env, dotenv=tmp_path / "none")
    assert config.database_url == url
    assert "secret" not in repr(config)


@pytest.mark.parametrize(
    ("database", "webhook", "several"),
    [
        ("postgresql://koloda@db/koloda", "https://bot.example/hook", True),
        ("postgresql://koloda@db/koloda", "", False),  # long polling: one process
        ("sqlite:///data/koloda.sqlite3", "https://bot.example/hook", False),
    ],
)
def test_a_webhook_on_postgresql_makes_the_bot_one_of_several_workers(
    tmp_path: Path, database: str, webhook: str, several: bool
) -> None:
    env = {"BOT_TOKEN": TOKEN, "DATABASE_URL": database, "WEBHOOK_URL": webhook}
    config = Config.from_env(env, dotenv=tmp_path / "none")
    assert config.several_workers is several
    assert config.worker_id is None
    assert config.lease_seconds == 10
    named = Config.from_env(
        {**env, "WORKER_ID": " web-2 ", "LEASE_SECONDS": "4"}, dotenv=tmp_path / "none"
    )
    assert named.worker_id == "web-2"
    assert named.lease_seconds == 4
    with pytest.raises(ConfigError, match="LEASE_SECONDS"):
        Config.from_env({**env, "LEASE_SECONDS": "1"}, dotenv=tmp_path / "none")


@pytest.mark.parametrize("language", ["ru", "uk", "en", "ka"])
def test_every_language_may_be_the_default(tmp_path: Path, language: str) -> None:
    env = {"BOT_TOKEN": TOKEN, "DEFAULT_LANGUAGE": language}
    assert Config.from_env(env, dotenv=tmp_path / "none").default_language == language


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(f"BOT_TOKEN={TOKEN}\nLOG_LEVEL=debug\n", encoding="utf-8")
    assert Config.from_env({}, dotenv=dotenv).log_level == "DEBUG"
    assert Config.from_env({"LOG_LEVEL": "ERROR"}, dotenv=dotenv).log_level == "ERROR"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "BOT_TOKEN is not set"),
        ({"BOT_TOKEN": "nonsense"}, "does not look like a bot token"),
        ({"BOT_TOKEN": TOKEN, "DEFAULT_LANGUAGE": "de"}, "ru, uk, en, ka"),
        ({"BOT_TOKEN": TOKEN, "GROUP_EDITS_PER_MINUTE": "x"}, "whole number"),
        ({"BOT_TOKEN": TOKEN, "GROUP_EDITS_PER_MINUTE": "0"}, "between"),
        ({"BOT_TOKEN": TOKEN, "COMPUTER_PAUSE_MS": "60000"}, "between"),
        ({"BOT_TOKEN": TOKEN, "COMPUTER_WORKERS": "-1"}, "between"),
        ({"BOT_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "api.telegram.org/bot"}, "http"),
        ({"BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "ftp://x/bot"}, "http"),
        ({"BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "http://127.0.0.1:81"}, "appended"),
        ({"BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "http://"}, "TELEGRAM_API_BASE_URL"),
        ({"BOT_TOKEN": TOKEN, "TELEGRAM_FILE_BASE_URL": "http://h:x/f"}, "TELEGRAM_FILE_BASE"),
        ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "mysql://h/koloda"}, "'mysql' is not a database"),
        ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "sqlite:///"}, "names no file"),
        ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "sqlite://data/k.sqlite3"}, "sqlite:///path"),
        ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "postgresql://u:pw@h:x/k"}, "port of"),
        ({"BOT_TOKEN": TOKEN, "DATABASE_URL": "postgresql://u:pw@h"}, "names no database"),
    ],
)
def test_bad_settings_are_explained(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.from_env(env, dotenv=tmp_path / "none")


def test_an_unreadable_dotenv_is_explained(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"BOT_TOKEN=\xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        Config.from_env({}, dotenv=dotenv)


def test_the_token_never_appears_in_repr() -> None:
    assert TOKEN not in repr(Config(token=TOKEN))


def test_a_malformed_token_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """(Without any token the playground opens: tests/test_playground.py.)"""
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "", "BOT_TOKEN": "nonsense"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "@BotFather" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1

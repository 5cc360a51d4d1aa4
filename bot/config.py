"""Settings from the environment (and a ``.env`` file beside the working directory)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from i18n import LANGUAGES
from storage.url import DatabaseUrl, sqlite_url

__all__ = ["DEFAULT_DATABASE", "Config", "ConfigError", "MissingToken", "database_url"]

DEFAULT_DATABASE = sqlite_url("data/koloda.sqlite3")

_TOKEN = re.compile(r"^\d{3,}:[A-Za-z0-9_-]{8,}$")
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A one-line explanation of what to fix."""


class MissingToken(ConfigError):
    """No BOT_TOKEN at all (the run command then opens the playground)."""


@dataclass(frozen=True)
class Config:
    token: str
    api_base_url: str = "https://api.telegram.org/bot"
    file_base_url: str = "https://api.telegram.org/file/bot"
    database_url: str = DEFAULT_DATABASE
    """``sqlite:///PATH`` or ``postgresql://...`` (:mod:`storage.url`)."""
    log_level: str = "INFO"
    default_language: str = "ru"
    group_edits_per_minute: int = 20
    overall_rate: float = 30.0
    computer_pause_ms: int = 1500
    """The longest a computer waits before its move (it waits half to all of
    it), so that people can follow the table."""
    computer_thinking_percent: int = 100
    """The share of each level's time (normal 0.3 s, hard 1 s) a searching
    computer thinks: less on a slow machine, or in tests."""
    computer_workers: int = 0
    """Processes the computers' searches run in (0: one per CPU core): fewer on
    a machine the bot shares, or in tests."""
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"  # noqa: S104 - the webhook server must be reachable
    webhook_port: int = 8443
    webhook_secret: str | None = None
    lease_seconds: int = 10
    """With several workers: how long a worker's hold on a chat lasts unless
    renewed, so how soon a dead worker's chats are taken over."""
    worker_id: str | None = None
    """This worker's name in the logs and the database (``WORKER_ID``; by
    default ``hostname:pid:random``), when several share one database."""

    @property
    def several_workers(self) -> bool:
        """Webhook mode on PostgreSQL: any number of workers may run, each
        acting on the chats it holds (:mod:`bot.worker`).  Long polling and
        SQLite run one process, which acts on every chat."""
        return self.webhook_url is not None and DatabaseUrl.parse(self.database_url).postgres

    def __repr__(self) -> str:  # never print the token
        database = DatabaseUrl.parse(self.database_url).safe()
        return f"Config(api_base_url={self.api_base_url!r}, database_url={database!r})"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Config:
        """Read settings; the process environment wins over ``.env``."""
        values: dict[str, str] = {}
        dotenv_path = dotenv if dotenv is not None else Path(".env")
        if dotenv_path.is_file():
            try:
                pairs = dotenv_values(dotenv_path).items()
            except OSError as exc:
                raise ConfigError(f"cannot read {dotenv_path}: {exc.strerror or exc}") from None
            except UnicodeDecodeError:
                raise ConfigError(f"{dotenv_path} is not UTF-8 text") from None
            values.update({k: v for k, v in pairs if v is not None})
        values.update(os.environ if env is None else env)

        token = values.get("BOT_TOKEN", "").strip()
        if not token:
            raise MissingToken(
                "BOT_TOKEN is not set: create a bot with @BotFather in Telegram (/newbot), "
                "then put its token in BOT_TOKEN (environment or .env)."
            )
        if not _TOKEN.match(token):
            raise ConfigError(
                "BOT_TOKEN does not look like a bot token (digits, a colon, then letters): "
                "copy it again from @BotFather (/mybots -> API Token)."
            )
        language = values.get("DEFAULT_LANGUAGE", "ru").strip().lower() or "ru"
        if language not in LANGUAGES:
            raise ConfigError(f"DEFAULT_LANGUAGE must be one of {', '.join(LANGUAGES)}")
        level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in _LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}")
        return cls(
            token=token,
            api_base_url=_url(values, "TELEGRAM_API_BASE_URL", cls.api_base_url),
            file_base_url=_url(values, "TELEGRAM_FILE_BASE_URL", cls.file_base_url),
            database_url=_database(values),
            log_level=level,
            default_language=language,
            group_edits_per_minute=_int(values, "GROUP_EDITS_PER_MINUTE", 20, 1, 60),
            overall_rate=float(_int(values, "TELEGRAM_MAX_RATE", 30, 1, 100_000)),
            computer_pause_ms=_int(values, "COMPUTER_PAUSE_MS", 1500, 0, 10_000),
            computer_thinking_percent=_int(values, "COMPUTER_THINKING_PERCENT", 100, 1, 100),
            computer_workers=_int(values, "COMPUTER_WORKERS", 0, 0, 64),
            webhook_url=values.get("WEBHOOK_URL", "").strip() or None,
            webhook_listen=values.get("WEBHOOK_LISTEN", "0.0.0.0").strip(),  # noqa: S104
            webhook_port=_int(values, "WEBHOOK_PORT", 8443, 1, 65535),
            webhook_secret=values.get("WEBHOOK_SECRET", "").strip() or None,
            lease_seconds=_int(values, "LEASE_SECONDS", 10, 2, 300),
            worker_id=values.get("WORKER_ID", "").strip() or None,
        )


def database_url(values: Mapping[str, str]) -> str:
    """``DATABASE_URL``; else ``DATABASE_PATH``, the SQLite file of installs
    from before PostgreSQL, still honoured; else the default SQLite file."""
    url = values.get("DATABASE_URL", "").strip()
    if url:
        return url
    path = values.get("DATABASE_PATH", "").strip()
    return sqlite_url(path) if path else DEFAULT_DATABASE


def _database(values: Mapping[str, str]) -> str:
    url = database_url(values)
    try:
        DatabaseUrl.parse(url)
    except ValueError as exc:
        raise ConfigError(f"DATABASE_URL: {exc}") from None
    return url


def _int(values: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    try:
        number = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number") from None
    if not low <= number <= high:
        raise ConfigError(f"{name} must be between {low} and {high}")
    return number


def _url(values: Mapping[str, str], name: str, default: str) -> str:
    """A Bot API base URL: the token is appended to it (or put in place of ``{token}``)."""
    url = values.get(name, "").strip() or default
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        parts = parts._replace(netloc="")
    if parts.scheme not in ("http", "https") or not parts.hostname or not parts.path:
        raise ConfigError(
            f"{name} must be an http(s) URL that the token is appended to, like {default}"
        )
    return url

"""Seasons and days in UTC: a chat's season is a calendar month (``2026-11``),
and the farming cap counts games per calendar day."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["day_of", "next_season_start", "previous_season", "season_of"]


def _utc(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def season_of(at: float) -> str:
    return _utc(at).strftime("%Y-%m")


def day_of(at: float) -> str:
    return _utc(at).strftime("%Y-%m-%d")


def next_season_start(at: float) -> float:
    """When the season after the one at ``at`` begins (the next month's first
    midnight, UTC)."""
    now = _utc(at)
    year, month = (now.year + 1, 1) if now.month == 12 else (now.year, now.month + 1)
    return datetime(year, month, 1, tzinfo=UTC).timestamp()


def previous_season(at: float) -> str:
    """The season before the one at ``at``."""
    now = _utc(at)
    start = datetime(now.year, now.month, 1, tzinfo=UTC).timestamp()
    return season_of(start - 1)

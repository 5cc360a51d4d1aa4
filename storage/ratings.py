"""The ratings' records: which games were read, the rating log, achievements
and the season ends told (see ``migrations/0008_ratings.sql``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.sql import Queries

__all__ = ["FinishedGame", "RatedGame", "RatingEvent", "RatingRow", "Ratings"]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A stored result, as the ratings read it."""

    table_id: int
    chat_id: int
    outcome: dict[str, Any]
    finished_at: float


@dataclass(frozen=True, slots=True)
class RatedGame:
    table_id: int
    chat_id: int
    family: str
    skipped: str | None
    company: str
    day: str
    across: bool
    finished_at: float


@dataclass(frozen=True, slots=True)
class RatingEvent:
    """One player's rating before and after one game, in one scope."""

    table_id: int
    scope: int
    season: str
    family: str
    who: str
    share: float
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    at: float


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A rating as it stands: the latest event of one player in one scope."""

    who: str
    name: str | None
    """The person's first name (None for a computer)."""
    mu: float
    sigma: float
    games: int


_EVENT_FIELDS = (
    "table_id, scope, season, family, who, share, mu_before, sigma_before,"
    " mu_after, sigma_after, at"
)


RATINGS_LOCK = 0x726174696E6773
"""The lock held by a transaction that rates a game ("ratings")."""


class Ratings(Queries):
    async def lock(self) -> None:
        """Hold the ratings until the commit: games are rated one at a time,
        each from the ratings the one before left, whichever transaction
        finishes them (on SQLite every transaction already runs alone)."""
        statement = self._dialect.serialize(RATINGS_LOCK)
        if statement and self._conn.locks_rows:
            await self._run(statement)

    # --- the games read ---------------------------------------------------------

    async def unread_results(self) -> list[FinishedGame]:
        """Results the ratings have not read yet, in the order they finished."""
        rows = await self._all(
            "SELECT r.table_id, r.chat_id, r.outcome, r.finished_at FROM results r"
            " LEFT JOIN rated_games g ON g.table_id = r.table_id"
            " WHERE g.table_id IS NULL ORDER BY r.finished_at, r.table_id"
        )
        return [FinishedGame(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    async def finished(self, table_id: int) -> FinishedGame | None:
        row = await self._one(
            "SELECT table_id, chat_id, outcome, finished_at FROM results WHERE table_id = ?",
            (table_id,),
        )
        return None if row is None else FinishedGame(row[0], row[1], json.loads(row[2]), row[3])

    async def read_game(self, game: RatedGame) -> None:
        await self._run(
            "INSERT INTO rated_games (table_id, chat_id, family, skipped, company, day, across,"
            " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game.table_id,
                game.chat_id,
                game.family,
                game.skipped,
                game.company,
                game.day,
                int(game.across),
                game.finished_at,
            ),
        )

    async def rated_game(self, table_id: int) -> RatedGame | None:
        row = await self._one(
            "SELECT table_id, chat_id, family, skipped, company, day, across, finished_at"
            " FROM rated_games WHERE table_id = ?",
            (table_id,),
        )
        if row is None:
            return None
        return RatedGame(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])

    async def counted_across(self, company: str, day: str) -> int:
        """Games of this company on this day that counted across chats."""
        row = await self._one(
            "SELECT COUNT(*) FROM rated_games WHERE company = ? AND day = ? AND across = 1",
            (company, day),
        )
        return int(row[0]) if row else 0

    async def savepoint(self) -> None:
        """Mark where a game's rating begins, to undo it alone (:meth:`undo`)."""
        await self._run("SAVEPOINT rating")

    async def undo(self) -> None:
        await self._run("ROLLBACK TO rating")
        await self._run("RELEASE rating")

    async def keep(self) -> None:
        await self._run("RELEASE rating")

    async def clear(self) -> None:
        """Forget every rating (a recompute rebuilds them); season ends told stay told."""
        for table in ("rating_events", "rated_games", "achievements"):
            await self._run(f"DELETE FROM {table}")

    async def move_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its ratings go with it (merged into one
        that already rated games they interleave in the order of the log; a
        recompute rates them again in the order they finished)."""
        await self._run("UPDATE rating_events SET scope = ? WHERE scope = ?", (new_id, old_id))
        for table in ("rated_games", "achievements"):
            await self._run(f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
        # A season both chats were told of stays told (the old chat's row stays).
        await self._run(
            "UPDATE season_ends SET chat_id = ? WHERE chat_id = ?"
            " AND season NOT IN (SELECT season FROM season_ends WHERE chat_id = ?)",
            (new_id, old_id, new_id),
        )

    # --- the rating log -----------------------------------------------------------

    async def add_events(self, events: Sequence[RatingEvent]) -> None:
        await self._many(
            f"INSERT INTO rating_events ({_EVENT_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    e.table_id,
                    e.scope,
                    e.season,
                    e.family,
                    e.who,
                    e.share,
                    e.mu_before,
                    e.sigma_before,
                    e.mu_after,
                    e.sigma_after,
                    e.at,
                )
                for e in events
            ],
        )

    async def current(self, scope: int, season: str, family: str, who: str) -> RatingRow | None:
        row = await self._one(
            "SELECT mu_after, sigma_after, (SELECT COUNT(*) FROM rating_events"
            "  WHERE scope = ? AND season = ? AND family = ? AND who = ?)"
            " FROM rating_events WHERE scope = ? AND season = ? AND family = ? AND who = ?"
            " ORDER BY id DESC LIMIT 1",
            (scope, season, family, who) * 2,
        )
        return None if row is None else RatingRow(who, None, row[0], row[1], row[2])

    async def standings(self, scope: int, season: str, family: str) -> list[RatingRow]:
        """Every player's rating in one scope and family (unordered)."""
        rows = await self._all(
            "SELECT e.who, u.first_name, e.mu_after, e.sigma_after, last.games"
            " FROM (SELECT MAX(id) AS id, COUNT(*) AS games FROM rating_events"
            "  WHERE scope = ? AND season = ? AND family = ? GROUP BY who) last"
            " JOIN rating_events e ON e.id = last.id"
            " LEFT JOIN users u ON u.id ="
            " CASE WHEN e.who LIKE 'u%' THEN CAST(substr(e.who, 2) AS BIGINT) END",
            (scope, season, family),
        )
        return [RatingRow(*r) for r in rows]

    async def families(self, scope: int, season: str) -> list[str]:
        rows = await self._all(
            "SELECT DISTINCT family FROM rating_events WHERE scope = ? AND season = ?"
            " ORDER BY family",
            (scope, season),
        )
        return [r[0] for r in rows]

    async def events(self, *, table_id: int | None = None) -> list[RatingEvent]:
        """The log (of one table), in order."""
        where, params = ("WHERE table_id = ?", (table_id,)) if table_id is not None else ("", ())
        rows = await self._all(
            f"SELECT {_EVENT_FIELDS} FROM rating_events {where} ORDER BY id", params
        )
        return [RatingEvent(*r) for r in rows]

    async def history(self, scope: int, who: str) -> list[RatingEvent]:
        """One player's events in one scope (every season and family), in order."""
        rows = await self._all(
            f"SELECT {_EVENT_FIELDS} FROM rating_events WHERE scope = ? AND who = ? ORDER BY id",
            (scope, who),
        )
        return [RatingEvent(*r) for r in rows]

    # --- achievements ------------------------------------------------------------------

    async def award(self, user_id: int, code: str, table_id: int, chat_id: int) -> bool:
        """Give ``code`` to the person; False if he had it already."""
        return bool(
            await self._changed(
                "INSERT INTO achievements (user_id, code, table_id, chat_id, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (user_id, code, table_id, chat_id, self._now()),
            )
        )

    async def achievements(
        self, *, user_id: int | None = None, table_id: int | None = None
    ) -> list[tuple[int, str]]:
        """``(user_id, code)`` of one person's achievements or of those one
        table earned, in the order they were earned."""
        column, value = ("user_id", user_id) if user_id is not None else ("table_id", table_id)
        rows = await self._all(
            f"SELECT user_id, code FROM achievements WHERE {column} = ? ORDER BY at, code",
            (value,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    # --- seasons ------------------------------------------------------------------------

    async def seasons_untold(self, season: str) -> list[int]:
        """The chats that had rated games in ``season`` and have not been told
        its end."""
        rows = await self._all(
            "SELECT DISTINCT e.scope FROM rating_events e"
            " LEFT JOIN season_ends s ON s.chat_id = e.scope AND s.season = e.season"
            " WHERE e.scope != 0 AND e.season = ? AND s.chat_id IS NULL ORDER BY e.scope",
            (season,),
        )
        return [int(r[0]) for r in rows]

    async def seasons(self, chat_id: int) -> list[tuple[int, str]]:
        """``(chat, season)`` of the chat's seasons with rated games, in order."""
        rows = await self._all(
            "SELECT DISTINCT scope, season FROM rating_events WHERE scope = ? ORDER BY season",
            (chat_id,),
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def season_told(self, chat_id: int, season: str) -> None:
        await self._run(
            "INSERT INTO season_ends (chat_id, season, posted_at) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (chat_id, season, self._now()),
        )

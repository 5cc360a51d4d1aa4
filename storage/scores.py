"""Game results and the per-chat score table."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from storage.sql import Queries

__all__ = ["ScoreDelta", "ScoreRow", "Scores"]


@dataclass(frozen=True, slots=True)
class ScoreRow:
    user_id: int
    first_name: str
    game: str
    with_computers: bool
    played: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class ScoreDelta:
    user_id: int
    win: bool
    loss: bool
    draw: bool


class Scores(Queries):
    async def record_result(
        self, table_id: int, chat_id: int, game: str, outcome: dict[str, Any]
    ) -> None:
        await self._run(
            "INSERT INTO results (table_id, chat_id, game, outcome, finished_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (table_id, chat_id, game, json.dumps(outcome), self._now()),
        )

    async def result(self, table_id: int) -> dict[str, Any] | None:
        row = await self._one("SELECT outcome FROM results WHERE table_id = ?", (table_id,))
        return None if row is None else dict(json.loads(row[0]))

    async def add(
        self, chat_id: int, game: str, deltas: Iterable[ScoreDelta], *, with_computers: bool
    ) -> None:
        await self._many(
            "INSERT INTO scores (chat_id, game, user_id, with_computers, played, wins, losses,"
            " draws) VALUES (?, ?, ?, ?, 1, ?, ?, ?)"
            " ON CONFLICT (chat_id, game, user_id, with_computers) DO UPDATE SET"
            " played = scores.played + 1, wins = scores.wins + excluded.wins,"
            " losses = scores.losses + excluded.losses, draws = scores.draws + excluded.draws",
            [
                (
                    chat_id,
                    game,
                    d.user_id,
                    int(with_computers),
                    int(d.win),
                    int(d.loss),
                    int(d.draw),
                )
                for d in deltas
            ],
        )

    async def leaderboard(self, chat_id: int) -> list[ScoreRow]:
        """Every player's figures per game in the chat, counting only games among
        people (the services rank them)."""
        rows = await self._all(
            "SELECT s.user_id, u.first_name, s.game, s.with_computers, s.played, s.wins,"
            " s.losses, s.draws FROM scores s JOIN users u ON u.id = s.user_id"
            " WHERE s.chat_id = ? AND s.with_computers = 0"
            " ORDER BY s.game, u.first_name, s.user_id",
            (chat_id,),
        )
        return [ScoreRow(r[0], r[1], r[2], bool(r[3]), *r[4:]) for r in rows]

    async def user_stats(self, user_id: int, chat_id: int | None = None) -> list[ScoreRow]:
        """One user's figures per game and opposition (people only, or with
        computers), in one chat or summed over all chats."""
        where, params = ("s.user_id = ?", [user_id])
        if chat_id is not None:
            where += " AND s.chat_id = ?"
            params.append(chat_id)
        rows = await self._all(
            "SELECT s.user_id, u.first_name, s.game, s.with_computers, SUM(s.played),"
            " SUM(s.wins), SUM(s.losses), SUM(s.draws) FROM scores s"
            f" JOIN users u ON u.id = s.user_id WHERE {where}"
            # One user: grouping by him and his name too changes no group.
            " GROUP BY s.game, s.with_computers, s.user_id, u.first_name"
            " ORDER BY s.game, s.with_computers",
            params,
        )
        # PostgreSQL sums integers as NUMERIC (Decimal).
        return [ScoreRow(r[0], r[1], r[2], bool(r[3]), *map(int, r[4:])) for r in rows]

"""Leaderboards and personal figures.

A chat's leaderboard ranks each game's players by their share of wins (in
Durak a win is any game one did not end as the durak; a draw counts half),
among players with :data:`MIN_GAMES` games or more, so that one lucky game
does not top the table; equal shares rank the one who played more first.
Players with fewer games are listed apart, most games first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from storage import Database, ScoreRow

__all__ = ["MIN_GAMES", "SHOWN", "Scores", "Standings", "win_share"]

MIN_GAMES = 3
"""Games a player needs before he is ranked."""
SHOWN = 20
"""Players listed per game (ranked ones first)."""


def win_share(row: ScoreRow) -> float:
    """Wins per game, a draw counting half (0 with no games)."""
    return (row.wins + row.draws / 2) / row.played if row.played else 0.0


@dataclass(frozen=True, slots=True)
class Standings:
    """One game's leaderboard in a chat."""

    ranked: list[ScoreRow] = field(default_factory=list)
    """Players with :data:`MIN_GAMES` games or more, best first."""
    newcomers: list[ScoreRow] = field(default_factory=list)
    """Players with fewer games, most games first."""


class Scores:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def leaderboard(self, chat_id: int) -> dict[str, Standings]:
        """Per game key, the chat's standings in games among people only (wins
        against computers rank nobody)."""
        async with self._db.read() as tx:
            rows = await tx.scores.leaderboard(chat_id)
        per_game: dict[str, list[ScoreRow]] = {}
        for row in rows:
            per_game.setdefault(row.game, []).append(row)
        board: dict[str, Standings] = {}
        for game, players in per_game.items():
            ranked = sorted(
                (r for r in players if r.played >= MIN_GAMES),
                key=lambda r: (-win_share(r), -r.played, r.first_name, r.user_id),
            )
            newcomers = sorted(
                (r for r in players if r.played < MIN_GAMES),
                key=lambda r: (-r.played, -win_share(r), r.first_name, r.user_id),
            )
            shown = ranked[:SHOWN]
            board[game] = Standings(shown, newcomers[: SHOWN - len(shown)])
        return board

    async def stats(self, user_id: int, chat_id: int | None = None) -> list[ScoreRow]:
        """Per game, games among people and games with computers apart."""
        async with self._db.read() as tx:
            return await tx.scores.user_stats(user_id, chat_id)

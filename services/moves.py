"""Playing a move: one transaction that validates, applies, logs and scores."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games import registry
from games.core import ActionParseError, Event, Game, IllegalAction, Outcome
from services.errors import ServiceError
from storage import Database, ScoreDelta, TableRow, Tx

__all__ = ["GameCache", "MoveResult", "Moves", "load_game"]


def load_game(table: TableRow) -> Game[Any, Any]:
    if table.state is None:
        raise ServiceError("error.not_started")
    return registry.get(table.game).game.load(table.state)


class GameCache:
    """The last loaded state of recently active tables, keyed by table version.

    A stored state never changes for a given version, so a hit is exact;
    loading from JSON is the costliest step of a move after the network.
    Games handed out are shared and must only be read; :meth:`Moves.play`
    clones before applying."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._games: dict[int, tuple[int, Game[Any, Any]]] = {}

    def get(self, table: TableRow) -> Game[Any, Any]:
        hit = self._games.get(table.id)
        if hit is not None and hit[0] == table.version:
            return hit[1]
        game = load_game(table)
        self.put(table.id, table.version, game)
        return game

    def put(self, table_id: int, version: int, game: Game[Any, Any]) -> None:
        self._games.pop(table_id, None)
        if len(self._games) >= self._size:  # drop the least recently stored
            del self._games[next(iter(self._games))]
        self._games[table_id] = (version, game)


@dataclass(frozen=True, slots=True)
class MoveResult:
    table: TableRow
    game: Game[Any, Any]
    seat: int
    events: list[Event]
    outcome: Outcome | None


class Moves:
    def __init__(self, db: Database) -> None:
        self._db = db
        self.games = GameCache()

    async def play(
        self,
        table_id: int,
        user_id: int,
        action_code: str,
        *,
        made_at: int,
    ) -> MoveResult:
        """Apply one move by ``user_id`` from a button made when the table had
        ``made_at`` moves.

        A button made before the presser's own last move is stale: that is an
        old keyboard, or the second of two quick presses.  A newer button whose
        move is still legal is accepted even if others moved meanwhile.
        Anything stale, forged or illegal is refused with a
        :class:`ServiceError` and changes nothing.
        """
        async with self._db.transaction() as tx:
            table, seat = await self._checked_seat(tx, table_id, user_id, made_at)
            game = self.games.get(table).clone()
            try:
                action = type(game).decode_action(action_code)
            except ActionParseError:
                raise ServiceError("error.bad_button") from None
            try:
                events = game.apply(seat, action)
            except IllegalAction as exc:
                raise ServiceError(exc.reason, **exc.params) from None
            outcome = game.outcome()
            n = table.moves + 1
            state = game.dump()
            status = "finished" if outcome is not None else table.status
            version = await tx.update_table(
                table.id, table.version, state=state, moves=n, status=status
            )
            await tx.append_move(table.id, n, seat, action_code, [e.to_json() for e in events])
            await tx.invalidate_keyboard(table.id, seat)
            if outcome is not None:
                await self._finish(tx, table, outcome)
        self.games.put(table.id, version, game)
        # The row as it now stands, without reading it back.
        seats = tuple(
            replace(s, keyboard=None, hand_digest=None) if s.seat == seat else s
            for s in table.seats
        )
        after = replace(table, state=state, version=version, moves=n, status=status, seats=seats)
        return MoveResult(after, game, seat, events, outcome)

    async def button_seat(self, table_id: int, user_id: int, made_at: int) -> tuple[TableRow, int]:
        """The presser's seat, if a button made at ``made_at`` is still his to
        press (same checks as :meth:`play`, for buttons that only open menus)."""
        async with self._db.read() as tx:
            return await self._checked_seat(tx, table_id, user_id, made_at)

    async def _checked_seat(
        self, tx: Tx, table_id: int, user_id: int, made_at: int
    ) -> tuple[TableRow, int]:
        table = await tx.get_table(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        if table.status != "playing":
            raise ServiceError("error.game_not_running")
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_your_table")
        if not await tx.last_move_of(table.id, seat) <= made_at <= table.moves:
            raise ServiceError("error.stale_button")
        return table, seat

    async def _finish(self, tx: Tx, table: TableRow, outcome: Outcome) -> None:
        await tx.record_result(table.id, table.chat_id, table.game, outcome.to_json())
        await tx.add_scores(
            table.chat_id,
            table.game,
            [
                ScoreDelta(
                    user_id=s.user_id,
                    win=s.seat in outcome.winners,
                    loss=s.seat in outcome.losers,
                    draw=outcome.draw,
                )
                for s in table.seats
            ],
        )

    async def recent_events(self, table_id: int, limit: int) -> list[tuple[int, Event]]:
        """The last events of a table with the move number they belong to."""
        async with self._db.read() as tx:
            moves = await tx.last_moves(table_id, limit)
        out = [(m.n, Event.from_json(e)) for m in moves for e in m.events]
        return out[-limit:]

    async def outcome(self, table_id: int) -> Outcome | None:
        async with self._db.read() as tx:
            raw = await tx.get_result(table_id)
        return None if raw is None else Outcome.from_json(raw)

"""A game's history: the game as it was dealt and its move log, played forward
position by position.

Verification, replays, the analysis of a player's moves and the ratings all
read a game through :class:`History`, so they agree on what happened: the
positions are the engine's own, rebuilt from the stored deal by the stored
moves, never a second record kept beside them.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Event, Game, GameError, perform
from games.spec import GameSpec
from services.errors import ServiceError
from services.snapshots import Snapshots
from storage import Database, MoveRow, Status, TableRow

__all__ = ["Histories", "History", "HistoryError", "Step"]

log = logging.getLogger(__name__)

_ALL_MOVES = 1_000_000


class HistoryError(Exception):
    """The log does not replay: ``move`` did not come out as it was logged."""

    def __init__(self, move: int) -> None:
        super().__init__(f"move {move} does not replay")
        self.move = move


@dataclass(frozen=True, slots=True)
class Step:
    """One logged move and the position it led to."""

    move: MoveRow
    game: Game[Any, Any, Any, Any]
    """The position after the move: the caller's own copy."""
    events: list[Event]


@dataclass(frozen=True, slots=True)
class History:
    """A dealt game's record: its table, the game as dealt and every move."""

    table: TableRow
    spec: GameSpec
    dealt: dict[str, Any]
    moves: tuple[MoveRow, ...]

    @property
    def over(self) -> bool:
        return self.table.status is not Status.PLAYING

    def start(self) -> Game[Any, Any, Any, Any]:
        """The game as it was dealt, before the first move."""
        return self.spec.game.load(self.dealt)

    def steps(self) -> Iterator[Step]:
        """Every move in order with the position after it; raises
        :class:`HistoryError` at a move that does not replay as logged."""
        game = self.start()
        for move in self.moves:
            try:
                events = perform(game, move.seat, move.action)
            except GameError as exc:
                raise HistoryError(move.n) from exc
            if [e.to_json() for e in events] != move.events:
                raise HistoryError(move.n)
            yield Step(move, game.clone(), events)

    def position(self, moves: int) -> Game[Any, Any, Any, Any]:
        """The game after its first ``moves`` moves (0: as dealt)."""
        if not 0 <= moves <= len(self.moves):
            raise ValueError(f"the game has {len(self.moves)} moves")
        game = self.start()
        for _ in _played(game, self.moves[:moves]):
            pass
        return game

    def public_views(self, after: Collection[int]) -> dict[int, Any]:
        """The public view right after each of the moves numbered ``after``
        (those the log holds), in one pass over the log."""
        wanted = set(after)
        views: dict[int, Any] = {}
        game = self.start()
        for move in _played(game, self.moves):
            if move.n in wanted:
                views[move.n] = game.public_view()
                if len(views) == len(wanted):
                    break
        return views

    def moves_by_seat(self) -> dict[int, dict[str, int]]:
        """Per seat, how many of its moves each actor made (``player``,
        ``computer``, ``timer``, ``admin``): who really played the seat."""
        shares: dict[int, dict[str, int]] = {}
        for move in self.moves:
            by_actor = shares.setdefault(move.seat, {})
            by_actor[move.actor.value] = by_actor.get(move.actor.value, 0) + 1
        return shares


def _played(game: Game[Any, Any, Any, Any], moves: Sequence[MoveRow]) -> Iterator[MoveRow]:
    """Each of ``moves`` once ``game`` (moved on in place) has made it; raises
    :class:`HistoryError` at one the game refuses."""
    for move in moves:
        try:
            perform(game, move.seat, move.action)
        except GameError as exc:
            raise HistoryError(move.n) from exc
        yield move


class Histories:
    """Reads games' histories from the database."""

    def __init__(self, db: Database, snapshots: Snapshots) -> None:
        self._db = db
        self._snapshots = snapshots

    async def of(self, table_id: int) -> History:
        """The history of a dealt table; :class:`ServiceError` when there is no
        such table or its game was never dealt (or was dealt before deals were
        kept)."""
        async with self._db.read() as tx:
            table = await tx.tables.get(table_id)
            if table is None:
                raise ServiceError("fair.unknown", id=table_id)
            dealt = await tx.tables.deal(table_id)
            if table.seed is None or table.state is None or dealt is None:
                raise ServiceError("fair.not_dealt", id=table_id)
            moves = await tx.tables.moves_after(table_id, 0, _ALL_MOVES)
        return History(table, self._snapshots.spec(table.game), dealt, tuple(moves))

    async def public_views(self, table_id: int, after: Collection[int]) -> dict[int, Any]:
        """The public view right after each of the moves numbered ``after``
        (for a post made late, which shows its move's position, not the
        latest); none for a game whose deal was not kept or whose log does not
        replay (logged: a bug)."""
        if not after:
            return {}
        try:
            return (await self.of(table_id)).public_views(after)
        except ServiceError:
            return {}
        except HistoryError:
            log.exception("table %s: the move log does not replay", table_id)
            return {}

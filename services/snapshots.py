"""Reading tables: the :class:`Snapshot` a table's screens are painted from, the
cache of recently played games it is built from, and the listings of tables.

Nothing here changes a table (that is :mod:`services.tables`); the move
pipeline and the unit of work read through the same :class:`Snapshots`, so a
table is loaded one way whoever looks at it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Action, Event, Game, Outcome, Rules, Wait
from games.spec import GameSpec
from players.search import Situation
from services import turns
from services.errors import ServiceError
from storage import Actor, Database, DeadlineRow, MoveRow, SeatRow, Status, TableRow, Tx

__all__ = ["RECENT", "GameCache", "LoggedEvent", "Snapshot", "Snapshots"]

RECENT = 6
"""Events a snapshot carries for the screens (the latest moves')."""


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """An event of the move log, with the seat that made the move and who acted
    for it (its own player, a computer, the timer, an admin)."""

    move: int
    seat: int
    actor: Actor
    event: Event


class Snapshot:
    """A table at one version: everything its screens are painted from.

    Views and legal actions are worked out when first asked for and kept; the
    game inside is shared and never changed (moves are applied to a copy)."""

    __slots__ = (
        "_game",
        "_legal",
        "_public",
        "_views",
        "deadlines",
        "levels_differ",
        "recent",
        "rules",
        "spec",
        "table",
    )

    def __init__(
        self,
        table: TableRow,
        spec: GameSpec,
        rules: Rules,
        game: Game[Any, Any, Any, Any] | None,
        deadlines: Sequence[DeadlineRow],
        recent: Sequence[LoggedEvent],
        *,
        levels_differ: bool = True,
    ) -> None:
        self.table = table
        self.spec = spec
        self.rules = rules
        self.levels_differ = levels_differ
        """Whether the game's computer plays differently at each level (not
        where its heuristic already chooses exactly)."""
        self.deadlines: Mapping[int, DeadlineRow] = {d.seat: d for d in deadlines}
        self.recent = tuple(recent)
        self._game = game
        self._public: Any = None
        self._views: dict[int, Any] = {}
        self._legal: dict[int, tuple[Action, ...]] = {}

    @property
    def started(self) -> bool:
        return self._game is not None

    @property
    def public(self) -> Any:
        """The view everybody may see (only once the game has started): the
        game's own public view type, which its screens take."""
        if self._public is None:
            self._public = self._started().public_view()
        return self._public

    def view(self, seat: int) -> Any:
        """What ``seat`` may see (the game's seat view type)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._started().view(seat)
        return view

    def situation(self, seat: int) -> Situation:
        """What ``seat`` knows, for a search player: a world dealt from it."""
        return Situation.of(self._started(), seat)

    def legal(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do now (nothing unless the game is being played)."""
        actions = self._legal.get(seat)
        if actions is None:
            playing = self.table.status is Status.PLAYING and self._game is not None
            actions = tuple(self._game.legal_actions(seat)) if playing else ()  # type: ignore[union-attr]
            self._legal[seat] = actions
        return actions

    def waits(self) -> Mapping[int, Wait]:
        if self.table.status is not Status.PLAYING or self._game is None:
            return {}
        return self._game.waits()

    def outcome(self) -> Outcome | None:
        return None if self._game is None else self._game.outcome()

    def seat(self, seat: int) -> SeatRow:
        return self.table.seats[seat]

    def acts_for(self, seat: int) -> bool:
        """A computer moves this seat: a computer's own, or an absent player's
        where absentees are played by a computer."""
        return turns.played_by_computer(self.table, seat)

    def _started(self) -> Game[Any, Any, Any, Any]:
        if self._game is None:
            raise ServiceError("error.not_started")
        return self._game


@dataclass(slots=True)
class _Cached:
    moves: int
    game: Game[Any, Any, Any, Any]
    recent: tuple[LoggedEvent, ...] | None


class GameCache:
    """The state of recently active tables, by table and move count.

    Once a game has started, its state at a move count never changes, so a hit
    is exact; loading from JSON is the costliest step of a move after the
    network.  Games handed out are shared and only read: moves clone them."""

    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._entries: dict[int, _Cached] = {}

    def get(self, table: TableRow, load: Callable[[TableRow], Game[Any, Any, Any, Any]]) -> _Cached:
        hit = self._entries.get(table.id)
        if hit is not None and hit.moves == table.moves:
            return hit
        return self.put(table.id, table.moves, load(table), None)

    def put(
        self,
        table_id: int,
        moves: int,
        game: Game[Any, Any, Any, Any],
        recent: tuple[LoggedEvent, ...] | None,
    ) -> _Cached:
        self._entries.pop(table_id, None)
        if len(self._entries) >= self._size:  # drop the least recently stored
            del self._entries[next(iter(self._entries))]
        entry = self._entries[table_id] = _Cached(moves, game, recent)
        return entry


def _logged(moves: Sequence[MoveRow]) -> tuple[LoggedEvent, ...]:
    return tuple(
        LoggedEvent(m.n, m.seat, m.actor, Event.from_json(e)) for m in moves for e in m.events
    )[-RECENT:]


class Snapshots:
    """The tables as they stand: snapshots for display, the game specs, and the
    listings of open tables."""

    def __init__(
        self,
        db: Database,
        games: Mapping[str, GameSpec],
        *,
        same_at_every_level: frozenset[str] = frozenset(),
    ) -> None:
        """``same_at_every_level``: the games whose computer plays alike at
        every level."""
        self._db = db
        self._games = games
        self._same_at_every_level = same_at_every_level
        self._cache = GameCache()

    @property
    def games(self) -> Mapping[str, GameSpec]:
        return self._games

    def levels_differ(self, game: str) -> bool:
        """Whether the computers' level changes how they play ``game``."""
        return game not in self._same_at_every_level

    def spec(self, game: str) -> GameSpec:
        try:
            return self._games[game]
        except KeyError:
            raise ServiceError("error.unknown_game", game=game) from None

    def rules_of(self, table: TableRow) -> Rules:
        return self.spec(table.game).rules.from_json(table.rules)

    # --- snapshots ----------------------------------------------------------------

    async def snapshot(self, table_id: int) -> Snapshot:
        async with self._db.read() as tx:
            return await self.read(tx, await self.row(tx, table_id))

    async def snapshot_in(self, chat_id: int, thread_id: int) -> Snapshot | None:
        """The open table of a chat (or forum topic)."""
        async with self._db.read() as tx:
            table = await tx.tables.open_in(chat_id, thread_id)
            return None if table is None else await self.read(tx, table)

    async def last_played_in(self, chat_id: int, thread_id: int) -> Snapshot | None:
        """The table a chat (or forum topic) is playing, else its last finished one."""
        async with self._db.read() as tx:
            table = await tx.tables.last_played_in(chat_id, thread_id)
            return None if table is None else await self.read(tx, table)

    # --- listings -------------------------------------------------------------------

    async def table(self, table_id: int) -> TableRow:
        """A table's row (no game loaded)."""
        async with self._db.read() as tx:
            return await self.row(tx, table_id)

    async def open_tables(self) -> list[TableRow]:
        async with self._db.read() as tx:
            return await tx.tables.all_open()

    async def tables_of(self, user_id: int) -> list[TableRow]:
        """The open tables the user sits at."""
        async with self._db.read() as tx:
            return await tx.tables.open_of_user(user_id)

    async def tables_in_chat(self, chat_id: int) -> list[TableRow]:
        async with self._db.read() as tx:
            return await tx.tables.open_in_chat(chat_id)

    async def events_after(
        self, table_id: int, after: int, limit: int = 10_000
    ) -> list[LoggedEvent]:
        """Events of the moves numbered above ``after``, oldest first."""
        async with self._db.read() as tx:
            moves = await tx.tables.moves_after(table_id, after, limit)
        return [
            LoggedEvent(m.n, m.seat, m.actor, Event.from_json(e)) for m in moves for e in m.events
        ]

    async def outcome(self, table_id: int) -> Outcome | None:
        async with self._db.read() as tx:
            raw = await tx.scores.result(table_id)
        return None if raw is None else Outcome.from_json(raw)

    # --- inside a transaction (the move pipeline's and the unit of work's) -----------

    async def row(self, tx: Tx, table_id: int) -> TableRow:
        table = await tx.tables.get(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        return table

    async def read(self, tx: Tx, table: TableRow) -> Snapshot:
        """The snapshot of ``table`` as read in ``tx``."""
        game = None
        recent: tuple[LoggedEvent, ...] = ()
        if table.state is not None:
            game, recent = await self.played(tx, table)
        deadlines = await tx.deadlines.of_table(table.id)
        return self.of(table, game, deadlines, recent)

    def game(self, table: TableRow) -> Game[Any, Any, Any, Any]:
        """The game of a dealt table at its move count (shared: clone to change it)."""
        return self._cache.get(table, self._load).game

    async def played(
        self, tx: Tx, table: TableRow
    ) -> tuple[Game[Any, Any, Any, Any], tuple[LoggedEvent, ...]]:
        """The game of a dealt table and the events of its latest moves."""
        cached = self._cache.get(table, self._load)
        if cached.recent is None:
            cached.recent = _logged(await tx.tables.last_moves(table.id, RECENT))
        return cached.game, cached.recent

    def remember(
        self,
        table: TableRow,
        game: Game[Any, Any, Any, Any],
        recent: tuple[LoggedEvent, ...],
    ) -> None:
        """A committed table's game (a move's result, a fresh deal), so that
        its next snapshot needs no loading.  Only committed states go here."""
        self._cache.put(table.id, table.moves, game, recent)

    def of(
        self,
        table: TableRow,
        game: Game[Any, Any, Any, Any] | None,
        deadlines: Sequence[DeadlineRow],
        recent: Sequence[LoggedEvent],
    ) -> Snapshot:
        return Snapshot(
            table,
            self.spec(table.game),
            self.rules_of(table),
            game,
            deadlines,
            recent,
            levels_differ=self.levels_differ(table.game),
        )

    def _load(self, table: TableRow) -> Game[Any, Any, Any, Any]:
        assert table.state is not None
        return self.spec(table.game).game.load(table.state)

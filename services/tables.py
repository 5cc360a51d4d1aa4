"""The table service: the one place a table changes, by seat, whoever acts.

A move comes from a player's button, a computer, or the turn timer; each is one
``BEGIN IMMEDIATE`` transaction under the table's lock, with the optimistic
version check; the lock is held for that transaction and for the synchronous
notification of the observers after its commit, never across network I/O.  Every change
ends in a :class:`Snapshot` — the table as it now stands, with the public view
and, per seat, its view and legal actions — handed to the observers (the
Telegram layer paints it, the timers and computers act on it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol

from games.core import (
    RESIGN,
    Action,
    ActionParseError,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Place,
    Rules,
    Wait,
)
from games.spec import GameSpec
from players.search import Situation
from services import turns
from services.clock import Clock
from services.errors import ServiceError
from storage import (
    LOBBY_SEAT,
    Actor,
    Database,
    DeadlineRow,
    EndReason,
    MoveRow,
    ScoreDelta,
    SeatRow,
    Status,
    TableRow,
    Tx,
)

__all__ = [
    "LoggedEvent",
    "Snapshot",
    "TableObserver",
    "Tables",
]

RECENT = 6
"""Events a snapshot carries for the screens (the latest moves')."""
TURN_STEPS = 200
"""The most default moves one timeout makes in a turn (every game's turn is
far shorter; a faulty one must not hold the table's lock)."""


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
    ) -> None:
        self.table = table
        self.spec = spec
        self.rules = rules
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


class TableObserver(Protocol):
    def table_changed(self, snapshot: Snapshot) -> None:
        """A table changed (called after the change was committed)."""

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        """``seat``'s turn time is running out."""


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


class Tables:
    def __init__(self, db: Database, games: Mapping[str, GameSpec], clock: Clock) -> None:
        self._db = db
        self._games = games
        self._clock = clock
        self._cache = GameCache()
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        self._observers: list[TableObserver] = []

    @property
    def games(self) -> Mapping[str, GameSpec]:
        return self._games

    def observe(self, observer: TableObserver) -> None:
        self._observers.append(observer)

    @asynccontextmanager
    async def lock(self, table_id: int) -> AsyncIterator[None]:
        """Serializes the changes of one table in this process; hold it only
        around a transaction and the notification after it, never across
        network I/O.  Locks live only while used."""
        lock, users = self._locks.get(table_id, (asyncio.Lock(), 0))
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[table_id]
            if users == 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)

    def spec(self, game: str) -> GameSpec:
        try:
            return self._games[game]
        except KeyError:
            raise ServiceError("error.unknown_game", game=game) from None

    def rules_of(self, table: TableRow) -> Rules:
        return self.spec(table.game).rules.from_json(table.rules)

    # --- reading ----------------------------------------------------------------

    async def snapshot(self, table_id: int) -> Snapshot:
        async with self._db.read() as tx:
            table = await self.get(tx, table_id)
            return await self._snapshot(tx, table)

    async def snapshot_in(self, chat_id: int, thread_id: int) -> Snapshot | None:
        """The open table of a chat (or forum topic)."""
        async with self._db.read() as tx:
            table = await tx.tables.open_in(chat_id, thread_id)
            return None if table is None else await self._snapshot(tx, table)

    async def last_played_in(self, chat_id: int, thread_id: int) -> Snapshot | None:
        """The table a chat (or forum topic) is playing, else its last finished one."""
        async with self._db.read() as tx:
            table = await tx.tables.last_played_in(chat_id, thread_id)
            return None if table is None else await self._snapshot(tx, table)

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

    async def get(self, tx: Tx, table_id: int) -> TableRow:
        table = await tx.tables.get(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        return table

    async def _snapshot(self, tx: Tx, table: TableRow) -> Snapshot:
        spec = self.spec(table.game)
        game = None
        recent: tuple[LoggedEvent, ...] = ()
        if table.state is not None:
            cached = self._cache.get(table, self._load)
            if cached.recent is None:
                cached.recent = _logged(await tx.tables.last_moves(table.id, RECENT))
            game, recent = cached.game, cached.recent
        deadlines = await tx.deadlines.of_table(table.id)
        return Snapshot(table, spec, self.rules_of(table), game, deadlines, recent)

    def _load(self, table: TableRow) -> Game[Any, Any, Any, Any]:
        assert table.state is not None
        return self.spec(table.game).game.load(table.state)

    # --- moves ------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        seat: int,
        code: str,
        *,
        actor: Actor,
        expected_moves: int | None = None,
    ) -> Snapshot:
        """``seat`` makes the move ``code`` (an action code, or :data:`RESIGN`).

        ``expected_moves`` makes it conditional: refused as stale if the table
        has moved on since the actor looked at it."""
        async with self.lock(table_id):
            async with self._db.transaction() as tx:
                table = await self._playing(tx, table_id)
                if expected_moves is not None and table.moves != expected_moves:
                    raise ServiceError("error.stale_button")
                if actor is Actor.PLAYER:
                    table = await self._present(tx, table, seat)
                move = await self._move(tx, table, seat, code, actor)
            return self._committed(move)

    async def press(self, table_id: int, user_id: int, code: str, *, at_move: int) -> Snapshot:
        """A player pressed a move button drawn when the table had ``at_move`` moves.

        A button drawn before the presser's own last move is stale: an old
        keyboard, or the second of two quick presses (moves by the timer or a
        computer for his seat count as his).  A newer button whose move is
        still legal is accepted even if others moved meanwhile.  Any press of
        his own buttons tells that the player is back, even a refused one.
        Anything stale, forged or illegal is refused with a
        :class:`ServiceError` and changes nothing else."""
        async with self.lock(table_id):
            refusal: ServiceError | None = None
            move: WrittenMove | None = None
            async with self._db.transaction() as tx:
                table, seat = await self._seat_of(tx, table_id, user_id)
                returned = await self._present(tx, table, seat)
                if self._button_is_stale(returned, seat, at_move):
                    refusal = ServiceError("error.stale_button")
                else:
                    try:
                        move = await self._move(tx, returned, seat, code, Actor.PLAYER)
                    except ServiceError as exc:
                        refusal = exc
                if refusal is not None and at_move < returned.moves and self._on_table(table, code):
                    # A move everybody may make on the table (next round) that
                    # somebody else made first.
                    refusal = ServiceError("error.already_done")
            if move is not None:
                return self._committed(move)
            if returned is not table:
                await self._reread(table_id)
            assert refusal is not None
            raise refusal

    async def touch(
        self, table_id: int, user_id: int, at_move: int | None = None
    ) -> tuple[Snapshot, int]:
        """A player pressed a button of his that makes no move (a sub-menu, "I am
        back"): he is present again.  Returns the table and his seat; with
        ``at_move``, refuses a button drawn before his last move, as :meth:`press`."""
        async with self.lock(table_id):
            async with self._db.transaction() as tx:
                table, seat = await self._seat_of(tx, table_id, user_id)
                returned = await self._present(tx, table, seat)
                stale = at_move is not None and self._button_is_stale(returned, seat, at_move)
                snapshot = await self._snapshot(tx, returned)
            if returned is not table:
                self._notify(snapshot)
            if stale:
                raise ServiceError("error.stale_button")
            return snapshot, seat

    async def table_move(self, table_id: int, user_id: int) -> Snapshot:
        """The move a player makes on the table message (101's next round), made
        by command (``/startgame``) instead of the button."""
        snapshot, seat = await self.touch(table_id, user_id)
        for action in snapshot.legal(seat):
            if action.place is Place.TABLE:
                return await self.act(
                    table_id,
                    seat,
                    action.encode(),
                    actor=Actor.PLAYER,
                    expected_moves=snapshot.table.moves,
                )
        raise ServiceError("error.already_started")

    async def timeout(self, table_id: int, seat: int) -> Snapshot | None:
        """A deadline came: the timer plays for the seat (or closes the lobby).

        Does nothing (returns None) if the deadline has moved or gone since it
        was scheduled."""
        async with self.lock(table_id):
            async with self._db.transaction() as tx:
                table = await self.get(tx, table_id)
                deadline = next(
                    (d for d in await tx.deadlines.of_table(table_id) if d.seat == seat), None
                )
                if deadline is None or deadline.due_at > self._clock.now():
                    return None
                if seat != LOBBY_SEAT:
                    move = await self._timed_out(tx, table, seat, deadline)
                elif table.status is Status.LOBBY:
                    await self.close(tx, table, EndReason.EXPIRED)
                    move = None
                else:
                    await tx.deadlines.replace(table_id, [])
                    return None
            if move is None:
                return await self._reread(table_id)
            return self._committed(move)

    async def _timed_out(
        self, tx: Tx, table: TableRow, seat: int, deadline: DeadlineRow
    ) -> WrittenMove | None:
        """The seat's time ran out: the timer plays out its turn, and counts
        the timeout towards absence (see :mod:`services.turns`)."""
        if table.status is not Status.PLAYING:
            await tx.deadlines.replace(table.id, [])
            return None
        game = self._cache.get(table, self._load).game
        if seat not in game.waits():
            await tx.deadlines.replace(table.id, await self._next_deadlines(tx, table, game, None))
            return None
        if deadline.consent:
            code = game.default_action(seat).encode()
            return await self._move(tx, table, seat, code, Actor.TIMER)
        row = table.seats[seat]
        presence = turns.timed_out(table, row)
        await tx.tables.set_presence(
            table.id, seat, timeouts=presence.timeouts, absent=presence.absent
        )
        seats = list(table.seats)
        seats[seat] = replace(row, timeouts=presence.timeouts, absent=presence.absent)
        table = replace(table, seats=tuple(seats))
        if presence.leaves:
            return await self._move(tx, table, seat, RESIGN, Actor.TIMER)
        move = None
        for _ in range(TURN_STEPS):
            code = game.default_action(seat).encode()
            move = await self._move(tx, table, seat, code, Actor.TIMER, prior=move)
            table, game = move.table, move.game
            if game.waits().get(seat) is not Wait.DECIDE:
                break  # his turn is over
        return move

    async def warn(self, table_id: int, seat: int) -> None:
        """A seat's warning time came: tell the observers (once)."""
        async with self.lock(table_id), self._db.transaction() as tx:
            deadline = next(
                (d for d in await tx.deadlines.of_table(table_id) if d.seat == seat), None
            )
            if deadline is None or deadline.warn_at is None:
                return
            if deadline.warn_at > self._clock.now():
                return
            await tx.deadlines.mark_warned(table_id, seat)
            snapshot = await self._snapshot(tx, await self.get(tx, table_id))
        for observer in self._observers:
            observer.seat_warned(snapshot, seat)

    # --- shared with the lobby and moderation ----------------------------------

    def deadlines(
        self, table: TableRow, game: Game[Any, Any, Any, Any] | None
    ) -> list[DeadlineRow]:
        """The deadlines of a table that has just opened, been dealt or closed:
        every seat waited on gets the full time."""
        return turns.deadlines(table, game, self._clock.now())

    async def begin(self, tx: Tx, table: TableRow, game: Game[Any, Any, Any, Any]) -> None:
        """A game was dealt: nobody has pressed anything in it yet (which counts
        towards absence, see :mod:`services.turns`), and its first turns begin."""
        for row in table.seats:
            if row.is_human:
                await tx.tables.set_presence(table.id, row.seat, timeouts=turns.DEALT, absent=False)
        await tx.deadlines.replace(table.id, self.deadlines(table, game))

    async def close(self, tx: Tx, table: TableRow, reason: EndReason) -> None:
        """End an open table without a result (cancelled, expired, the bot removed)."""
        await tx.tables.update(table.id, table.version, status=Status.CANCELLED, end_reason=reason)
        await tx.deadlines.replace(table.id, [])

    async def changed(self, table_id: int) -> Snapshot:
        """After a change made elsewhere (the lobby, moderation) was committed:
        read the table again and tell the observers."""
        return await self._reread(table_id)

    def remember(self, table_id: int, moves: int, game: Game[Any, Any, Any, Any]) -> None:
        """A freshly dealt game, so its first snapshot needs no loading."""
        self._cache.put(table_id, moves, game, ())

    async def move(
        self, tx: Tx, table: TableRow, seat: int, code: str, actor: Actor
    ) -> WrittenMove:
        """A move inside the caller's transaction (moderation's removals);
        pass the result to :meth:`committed` after the commit."""
        return await self._move(tx, table, seat, code, actor)

    def committed(self, move: WrittenMove) -> Snapshot:
        return self._committed(move)

    # --- internals ----------------------------------------------------------------

    async def _playing(self, tx: Tx, table_id: int) -> TableRow:
        table = await self.get(tx, table_id)
        if table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        return table

    async def _seat_of(self, tx: Tx, table_id: int, user_id: int) -> tuple[TableRow, int]:
        table = await self.get(tx, table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_your_table")
        if table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        return table, seat

    def _on_table(self, table: TableRow, code: str) -> bool:
        """The code is of a move made on the table message."""
        try:
            return self.spec(table.game).game.decode_action(code).place is Place.TABLE
        except ActionParseError:
            return False

    @staticmethod
    def _button_is_stale(table: TableRow, seat: int, at_move: int) -> bool:
        return not table.seats[seat].last_move <= at_move <= table.moves

    async def _present(self, tx: Tx, table: TableRow, seat: int) -> TableRow:
        """The seat's player acted himself: he is not absent, his timeouts reset;
        back from absence, his seat has a clock again."""
        row = table.seats[seat]
        if not row.timeouts and not row.absent:
            return table
        await tx.tables.set_presence(table.id, seat, timeouts=0, absent=False)
        version = await tx.tables.update(table.id, table.version)
        seats = list(table.seats)
        seats[seat] = replace(row, timeouts=0, absent=False)
        returned = replace(table, version=version, seats=tuple(seats))
        if row.absent:
            game = self._cache.get(returned, self._load).game
            deadlines = await self._next_deadlines(tx, returned, game, None)
            await tx.deadlines.replace(table.id, deadlines)
        return returned

    async def _next_deadlines(
        self, tx: Tx, table: TableRow, game: Game[Any, Any, Any, Any], mover: int | None
    ) -> list[DeadlineRow]:
        """The deadlines after ``mover``'s move (None: after a change nobody
        moved for); the running ones are read only when one may be kept."""
        before: Mapping[int, DeadlineRow] = {}
        if mover is None or (
            game.waits().get(mover) is Wait.DECIDE and not turns.played_by_computer(table, mover)
        ):
            before = {d.seat: d for d in await tx.deadlines.of_table(table.id)}
        return turns.deadlines(table, game, self._clock.now(), before=before, mover=mover)

    async def _move(
        self,
        tx: Tx,
        table: TableRow,
        seat: int,
        code: str,
        actor: Actor,
        *,
        prior: WrittenMove | None = None,
    ) -> WrittenMove:
        """``prior``: the move just written in this transaction, to go on from
        (a timed-out turn's follow-up; not in the cache, which holds committed
        states only)."""
        if table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        if prior is None:
            cached = self._cache.get(table, self._load)
            if cached.recent is None:
                cached.recent = _logged(await tx.tables.last_moves(table.id, RECENT))
            base, earlier = cached.game, cached.recent
        else:
            base, earlier = prior.game, prior.recent
        game = base.clone()
        try:
            if code == RESIGN:
                events = game.resign(seat)
            else:
                events = game.apply(seat, type(game).decode_action(code))
        except ActionParseError:
            raise ServiceError("error.bad_button") from None
        except IllegalAction as exc:
            raise ServiceError(exc.reason, **exc.params) from None
        outcome = game.outcome()
        n = table.moves + 1
        state = game.dump()
        status = Status.FINISHED if outcome is not None else table.status
        version = await tx.tables.update(
            table.id, table.version, state=state, moves=n, status=status
        )
        await tx.tables.append_move(table.id, n, seat, code, [e.to_json() for e in events], actor)
        if outcome is not None:
            await self._finish(
                tx, table, outcome, ended_by_kick=code == RESIGN and actor is Actor.ADMIN
            )
        after = replace(table, state=state, version=version, moves=n, status=status)
        deadlines = await self._next_deadlines(tx, after, game, seat)
        await tx.deadlines.replace(table.id, deadlines)
        logged = tuple(LoggedEvent(n, seat, actor, e) for e in events)
        recent = (earlier + logged)[-RECENT:]
        return WrittenMove(after, game, deadlines, recent)

    async def _finish(
        self, tx: Tx, table: TableRow, outcome: Outcome, *, ended_by_kick: bool
    ) -> None:
        """Record the result and the people's scores.  A player removed by
        /kick gets nothing for the game (neither played nor lost); a game the
        removal itself ended counts for nobody, as a cancel would (else a kick
        could hand out wins); a player the table removed for being absent
        walked away from it and has lost it."""
        await tx.scores.record_result(table.id, table.chat_id, table.game, outcome.to_json())
        if ended_by_kick:
            return
        removed = await tx.tables.removals(table.id, RESIGN)
        deltas = []
        for s in table.seats:
            if s.user_id is None or removed.get(s.seat) is Actor.ADMIN:
                continue
            if s.seat in removed:
                deltas.append(ScoreDelta(user_id=s.user_id, win=False, loss=True, draw=False))
                continue
            deltas.append(
                ScoreDelta(
                    user_id=s.user_id,
                    win=s.seat in outcome.winners,
                    loss=s.seat in outcome.losers,
                    draw=outcome.draw,
                )
            )
        await tx.scores.add(table.chat_id, table.game, deltas, with_computers=table.has_computers)

    def _committed(self, move: WrittenMove) -> Snapshot:
        table = move.table
        self._cache.put(table.id, table.moves, move.game, move.recent)
        spec = self.spec(table.game)
        snapshot = Snapshot(
            table, spec, self.rules_of(table), move.game, move.deadlines, move.recent
        )
        self._notify(snapshot)
        return snapshot

    async def _reread(self, table_id: int) -> Snapshot:
        snapshot = await self.snapshot(table_id)
        self._notify(snapshot)
        return snapshot

    def _notify(self, snapshot: Snapshot) -> None:
        for observer in self._observers:
            observer.table_changed(snapshot)


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """A move written inside a transaction, to be published after the commit."""

    table: TableRow
    game: Game[Any, Any, Any, Any]
    deadlines: list[DeadlineRow]
    recent: tuple[LoggedEvent, ...]

"""The table service: the one place a table changes, by seat, whoever acts.

A move comes from a player's button, a computer, or the turn timer; each is one
``BEGIN IMMEDIATE`` transaction under the table's lock, with the optimistic
version check (:mod:`services.moves` writes it); the lock is held for that
transaction and for the synchronous notification of the observers after its
commit, never across network I/O.  The lobby and moderation change a table the
same way, through a unit of work (:meth:`Tables.change`,
:mod:`services.table_change`).  Every change ends in a
:class:`~services.snapshots.Snapshot` handed to the observers (the Telegram
layer paints it, the timers and computers act on it); reading a table is
:mod:`services.snapshots`' business.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, Protocol

from games.core import RESIGN, ActionParseError, Game, IllegalAction, Place
from services import turns
from services.clock import Clock
from services.errors import ServiceError
from services.moves import Moves, WrittenMove
from services.snapshots import Snapshot, Snapshots
from services.table_change import TableChange
from storage import (
    LOBBY_SEAT,
    Actor,
    Database,
    DeadlineRow,
    EndReason,
    OnAbsence,
    Status,
    TableExistsError,
    TableRow,
    Tx,
)

__all__ = ["TableObserver", "Tables"]

TURN_STEPS = 200
"""The most default moves one timeout makes in a turn (every game's turn is
far shorter; a faulty one must not hold the table's lock)."""


class TableObserver(Protocol):
    def table_changed(self, snapshot: Snapshot) -> None:
        """A table changed (called after the change was committed)."""

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        """``seat``'s turn time is running out."""


class Tables:
    def __init__(self, db: Database, snapshots: Snapshots, clock: Clock) -> None:
        self._db = db
        self._snapshots = snapshots
        self._clock = clock
        self._moves = Moves(snapshots, clock)
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        self._observers: list[TableObserver] = []

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

    # --- the unit of work of the lobby and moderation ----------------------------

    @asynccontextmanager
    async def change(self, table_id: int) -> AsyncIterator[TableChange]:
        """Change a table outside its game's moves: under its lock, in one
        transaction; the observers are told after the commit.  If the block
        raises, nothing is written and nobody is told."""
        async with self.lock(table_id):
            async with self._db.transaction() as tx:
                change = self._change(tx, await self._snapshots.row(tx, table_id))
                yield change
                await change.settle()
            self._notify(change.committed())

    @asynccontextmanager
    async def open(
        self,
        chat_id: int,
        thread_id: int,
        game: str,
        rules: dict[str, Any],
        creator_id: int,
        *,
        turn_seconds: int,
        on_absence: OnAbsence,
        computer_level: str,
        previous_id: int | None = None,
        duplicate_of: int | None = None,
        rotation: int = 0,
    ) -> AsyncIterator[TableChange]:
        """Open a lobby in a chat (or forum topic) and change it as
        :meth:`change` does (nobody else knows it before the commit: no lock)."""
        async with self._db.transaction() as tx:
            try:
                table_id = await tx.tables.create(
                    chat_id,
                    thread_id,
                    game,
                    rules,
                    creator_id,
                    turn_seconds=turn_seconds,
                    on_absence=on_absence,
                    computer_level=computer_level,
                    previous_id=previous_id,
                    duplicate_of=duplicate_of,
                    rotation=rotation,
                )
            except TableExistsError:
                raise ServiceError("error.table_exists") from None
            change = self._change(tx, await self._snapshots.row(tx, table_id))
            yield change
            await change.settle()
        self._notify(change.committed())

    def _change(self, tx: Tx, table: TableRow) -> TableChange:
        return TableChange(tx, table, self._snapshots, self._moves, self._clock)

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
                    table = await self._moves.present(tx, table, seat)
                move = await self._moves.write(tx, table, seat, code, actor)
            return self._committed(move)

    async def press(self, table_id: int, user_id: int, code: str, *, at_move: int) -> Snapshot:
        """A player pressed a move button drawn when the table had ``at_move`` moves.

        A button drawn before the presser's own last move is stale: an old
        keyboard, or the second of two quick presses (moves by the timer or a
        computer for his seat count as his).  A newer button whose move is
        still legal is accepted even if others moved meanwhile.  Any press of
        his own buttons tells that the player is back, even a refused one
        (refused, it is answered that he is back).
        Anything stale, forged or illegal is refused with a
        :class:`ServiceError` and changes nothing else."""
        async with self.lock(table_id):
            refusal: ServiceError | None = None
            move: WrittenMove | None = None
            async with self._db.transaction() as tx:
                table, seat = await self._seat_of(tx, table_id, user_id)
                returned = await self._moves.present(tx, table, seat)
                if self._button_is_stale(returned, seat, at_move):
                    refusal = ServiceError("error.stale_button")
                else:
                    try:
                        move = await self._moves.write(tx, returned, seat, code, Actor.PLAYER)
                    except ServiceError as exc:
                        refusal = exc
                if refusal is not None and at_move < returned.moves and self._on_table(table, code):
                    # A move everybody may make on the table (next round) that
                    # somebody else made first.
                    refusal = ServiceError("error.already_done")
                if refusal is not None and turns.played_by_computer(table, seat):
                    # Back from absence, on a turn not his (a computer made his
                    # at once): the press did what he wanted, and says so (not
                    # to one the table removed: he is out of the game).
                    refusal = ServiceError("hand.back_in_game")
                back = None
                if move is None and returned is not table:
                    back = await self._snapshots.read(tx, returned)
            if move is not None:
                return self._committed(move)
            if back is not None:
                self._notify(back)  # he is here again, though his press was refused
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
                returned = await self._moves.present(tx, table, seat)
                stale = at_move is not None and self._button_is_stale(returned, seat, at_move)
                snapshot = await self._snapshots.read(tx, returned)
            if returned is not table:
                self._notify(snapshot)
            if stale:
                raise ServiceError("error.stale_button")
            return snapshot, seat

    async def leave(self, table_id: int, user_id: int) -> Snapshot:
        """A player leaves the running game (``/leave``; refused if he already
        has): away at once, as two timed-out turns would make him
        (:func:`services.turns.left`), so the table waits for him no more: a
        computer plays his seat until he presses again, or he leaves the game
        as its rules require, as the table chose."""
        async with self.lock(table_id):
            move: WrittenMove | None = None
            async with self._db.transaction() as tx:
                table, seat = await self._seat_of(tx, table_id, user_id)
                if seat in turns.gone(table, await tx.tables.removals(table.id, RESIGN)):
                    raise ServiceError("error.left_already")
                if not _in_play(self._snapshots.game(table), seat):
                    # Out already (a durak who went out, a 101 player over
                    # the limit): nothing is left for him to play or leave.
                    raise ServiceError("error.out_already")
                presence = turns.left(table, table.seats[seat])
                await tx.tables.set_presence(
                    table.id, seat, timeouts=presence.timeouts, absent=presence.absent
                )
                version = await tx.tables.update(table.id, table.version)
                table = replace(turns.with_presence(table, seat, presence), version=version)
                if presence.leaves:
                    move = await self._moves.write(tx, table, seat, RESIGN, Actor.PLAYER)
                else:
                    game = self._snapshots.game(table)
                    await tx.deadlines.replace(
                        table.id, await self._moves.deadlines(tx, table, game, None)
                    )
                    snapshot = await self._snapshots.read(tx, table)
            # Told (and cached) only once committed.
            if move is not None:
                return self._committed(move)
            self._notify(snapshot)
            return snapshot

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

    # --- the turn timer -------------------------------------------------------------

    async def timeout(self, table_id: int, seat: int) -> Snapshot | None:
        """A deadline came: the timer plays for the seat (or closes the lobby).

        Does nothing (returns None) if the deadline has moved or gone since it
        was scheduled."""
        async with self.lock(table_id):
            async with self._db.transaction() as tx:
                table = await self._snapshots.row(tx, table_id)
                deadline = await self._deadline(tx, table_id, seat)
                if deadline is None or deadline.due_at > self._clock.now():
                    return None
                if seat != LOBBY_SEAT:
                    move = await self._timed_out(tx, table, seat, deadline)
                elif table.status is Status.LOBBY:
                    expired = EndReason.EXPIRED
                    await tx.tables.update(
                        table_id, table.version, status=Status.CANCELLED, end_reason=expired
                    )
                    await tx.deadlines.replace(table_id, [])
                    move = None
                else:
                    await tx.deadlines.replace(table_id, [])
                    return None
                unmoved = None
                if move is None:
                    now = await self._snapshots.row(tx, table_id)
                    unmoved = await self._snapshots.read(tx, now)
            if move is not None:
                return self._committed(move)
            assert unmoved is not None
            self._notify(unmoved)
            return unmoved

    async def _timed_out(
        self, tx: Tx, table: TableRow, seat: int, deadline: DeadlineRow
    ) -> WrittenMove | None:
        """The seat's time ran out: the timer plays out its turn, and counts
        the timeout towards absence (the rules: :mod:`services.turns`)."""
        if table.status is not Status.PLAYING:
            await tx.deadlines.replace(table.id, [])
            return None
        game = self._snapshots.game(table)
        if seat not in game.waits():
            await tx.deadlines.replace(table.id, await self._moves.deadlines(tx, table, game, None))
            return None
        if deadline.consent:
            code = game.default_action(seat).encode()
            return await self._moves.write(tx, table, seat, code, Actor.TIMER)
        presence = turns.timed_out(table, table.seats[seat])
        await tx.tables.set_presence(
            table.id, seat, timeouts=presence.timeouts, absent=presence.absent
        )
        table = turns.with_presence(table, seat, presence)
        if presence.leaves:
            return await self._moves.write(tx, table, seat, RESIGN, Actor.TIMER)
        move = None
        for _ in range(TURN_STEPS):
            code = game.default_action(seat).encode()
            move = await self._moves.write(tx, table, seat, code, Actor.TIMER, prior=move)
            table, game = move.table, move.game
            if not turns.turn_goes_on(game, seat):
                break
        return move

    async def warn(self, table_id: int, seat: int) -> None:
        """A seat's warning time came: tell the observers (once)."""
        async with self.lock(table_id), self._db.transaction() as tx:
            # The table first, locked: a warning another worker fired
            # meanwhile is then seen as given (each is told once).
            table = await self._snapshots.row(tx, table_id)
            deadline = await self._deadline(tx, table_id, seat)
            if deadline is None or deadline.warn_at is None:
                return
            if deadline.warn_at > self._clock.now():
                return
            await tx.deadlines.mark_warned(table_id, seat)
            snapshot = await self._snapshots.read(tx, table)
        for observer in self._observers:
            observer.seat_warned(snapshot, seat)

    @staticmethod
    async def _deadline(tx: Tx, table_id: int, seat: int) -> DeadlineRow | None:
        return next((d for d in await tx.deadlines.of_table(table_id) if d.seat == seat), None)

    # --- internals ----------------------------------------------------------------

    async def _playing(self, tx: Tx, table_id: int) -> TableRow:
        table = await self._snapshots.row(tx, table_id)
        if table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        return table

    async def _seat_of(self, tx: Tx, table_id: int, user_id: int) -> tuple[TableRow, int]:
        table = await self._snapshots.row(tx, table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise ServiceError("error.not_your_table")
        if table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        return table, seat

    def _on_table(self, table: TableRow, code: str) -> bool:
        """The code is of a move made on the table message."""
        try:
            return self._snapshots.spec(table.game).game.decode_action(code).place is Place.TABLE
        except ActionParseError:
            return False

    @staticmethod
    def _button_is_stale(table: TableRow, seat: int, at_move: int) -> bool:
        return not table.seats[seat].last_move <= at_move <= table.moves

    def _committed(self, move: WrittenMove) -> Snapshot:
        self._snapshots.remember(move.table, move.game, move.recent)
        snapshot = self._snapshots.of(move.table, move.game, move.deadlines, move.recent)
        self._notify(snapshot)
        return snapshot

    def _notify(self, snapshot: Snapshot) -> None:
        for observer in self._observers:
            observer.table_changed(snapshot)


def _in_play(game: Game[Any, Any, Any, Any], seat: int) -> bool:
    """Whether ``seat`` is still in ``game``'s play: whether the game would
    let him resign (asked of a copy)."""
    try:
        game.clone().resign(seat)
    except IllegalAction as exc:
        return exc.reason != "illegal.not_in_game"
    return True

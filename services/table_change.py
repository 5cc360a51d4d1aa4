"""A table changed by the lobby or moderation: one unit of work.

:meth:`services.tables.Tables.change` (or :meth:`~services.tables.Tables.open`
for a new lobby) takes the table's lock, opens one transaction, reads the
table and hands the work a :class:`TableChange`.  The work changes the table
through it only: every write of the table's row is checked against the version
read (a stale one raises and rolls everything back).  When the work is done,
the change writes the deadlines the table now has (:mod:`services.turns`:
a lobby's expiry, a dealt game's first turns, none for a closed table) and
its snapshot; after the commit the observers are told.  If the work raises,
nothing is written and nobody is told.
"""

from __future__ import annotations

from typing import Any

from games.core import RESIGN, Game
from services import turns
from services.clock import Clock
from services.fairness import (
    MAX_CONTRIBUTIONS,
    SCHEME_V1,
    SCHEME_V2,
    commitment,
    deal,
    seed_commitment,
)
from services.moves import Moves, WrittenMove
from services.snapshots import Snapshot, Snapshots
from storage import Actor, EndReason, OnAbsence, Status, TableRow, Tx

__all__ = ["TableChange"]


class TableChange:
    def __init__(
        self, tx: Tx, table: TableRow, snapshots: Snapshots, moves: Moves, clock: Clock
    ) -> None:
        self.table = table
        """The table as it was when the change began (under its lock)."""
        self._tx = tx
        self._snapshots = snapshots
        self._moves = moves
        self._clock = clock
        self._version = table.version
        self._wrote = False
        self._dealt: Game[Any, Any, Any, Any] | None = None
        self._move: WrittenMove | None = None
        self._settled: Snapshot | None = None
        self._snapshot: Snapshot | None = None

    @property
    def snapshot(self) -> Snapshot:
        """The table as the change left it (once it has been committed)."""
        if self._snapshot is None:
            raise RuntimeError("the change has not been committed")
        return self._snapshot

    # --- the table's row ----------------------------------------------------------

    async def update(
        self,
        *,
        rules: dict[str, Any] | None = None,
        turn_seconds: int | None = None,
        on_absence: OnAbsence | None = None,
        computer_level: str | None = None,
        creator_id: int | None = None,
    ) -> None:
        """Change the table's settings (none given: only its version, after a
        change of its seats), if nobody changed it since it was read."""
        await self._update(
            rules=rules,
            turn_seconds=turn_seconds,
            on_absence=on_absence,
            computer_level=computer_level,
            creator_id=creator_id,
        )

    async def close(self, reason: EndReason, by: int | None = None) -> None:
        """End the open table without a result (cancelled, expired, the bot
        removed); ``by``: the person who cancelled it."""
        await self._update(status=Status.CANCELLED, end_reason=reason, ended_by=by)

    async def commit_server_seed(self, server_seed: str) -> None:
        """Keep the bot's secret seed of a new lobby and the commitment to it
        that the lobby shows (scheme v2 of :mod:`services.fairness`)."""
        await self._update(
            scheme=SCHEME_V2, server_seed=server_seed, seed_commitment=seed_commitment(server_seed)
        )

    async def contribute(self, contribution: str) -> bool:
        """Add a player's contribution to the seed of a lobby whose bot seed is
        committed; False when it is not kept (another scheme, or
        :data:`MAX_CONTRIBUTIONS` kept already)."""
        table = self.table
        if table.scheme != SCHEME_V2 or table.status is not Status.LOBBY:
            return False
        if len(table.contributions) >= MAX_CONTRIBUTIONS:
            return False
        await self._tx.tables.add_contribution(table.id, contribution)
        self._wrote = True
        return True

    async def deal(self, seed: int, scheme: str = SCHEME_V1) -> None:
        """Deal the lobby's game from ``seed`` and start it, committed to the deal
        (:mod:`services.fairness`); nobody has pressed anything in it yet."""
        game = await deal(self._tx, self._snapshots.spec(self.table.game), self.table, seed)
        dealt = game.dump()
        await self._update(
            status=Status.PLAYING,
            scheme=scheme,
            seed=seed,
            state=dealt,
            deal=dealt,
            commitment=commitment(self.table.game, seed, dealt, scheme),
            moves=0,
        )
        for row in self.table.seats:
            presence = turns.dealt(row)
            if presence is not None:
                await self._tx.tables.set_presence(
                    self.table.id, row.seat, timeouts=presence.timeouts, absent=presence.absent
                )
        self._dealt = game

    async def deal_again(self, first: TableRow, dealt: dict[str, Any]) -> None:
        """Start the table with the game ``first`` was dealt (``dealt``), its
        seed and commitment: a duplicate of it (:mod:`services.duplicates`),
        the people seated already, turned round."""
        if first.seed is None or first.commitment is None:
            raise RuntimeError(f"table {first.id} was not dealt with a commitment")
        game = self._snapshots.spec(first.game).game.load(dealt)
        await self._update(
            status=Status.PLAYING,
            seed=first.seed,
            state=dealt,
            deal=dealt,
            commitment=first.commitment,
            moves=0,
        )
        seated = await self._snapshots.row(self._tx, self.table.id)
        for row in seated.seats:
            presence = turns.dealt(row)
            if presence is not None:
                await self._tx.tables.set_presence(
                    self.table.id, row.seat, timeouts=presence.timeouts, absent=presence.absent
                )
        self._dealt = game

    # --- seats (in a lobby) ------------------------------------------------------

    async def seat_person(self, user_id: int) -> None:
        await self._tx.tables.add_seat(self.table.id, user_id=user_id)
        self._wrote = True

    async def gone_from(self, old: TableRow) -> frozenset[int]:
        """The seats of the game ``old`` whose people were no longer at it when
        it ended: away (``/leave``, or timed out and never back), or out of it
        (removed by /kick or for being away)."""
        return turns.gone(old, await self._tx.tables.removals(old.id, RESIGN))

    async def seat_computer(self, name: int) -> None:
        await self._tx.tables.add_seat(self.table.id, computer=name)
        self._wrote = True

    async def unseat(self, seat: int) -> None:
        """Unseat ``seat``; the seats after it move up."""
        await self._tx.tables.remove_seat(self.table.id, seat)
        self._wrote = True

    async def unseat_person(self, seat: int) -> None:
        """A person leaves a lobby, or is removed from it: a lobby with no
        person left closes, and the one who opened it hands it to the next
        person seated."""
        await self.unseat(seat)
        table = self.table
        leaving = next(s.user_id for s in table.seats if s.seat == seat)
        people = [s for s in table.seats if s.user_id is not None and s.seat != seat]
        if not people:
            await self.close(EndReason.CANCELLED)
        elif leaving == table.creator_id:
            await self.update(creator_id=people[0].user_id)
        else:
            await self.update()

    async def reorder(self, order: list[int]) -> None:
        """Seat again: the player at seat ``order[i]`` moves to seat ``i``."""
        await self._tx.tables.reorder_seats(self.table.id, order)
        self._wrote = True

    # --- a move --------------------------------------------------------------------

    async def move(self, seat: int, code: str, actor: Actor) -> None:
        """A move of the running game (a removal by an admin): the change's only
        write, through the same pipeline as every other move."""
        if self._wrote:
            raise RuntimeError("a move is the only write of its change")
        self._move = await self._moves.write(self._tx, self.table, seat, code, actor)
        self._wrote = True

    # --- the end of the unit of work (the table service calls these) -------------

    async def settle(self) -> None:
        """The work is done: write the deadlines the table now has (a move wrote
        its own) and read its snapshot, still in the transaction."""
        move = self._move
        if move is not None:
            self._settled = self._snapshots.of(move.table, move.game, move.deadlines, move.recent)
            return
        table = await self._snapshots.row(self._tx, self.table.id)
        deadlines = turns.deadlines(table, self._dealt, self._clock.now())
        await self._tx.deadlines.replace(table.id, deadlines)
        if self._dealt is not None:
            self._settled = self._snapshots.of(table, self._dealt, deadlines, ())
        else:
            self._settled = await self._snapshots.read(self._tx, table)

    def committed(self) -> Snapshot:
        """The transaction committed: the game the change left is cached, and its
        snapshot is what the observers are told."""
        assert self._settled is not None
        snapshot = self._snapshot = self._settled
        if self._move is not None:
            self._snapshots.remember(self._move.table, self._move.game, self._move.recent)
        elif self._dealt is not None:
            self._snapshots.remember(snapshot.table, self._dealt, ())
        return snapshot

    async def _update(self, **fields: Any) -> None:
        if self._move is not None:
            raise RuntimeError("a move is the only write of its change")
        self._version = await self._tx.tables.update(self.table.id, self._version, **fields)
        self._wrote = True

"""Computer seats: a computer player moves its seat (and an absent player's, where
the table lets a computer stand in) through the same path as everybody else.

A computer waits a short human-like pause first, then looks at the table again
and chooses from what its seat knows only: at the easy level the heuristic
player reads its seat's view, at the normal and hard levels a search player
thinks over worlds dealt from that knowledge, in a worker process
(:mod:`services.thinking`), its thinking time counted in the pause.  The
pause and the choice are seeded by the table's seed and move count, so a
replay of the same table behaves the same.

A computer that meets the very same view of its seat a third time is going
round (Durak's heuristics can pass the same cards round for ever, and no rule
ends that): it then moves at random, which breaks the round
(:mod:`players.going_round`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass

from games.core import Place
from players.computer import Computer
from players.going_round import Met
from players.levels import Level, searches, seconds
from services.background import Background
from services.clock import Clock
from services.errors import ServiceError
from services.leases import EVERY_CHAT, Holding
from services.snapshots import Snapshot, Snapshots
from services.tables import Tables
from services.thinking import Thinking, ThinkingFailed
from storage import Actor, Status

__all__ = ["Computers"]

log = logging.getLogger(__name__)

PAUSE = (0.7, 1.5)
"""Seconds a computer waits before its move, at random in this range."""
OPENING = 3.0
"""The pause before a game's first move is this many times longer: the group
reads the new table first (Joker's first-dealer draw, for one, would be gone
within a second when a computer deals)."""


@dataclass(slots=True)
class _Turn:
    moves: int
    task: asyncio.Task[None]
    acting: bool = False


class Computers:
    def __init__(
        self,
        tables: Tables,
        snapshots: Snapshots,
        computers: Mapping[str, Computer],
        clock: Clock,
        background: Background,
        thinking: Thinking,
        *,
        pause: tuple[float, float] = PAUSE,
        holding: Holding = EVERY_CHAT,
    ) -> None:
        self._tables = tables
        self._holding = holding
        self._snapshots = snapshots
        self._computers = computers
        """Each game's computer, by game key (the catalog's)."""
        self._thinking = thinking
        self._clock = clock
        self._background = background
        self._pause = pause
        self._turns: dict[int, _Turn] = {}
        self._latest: dict[int, Snapshot] = {}
        self._met: dict[int, Met] = {}
        """Kept in memory only: after a restart a round is found again."""

    async def resume(self) -> None:
        """After a start: computers whose turn it was move again (with several
        workers, those of the chats taken: :meth:`chat_taken`)."""
        if self._holding is not EVERY_CHAT:
            return
        for table in await self._snapshots.open_tables():
            if table.status is Status.PLAYING:
                self.table_changed(await self._snapshots.snapshot(table.id))

    # --- the chats of this worker (services.leases) ------------------------------

    async def chat_taken(self, chat_id: int, given_back: float) -> None:
        """The chat's computers whose turn it is move."""
        for table in await self._snapshots.tables_in_chat(chat_id):
            if table.status is Status.PLAYING:
                self.table_changed(await self._snapshots.snapshot(table.id))

    def chat_dropped(self, chat_id: int) -> None:
        """Stop thinking about the chat's tables and forget them."""
        for table_id in [t for t, s in self._latest.items() if s.table.chat_id == chat_id]:
            del self._latest[table_id]
            self._met.pop(table_id, None)
            turn = self._turns.pop(table_id, None)
            if turn is not None:
                turn.task.cancel()

    async def stop(self) -> None:
        turns = list(self._turns.values())
        self._turns.clear()
        for turn in turns:
            turn.task.cancel()
        for turn in turns:
            with contextlib.suppress(asyncio.CancelledError):
                await turn.task
        self._thinking.close()

    # --- observer -------------------------------------------------------------

    def table_changed(self, snapshot: Snapshot) -> None:
        if not self._holding.holds(snapshot.table.chat_id):
            return
        table_id = snapshot.table.id
        if not self._keep(snapshot):
            return
        turn = self._turns.get(table_id)
        if turn is not None:
            if turn.acting or turn.moves == snapshot.table.moves:
                return  # it will look again when done / it already waits for this
            turn.task.cancel()
            del self._turns[table_id]
        if self._will_search(snapshot):
            self._thinking.warm()
        if self._next_seat(snapshot) is None:
            if snapshot.table.status is not Status.PLAYING:
                self._latest.pop(table_id, None)
                self._met.pop(table_id, None)
            return
        task = self._background.spawn(self._play(snapshot), f"computer-{table_id}")
        self._turns[table_id] = _Turn(snapshot.table.moves, task)

    def _will_search(self, snapshot: Snapshot) -> bool:
        """A game under way in which a computer moves some seat at a level
        that searches: its search workers had better be up before its turn
        (one takes half a second to start, more than the hard level's pause)."""
        table = snapshot.table
        return (
            table.status is Status.PLAYING
            and searches(self._computers[table.game], Level(table.computer_level))
            and any(snapshot.acts_for(seat) for seat in range(len(table.seats)))
        )

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        """Computers need no warning."""

    def _keep(self, snapshot: Snapshot) -> bool:
        """Keep ``snapshot`` as its table's latest unless a newer one is kept;
        whether it was kept."""
        latest = self._latest.get(snapshot.table.id)
        if latest is not None and latest.table.version > snapshot.table.version:
            return False
        self._latest[snapshot.table.id] = snapshot
        return True

    # --- playing --------------------------------------------------------------

    def _next_seat(self, snapshot: Snapshot) -> int | None:
        """The first seat waited on that a computer moves now, if any."""
        waits = snapshot.waits()
        for seat in sorted(waits):
            if snapshot.acts_for(seat) and self._may_act(snapshot, seat, waits):
                return seat
        return None

    @staticmethod
    def _may_act(snapshot: Snapshot, seat: int, waits: Mapping[int, object]) -> bool:
        """Moves made on the table for everybody ("next round") are left to the
        people there, so that nobody is hurried past a score sheet."""
        legal = snapshot.legal(seat)
        if any(a.place is Place.HAND for a in legal):
            return True
        return not any(
            not snapshot.acts_for(other)
            and any(a.place is Place.TABLE for a in snapshot.legal(other))
            for other in waits
            if other != seat
        )

    async def _play(self, seen: Snapshot) -> None:
        table_id = seen.table.id
        pause = random.Random(f"pause:{seen.table.seed}:{seen.table.moves}").uniform(*self._pause)
        if seen.table.moves == 0:
            pause *= OPENING
        seat = self._next_seat(seen)
        if seat is not None and self._searches(seen, seat):
            computer = self._computers[seen.table.game]
            pause -= seconds(computer, Level(seen.table.computer_level)) * self._thinking.scale
        await self._background.wait(self._clock.sleep(pause))
        turn = self._turns.get(table_id)
        if turn is None:
            return
        if not self._holding.holds(seen.table.chat_id):  # another worker's now
            del self._turns[table_id]
            return
        turn.acting = True
        try:
            await self._move(table_id)
        except Exception:
            log.exception("a computer's move at table %s failed", table_id)
        finally:
            if self._turns.get(table_id) is turn:
                del self._turns[table_id]
        latest = self._latest.get(table_id)
        if latest is not None and latest.table.moves != turn.moves:
            self.table_changed(latest)

    def _searches(self, snapshot: Snapshot, seat: int) -> bool:
        """The seat's move is a search's: at a level and in a game that search,
        with a choice to make."""
        table = snapshot.table
        level = Level(table.computer_level)
        return searches(self._computers[table.game], level) and len(snapshot.legal(seat)) > 1

    def _going_round(self, snapshot: Snapshot, seat: int) -> bool:
        """Whether the seat is going round (:meth:`Met.going_round`), with a
        choice to make."""
        table = snapshot.table
        met = self._met.setdefault(table.id, Met())
        return met.going_round(seat, snapshot.view(seat), table.moves) and (
            len(snapshot.legal(seat)) > 1
        )

    async def _move(self, table_id: int) -> None:
        snapshot = await self._snapshots.snapshot(table_id)
        # A move committed while this read waited was kept by table_changed:
        # the older snapshot must not replace it, or the look after this
        # turn would find nothing new and the table would wait forever.
        self._keep(snapshot)
        seat = self._next_seat(snapshot)
        if seat is None:
            return
        table = snapshot.table
        rng = random.Random(f"{table.seed}:{table.moves}:{seat}")
        level = Level(table.computer_level)
        computer = self._computers[table.game]
        code = None
        if self._going_round(snapshot, seat):
            code = rng.choice(snapshot.legal(seat)).encode()
        elif self._searches(snapshot, seat):
            try:
                situation = snapshot.situation(seat)
                code = await self._thinking.choose(situation, computer, level, rng.getrandbits(63))
            except ThinkingFailed:
                log.warning("the search workers broke; table %s plays its heuristic", table_id)
            except Exception:
                # A search that raises would raise again on every look: the
                # heuristic moves, so that the table goes on.
                log.exception("a search at table %s failed; it plays its heuristic", table_id)
        if code is None:
            legal = snapshot.legal(seat)
            heuristic = computer.heuristic
            code = heuristic.choose(snapshot.rules, snapshot.view(seat), legal, rng).encode()
        try:
            await self._tables.act(
                table_id, seat, code, actor=Actor.COMPUTER, expected_moves=table.moves
            )
        except ServiceError as exc:
            # Somebody moved first (a thrower's card, the timer): look again,
            # at the table as it is now.
            log.debug("computer move at table %s refused: %s", table_id, exc.key)
            self._keep(await self._snapshots.snapshot(table_id))

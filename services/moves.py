"""Writing a move: the step every change of a game shares, whoever acts.

Inside the caller's transaction (the table service's, or a unit of work's) a
move is applied to a clone of the cached game, the table is updated with the
optimistic version check, the move and its events are logged, the deadlines
the turn rules give (:mod:`services.turns`) are written, and a finished game's
result and scores are recorded and the game is rated (:mod:`services.ratings`).
The caller publishes the :class:`WrittenMove` after the commit.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.core import RESIGN, ActionParseError, Game, IllegalAction, Outcome
from services import turns
from services.clock import Clock
from services.errors import ServiceError
from services.ratings.rating import rate_game
from services.snapshots import RECENT, LoggedEvent, Snapshots
from storage import Actor, DeadlineRow, ScoreDelta, Status, TableRow, Tx

__all__ = ["Moves", "WrittenMove"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """A move written inside a transaction, to be published after the commit."""

    table: TableRow
    game: Game[Any, Any, Any, Any]
    deadlines: list[DeadlineRow]
    recent: tuple[LoggedEvent, ...]


class Moves:
    def __init__(self, snapshots: Snapshots, clock: Clock) -> None:
        self._snapshots = snapshots
        self._clock = clock

    async def write(
        self,
        tx: Tx,
        table: TableRow,
        seat: int,
        code: str,
        actor: Actor,
        *,
        prior: WrittenMove | None = None,
    ) -> WrittenMove:
        """``seat`` makes the move ``code`` (an action code, or :data:`RESIGN`).

        ``prior``: the move just written in this transaction, to go on from
        (a timed-out turn's follow-up; not in the cache, which holds committed
        states only)."""
        if table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        if prior is None:
            base, earlier = await self._snapshots.played(tx, table)
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
        deadlines = await self.deadlines(tx, after, game, seat)
        await tx.deadlines.replace(table.id, deadlines)
        logged = tuple(LoggedEvent(n, seat, actor, e) for e in events)
        recent = (earlier + logged)[-RECENT:]
        return WrittenMove(after, game, deadlines, recent)

    async def deadlines(
        self, tx: Tx, table: TableRow, game: Game[Any, Any, Any, Any] | None, mover: int | None
    ) -> list[DeadlineRow]:
        """The deadlines after ``mover``'s move (None: after a change nobody
        moved for); the running ones are read only when one may be kept."""
        before: Mapping[int, DeadlineRow] = {}
        if game is not None and turns.may_keep_deadlines(table, game, mover):
            before = {d.seat: d for d in await tx.deadlines.of_table(table.id)}
        return turns.deadlines(table, game, self._clock.now(), before=before, mover=mover)

    async def present(self, tx: Tx, table: TableRow, seat: int) -> TableRow:
        """The seat's player acted himself: he is here again (see
        :func:`services.turns.pressed`); back from absence, his seat has a clock
        again.  Returns the table as it now stands (``table`` itself if nothing
        changed)."""
        row = table.seats[seat]
        presence = turns.pressed(row)
        if presence is None:
            return table
        await tx.tables.set_presence(
            table.id, seat, timeouts=presence.timeouts, absent=presence.absent
        )
        version = await tx.tables.update(table.id, table.version)
        returned = replace(turns.with_presence(table, seat, presence), version=version)
        if row.absent:
            game = self._snapshots.game(returned)
            await tx.deadlines.replace(table.id, await self.deadlines(tx, returned, game, None))
        return returned

    async def _rate(self, tx: Tx, table_id: int) -> None:
        """Rate the game with its result; a failure undoes the rating alone (the
        game still ends), and the next start's catch-up rates it."""
        await tx.ratings.savepoint()
        try:
            await rate_game(tx, self._snapshots, table_id)
        except Exception:
            log.exception("rating table %s failed; it is rated at the next start", table_id)
            await tx.ratings.undo()
        else:
            await tx.ratings.keep()

    async def _finish(
        self, tx: Tx, table: TableRow, outcome: Outcome, *, ended_by_kick: bool
    ) -> None:
        """Record the result and the people's scores.  A player removed by
        /kick gets nothing for the game (neither played nor lost); a game the
        removal itself ended counts for nobody, as a cancel would (else a kick
        could hand out wins); a player the table removed for being absent, or
        away when it ended, walked away from it and has lost it."""
        await tx.scores.record_result(table.id, table.chat_id, table.game, outcome.to_json())
        await self._rate(tx, table.id)
        if ended_by_kick:
            return
        removed = await tx.tables.removals(table.id, RESIGN)
        deltas = []
        for s in table.seats:
            if s.user_id is None or removed.get(s.seat) is Actor.ADMIN:
                continue
            if s.seat in removed or s.absent:
                # Out, or away at the end (``/leave``, or timed out and never
                # back): what a computer won for his seat is not his.
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

"""The analysis of a person's play in a finished game, for his DM.

The game's history (:mod:`services.history`) gives every position; each
decision of his (a move he made himself, with more than one legal move) is
valued by the search from what his seat knew at the time
(:mod:`players.analysis`: never a card he could not see), in the worker pool's
low-priority worker, one decision per slice (:meth:`Thinking.analyse`), the
time an analysis takes bounded (:data:`SECONDS` in all, shared among the
decisions).  The three costliest moves are kept, with the better move, and
the luck of his deal is measured by self-play from it (in a game of many
deals whose self-play stops at a round's end, from each of them: their mean).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core import Action, Event, Game, perform
from players.analysis import Assessment, assess, assess_request, assessed, luck, luck_request
from players.computer import Computer
from services.errors import ServiceError
from services.history import Histories
from services.thinking import Thinking
from storage import Actor, Database, OwedAnalysis, Status, TableRow

__all__ = ["Analyses", "Analysis", "Mistake"]

SECONDS = 30.0
"""The search time of one analysis, shared among its decisions (at the
thinking scale of 1; tests shrink it)."""
LEAST_SECONDS = 0.05
"""The least search time a decision gets however many there are."""
MOST_SECONDS = 2.0
"""The most a decision gets: twice the hard level's time."""
SHOWN = 3
"""The costliest moves shown."""
PLAYOUTS = 24
"""Self-played games from the deal that measure its luck."""
ROUND_PLAYOUTS = 6
"""The fewest self-played rounds from each deal of a game of many (101's
rounds, Joker's deals, Daytona's races), whose luck is their mean."""


@dataclass(frozen=True, slots=True)
class Mistake:
    """One of the costliest moves."""

    move: int
    """Its number in the game's move log."""
    assessment: Assessment
    played: list[Event]
    """What the move played did (for painting it as the game's screens do)."""
    better: list[Event]
    """What the better move would have done."""
    played_action: Action
    better_action: Action
    view: Any
    """The seat's view before the move: where a move's events tell nothing (a
    pass), it is named by its key there."""


@dataclass(frozen=True, slots=True)
class Analysis:
    table: TableRow
    seat: int
    decisions: int
    """His decisions valued (moves with a choice that he made himself)."""
    mistakes: tuple[Mistake, ...]
    """The costliest, costliest first (none: no move clearly cost anything)."""
    luck: float
    """His seat's mean value in self-play from the deal (0..1): where games
    are played to the end, 1 for the best place and 0 for the worst (two
    players: the share of games his seat won); where they stop at a round's
    end, 0.5 for as many points as the others, more for more."""
    average: float
    """The mean over every seat."""
    in_points: bool
    """Costs are points ahead of the others (else chances)."""
    playouts: int = PLAYOUTS
    """Self-played games the luck is measured over (of each deal)."""
    rounds: int = 1
    """The deals it is measured on: every round of a game whose self-play
    stops at a round's end (its mean), else the one deal."""


class Analyses:
    def __init__(
        self,
        db: Database,
        histories: Histories,
        computers: Mapping[str, Computer],
        thinking: Thinking,
    ) -> None:
        self._db = db
        self._histories = histories
        self._computers = computers
        self._thinking = thinking
        self._running: set[tuple[int, int]] = set()

    async def table_for(self, user_id: int, table_id: int | None) -> TableRow:
        """The finished game of ``user_id`` to analyse: ``table_id``, or his
        last finished game; refused (:class:`ServiceError`) when he did not
        play it or it is not over, or an analysis of it for him is under way."""
        table = await self._finished(user_id, table_id)
        if (table.id, user_id) in self._running:
            raise ServiceError("analysis.running", id=table.id)
        return table

    def reserve(self, table_id: int, user_id: int) -> None:
        """Claim the analysis of ``user_id``'s play at ``table_id`` as it is
        queued, until :meth:`of` is done with it: a second request meanwhile
        is refused at once (``analysis.running``), not promised and then
        told, in another message, that the first was under way."""
        if (table_id, user_id) in self._running:
            raise ServiceError("analysis.running", id=table_id)
        self._running.add((table_id, user_id))

    async def of(self, table_id: int, user_id: int) -> Analysis:
        """Analyse ``user_id``'s play at the finished ``table_id`` (claimed by
        :meth:`reserve` when it was queued, else here)."""
        key = (table_id, user_id)
        self._running.add(key)
        try:
            table = await self._finished(user_id, table_id)
            return await self._analysed(table, user_id)
        finally:
            self._running.discard(key)

    async def _finished(self, user_id: int, table_id: int | None) -> TableRow:
        async with self._db.read() as tx:
            if table_id is None:
                table = await tx.tables.last_finished_of(user_id)
                if table is None:
                    raise ServiceError("analysis.none")
            else:
                table = await tx.tables.get(table_id)
        if table is None or table.seat_of(user_id) is None:
            raise ServiceError("analysis.not_yours", id=table_id or 0)
        if table.status is not Status.FINISHED:
            raise ServiceError("analysis.not_finished", id=table.id)
        return table

    async def owe(self, table_id: int, user_id: int, lang: str) -> None:
        """Record the analysis claimed (:meth:`reserve`) as promised to
        ``user_id`` (in ``lang``), so that a restart before it is sent starts
        it again (:meth:`owed`).  Not recorded, the claim is let go: else every
        later request would be told it is under way."""
        try:
            async with self._db.transaction() as tx:
                await tx.analyses.owe(table_id, user_id, lang)
        except BaseException:
            self._running.discard((table_id, user_id))
            raise

    async def owed(self, since: float) -> list[OwedAnalysis]:
        """The analyses promised since ``since`` and not sent yet (older ones
        are given up: a promise that old is better forgotten)."""
        async with self._db.transaction() as tx:
            await tx.analyses.give_up(since)
            return await tx.analyses.owed()

    async def sent(self, table_id: int, user_id: int) -> None:
        """The promised analysis went out (or its refusal did): nothing is owed."""
        async with self._db.transaction() as tx:
            await tx.analyses.sent(table_id, user_id)

    async def _analysed(self, table: TableRow, user_id: int) -> Analysis:
        seat = table.seat_of(user_id)
        assert seat is not None
        history = await self._histories.of(table.id)
        computer = self._computers[table.game]
        decisions: list[tuple[int, Game[Any, Any, Any, Any], str]] = []
        game = history.start()
        stop_at = computer.horizon.stop_at
        deals = [history.start()]  # where each round began: its luck is played from there
        for move in history.moves:
            if (
                move.seat == seat
                and move.actor is Actor.PLAYER
                and len(game.legal_actions(seat)) > 1
            ):
                decisions.append((move.n, game.clone(), move.action))
            events = perform(game, move.seat, move.action)
            if stop_at and game.outcome() is None and any(e.kind in stop_at for e in events):
                deals.append(game.clone())
        scale = self._thinking.scale
        seconds = min(MOST_SECONDS, max(LEAST_SECONDS, SECONDS / max(1, len(decisions)))) * scale
        assessed_moves: list[tuple[int, Game[Any, Any, Any, Any], Assessment]] = []
        for n, position, played in decisions:
            request = assess_request(position, seat, played, computer, seconds, seed=n)
            found = assessed(await self._thinking.analyse(assess, request))
            if found.significant:
                assessed_moves.append((n, position, found))
        assessed_moves.sort(key=lambda found: -found[2].cost)
        mistakes = tuple(
            Mistake(
                n,
                found,
                _events(position, seat, found.played),
                _events(position, seat, found.best),
                type(position).decode_action(found.played),
                type(position).decode_action(found.best),
                position.view(seat),
            )
            for n, position, found in assessed_moves[:SHOWN]
        )
        playouts = max(ROUND_PLAYOUTS, -(-PLAYOUTS // len(deals)))
        values = [0.0] * len(table.seats)
        for i, dealt in enumerate(deals):
            request = luck_request(dealt, computer, playouts, seed=table.id * 1_000 + i)
            for s, value in enumerate(await self._thinking.analyse(luck, request)):
                values[s] += value / len(deals)
        return Analysis(
            table,
            seat,
            len(decisions),
            mistakes,
            values[seat],
            sum(values) / len(values),
            computer.horizon.in_points,
            playouts,
            len(deals),
        )


def _events(position: Game[Any, Any, Any, Any], seat: int, code: str) -> list[Event]:
    """What ``code`` does from ``position`` (public events only, as every
    move's are)."""
    return perform(position.clone(), seat, code)

"""Provably fair deals: every game is dealt from a seed drawn from the operating
system's secure source, and the bot commits to the deal before anyone plays.

The commitment is the SHA-256 of the seed and the game as dealt (every card's
place: each hand, the stock in order, the trump), shown in the group's table
message while the game runs.  A match of many deals (101's rounds, Joker's 24
deals) needs one commitment: every later shuffle comes from the same seed.  At
the end the seed is shown, and :meth:`Fairness.verify` (``/verify`` in the
group, ``python -m bot.verify`` offline) deals the game again from it, checks
the commitment, and replays the move log: every card dealt, drawn and played
must come out exactly as the players saw it, up to the final state.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.core import Game, GameError, Outcome, perform
from games.spec import GameSpec
from services.errors import ServiceError
from services.snapshots import Snapshots
from storage import Database, Status, TableRow, Tx

__all__ = ["Fairness", "Verdict", "commitment", "deal"]

_SCHEME = "koloda-deal-v1"
_ALL_MOVES = 1_000_000


def commitment(game: str, seed: int, dealt: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the seed and the game as dealt, in a canonical JSON."""
    canonical = json.dumps(dealt, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{_SCHEME}|{game}|{seed}|{canonical}".encode()).hexdigest()


async def deal(tx: Tx, spec: GameSpec, table: TableRow, seed: int) -> Game[Any, Any, Any, Any]:
    """Deal ``table``'s game (``spec``'s) from ``seed``: what the lobby does at
    the start and what a verification does again."""
    previous = await previous_outcome(tx, table)
    rules = spec.rules.from_json(table.rules)
    return spec.game.new(rules, len(table.seats), random.Random(seed), previous=previous)


async def previous_outcome(tx: Tx, table: TableRow) -> Outcome | None:
    """The previous game's outcome (a rematch may start with its winner),
    re-expressed in this table's seats; None when a player of that game is
    missing (who dealt no longer matters)."""
    if table.previous_id is None:
        return None
    previous = await tx.tables.get(table.previous_id)
    raw = await tx.scores.result(table.previous_id)
    if previous is None or raw is None or len(previous.seats) != len(table.seats):
        return None
    now = {seat.identity: seat.seat for seat in table.seats}
    try:
        new_seat = {seat.seat: now[seat.identity] for seat in previous.seats}
    except KeyError:
        return None
    old = Outcome.from_json(raw)
    return Outcome(
        places=tuple(tuple(new_seat[s] for s in group) for group in old.places),
        winners=frozenset(new_seat[s] for s in old.winners),
        losers=frozenset(new_seat[s] for s in old.losers),
        draw=old.draw,
        scores=None,
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a verification found."""

    table_id: int
    game: str
    seed: int
    commitment: str
    moves: int
    """Moves replayed (all of them when nothing disagreed)."""
    problem: str | None = None
    """None: the deal is proven.  Else what disagreed: ``commitment`` (the seed
    and the deal do not give the published hash), ``deal`` (the seed does not
    deal what was dealt), ``move`` (a move did not come out as logged),
    ``state`` (the replay does not end where the game ended)."""
    move: int | None = None
    """The move that did not come out as logged."""
    duplicate_of: int | None = None
    """The table whose deal this one played again (a duplicate), if any."""
    rotation: int = 0
    """Seats each person moved on from that table."""

    @property
    def ok(self) -> bool:
        return self.problem is None


class Fairness:
    def __init__(self, db: Database, snapshots: Snapshots) -> None:
        self._db = db
        self._snapshots = snapshots

    async def verify(self, chat_id: int | None, table_id: int | None) -> Verdict:
        """Check the deal of a game that is over: ``table_id``, or the last
        game dealt in ``chat_id`` (refused while it is still being played);
        ``chat_id`` None (offline) checks any table."""
        async with self._db.read() as tx:
            if table_id is None:
                assert chat_id is not None
                table_id = await tx.tables.last_dealt(chat_id)
                if table_id is None:
                    raise ServiceError("fair.none_here")
            table = await tx.tables.get(table_id)
            if table is None or (chat_id is not None and table.chat_id != chat_id):
                raise ServiceError("fair.unknown", id=table_id)
            if table.seed is None or table.state is None:
                raise ServiceError("fair.not_dealt", id=table_id)
            if table.status is Status.PLAYING:
                raise ServiceError("fair.in_play", id=table_id)
            if table.commitment is None:
                raise ServiceError("fair.before_commitments", id=table_id)
            dealt = await tx.tables.deal(table_id)
            # A duplicate plays the deal of its set's first table: it is proven
            # by dealing that table's game again (services/duplicates.py).
            origin = table
            if table.duplicate_of is not None:
                origin = await tx.tables.get(table.duplicate_of) or table
            game = await deal(tx, self._snapshots.spec(table.game), origin, table.seed)
            moves = await tx.tables.moves_after(table_id, 0, _ALL_MOVES)
        verdict = Verdict(
            table_id,
            table.game,
            table.seed,
            table.commitment,
            0,
            duplicate_of=table.duplicate_of,
            rotation=table.rotation,
        )
        if dealt is None or commitment(table.game, table.seed, dealt) != table.commitment:
            return replace(verdict, problem="commitment")
        if game.dump() != dealt:
            return replace(verdict, problem="deal")
        for replayed, move in enumerate(moves):
            try:
                events = perform(game, move.seat, move.action)
            except GameError:
                events = None
            if events is None or [e.to_json() for e in events] != move.events:
                return replace(verdict, moves=replayed, problem="move", move=move.n)
        verdict = replace(verdict, moves=len(moves))
        if game.dump() != table.state:
            return replace(verdict, problem="state")
        return verdict

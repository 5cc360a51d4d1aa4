"""Provably fair deals that nobody can choose.

**Scheme v2** (``koloda-deal-v2``, every table opened since migration 0009):

1. When a table opens, the bot draws its own secret seed (256 bits from the
   operating system's secure source) and publishes the SHA-256 commitment to
   it in the lobby message (:func:`seed_commitment`), before any player has
   done anything at the table.
2. While the lobby is open, the players' contributions are collected
   (:func:`press`, :func:`word`): Telegram's id of each press that seats a
   player or starts the game (chosen by Telegram, unknown to the bot until
   the press arrives), and any word a seated player adds with ``/salt``.
3. At the start the game is dealt from :func:`mixed_seed`: the SHA-256 of the
   scheme, the bot's seed and the contributions (sorted), and the bot commits
   to the deal as before (:func:`commitment`: every card's place).

The bot cannot pick the cards, since its seed was fixed before the
contributions existed; no player can, since the bot's seed is secret until the
game is over.  A match of many deals (101's rounds, Joker's 24 deals) needs
one commitment: every later shuffle comes from the same seed.

**Scheme v1** (``koloda-deal-v1``, games dealt before, and tests that fix
their deals): a seed drawn at the start, the deal committed as above.

At the end the seeds are shown, and :meth:`Fairness.verify` (``/verify`` in
the group, ``python -m bot.verify`` offline) checks the bot's commitment and
the mixing (v2), deals the game again from the seed, checks the deal's
commitment, and replays the move log through :class:`~services.history.History`:
every card dealt, drawn and played must come out as the players saw it, up to
the final state.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import Game, Outcome
from games.spec import GameSpec
from services.errors import ServiceError
from services.history import Histories, HistoryError
from services.snapshots import Snapshots
from storage import Database, Status, TableRow, Tx

__all__ = [
    "MAX_CONTRIBUTIONS",
    "SCHEME_V1",
    "SCHEME_V2",
    "Fairness",
    "Verdict",
    "commitment",
    "deal",
    "mixed_seed",
    "new_server_seed",
    "press",
    "seed_commitment",
    "word",
]

SCHEME_V1 = "koloda-deal-v1"
"""A seed drawn at the start; the deal committed."""
SCHEME_V2 = "koloda-deal-v2"
"""The bot's seed committed when the table opens, mixed with the players'
contributions at the start; the deal committed."""
_SEED_PREFIX = "koloda-seed-v2"
MAX_CONTRIBUTIONS = 64
"""Contributions kept per table (joining and leaving again adds no more)."""
MAX_WORD = 32
"""Characters of a ``/salt`` word kept."""


def new_server_seed() -> str:
    """The bot's secret seed of a table: 256 bits, hex."""
    return secrets.token_hex(32)


def seed_commitment(server_seed: str) -> str:
    """SHA-256 (hex) of the bot's seed, published before any contribution."""
    return hashlib.sha256(f"{_SEED_PREFIX}|{server_seed}".encode()).hexdigest()


def press(query_id: str) -> str:
    """A contribution: Telegram's id of a press (a callback query's id)."""
    return f"press:{query_id}"


def word(user_id: int, text: str) -> str:
    """A contribution: a word a seated player adds (``/salt``)."""
    return f"word:{user_id}:{text[:MAX_WORD]}"


def mixed_seed(server_seed: str, contributions: Sequence[str]) -> int:
    """The seed a v2 game is dealt from: SHA-256 over the scheme, the bot's
    seed and the contributions in a canonical order (sorted, as JSON), its
    first 63 bits."""
    canonical = json.dumps(sorted(contributions), separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(f"{SCHEME_V2}|{server_seed}|{canonical}".encode()).hexdigest()
    return int(digest[:16], 16) >> 1


def commitment(game: str, seed: int, dealt: Mapping[str, Any], scheme: str = SCHEME_V1) -> str:
    """SHA-256 (hex) of the scheme, the seed and the game as dealt, in a
    canonical JSON."""
    canonical = json.dumps(dealt, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{scheme}|{game}|{seed}|{canonical}".encode()).hexdigest()


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
    """None: the deal is proven.  Else what disagreed: ``seed_commitment``
    (the bot's seed does not give the hash published in the lobby), ``mix``
    (the bot's seed and the contributions do not give the seed dealt from),
    ``commitment`` (the seed and the deal do not give the published hash),
    ``deal`` (the seed does not deal what was dealt), ``move`` (a move did not
    come out as logged), ``state`` (the replay does not end where the game
    ended)."""
    move: int | None = None
    """The move that did not come out as logged."""
    scheme: str = SCHEME_V1
    server_seed: str | None = None
    """The bot's seed (v2)."""
    seed_commitment: str | None = None
    """The commitment to it shown in the lobby (v2)."""
    contributions: tuple[str, ...] = ()
    """The players' contributions mixed in (v2)."""
    duplicate_of: int | None = None
    """The table whose deal this one played again (a duplicate), if any."""
    rotation: int = 0
    """Seats each person moved on from that table."""

    @property
    def ok(self) -> bool:
        return self.problem is None


class Fairness:
    def __init__(self, db: Database, snapshots: Snapshots, histories: Histories) -> None:
        self._db = db
        self._snapshots = snapshots
        self._histories = histories

    async def verify(
        self, chat_id: int | None, table_id: int | None, *, user_id: int | None = None
    ) -> Verdict:
        """Check the deal of a game that is over: ``table_id``, or the last
        game dealt in ``chat_id`` (refused while it is still being played);
        ``chat_id`` None (a private chat, or offline) checks any table, and
        by default the last game over that ``user_id`` played."""
        async with self._db.read() as tx:
            if table_id is None:
                if chat_id is not None:
                    table_id = await tx.tables.last_dealt(chat_id)
                elif user_id is not None:
                    table_id = await tx.tables.last_over_of_user(user_id)
                if table_id is None:
                    raise ServiceError(
                        "fair.none_here" if chat_id is not None else "fair.none_yours"
                    )
            table = await tx.tables.get(table_id)
            if table is None or (chat_id is not None and table.chat_id != chat_id):
                raise ServiceError(
                    "fair.unknown" if chat_id is not None else "fair.no_such_table", id=table_id
                )
            if table.seed is None or table.state is None:
                raise ServiceError("fair.not_dealt", id=table_id)
            if table.status is Status.PLAYING:
                raise ServiceError("fair.in_play", id=table_id)
            if table.commitment is None:
                raise ServiceError("fair.before_commitments", id=table_id)
            # A duplicate plays the deal of its set's first table: it is proven
            # by dealing that table's game again (services/duplicates.py), by
            # the scheme and seeds that table was dealt with.
            origin = table
            if table.duplicate_of is not None:
                origin = await tx.tables.get(table.duplicate_of) or table
            game = await deal(tx, self._snapshots.spec(table.game), origin, table.seed)
        history = await self._histories.of(table_id)
        scheme = origin.scheme or SCHEME_V1
        verdict = Verdict(
            table_id,
            table.game,
            table.seed,
            table.commitment,
            0,
            scheme=scheme,
            server_seed=origin.server_seed,
            seed_commitment=origin.seed_commitment,
            contributions=origin.contributions,
            duplicate_of=table.duplicate_of,
            rotation=table.rotation,
        )
        if scheme == SCHEME_V2:
            if (
                origin.server_seed is None
                or origin.seed_commitment is None
                or seed_commitment(origin.server_seed) != origin.seed_commitment
            ):
                return replace(verdict, problem="seed_commitment")
            if mixed_seed(origin.server_seed, origin.contributions) != table.seed:
                return replace(verdict, problem="mix")
        elif scheme != SCHEME_V1:
            return replace(verdict, problem="commitment")
        if commitment(table.game, table.seed, history.dealt, scheme) != table.commitment:
            return replace(verdict, problem="commitment")
        if game.dump() != history.dealt:
            return replace(verdict, problem="deal")
        replayed, last = 0, history.start()
        try:
            for step in history.steps():
                replayed += 1
                last = step.game
        except HistoryError as exc:
            return replace(verdict, moves=replayed, problem="move", move=exc.move)
        verdict = replace(verdict, moves=replayed)
        if last.dump() != table.state:
            return replace(verdict, problem="state")
        return verdict

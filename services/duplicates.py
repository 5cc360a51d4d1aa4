"""The same cards again: duplicates ("same deal, seats turned").

A finished game of 2 to :data:`MOST_SEATS` seats offers a duplicate: a new
table in the same chat with the same people, rules and settings that plays the
*identical* game as it was dealt (``tables.deal``: every hand, the stock in
order, and the seed every later shuffle comes from), with each person moved on
by one seat, so that he sits where his left neighbour sat and is dealt the
hand his neighbour had.  Nothing game-specific is needed: the engines are
deterministic state machines whose seats are places, not people, so loading
the same dealt state reproduces every card of the match (101's later rounds,
Joker's 24 deals, Daytona's races) for whoever holds a place; only who sits
where changes.  A game registered in ``bot/catalog.py`` gets duplicates as it
is.

After as many games as seats (the *set*: the first table, then rotations
1..n-1, each ``duplicate_of`` the first), every person has held every hand
once, and the group gets the :class:`Comparison`: per hand, what each person
made of it, in matchpoints (2 for each player finished ahead of at that
table, 1 for each tie), and their totals.

The deal's proof: a duplicate records the table it was derived from
(``duplicate_of``) and its ``rotation``, and carries that table's seed and
commitment; ``/verify`` proves its deal from the first table's (see
:mod:`services.fairness`).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import Outcome
from services.directory import Person
from services.errors import ServiceError
from services.snapshots import Snapshot, Snapshots
from services.tables import Tables
from storage import Database, Status, TableRow

__all__ = ["MOST_SEATS", "Comparison", "Duplicates", "HandResult", "matchpoints"]

MOST_SEATS = 4
"""Duplicates are offered for games of 2 to this many seats: a set is as many
games as seats, and five games of one deal are more than a group sits through."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one person made of one hand."""

    points: int
    """Matchpoints at the table where he held it (see :func:`matchpoints`)."""
    place: int
    """His place there, from 1."""
    score: int | None
    """His final score there, for a game that keeps one."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """A finished set: who did best with the same cards."""

    first: TableRow
    """The set's first table: its seats name the people and the hands (hand
    ``h`` is the one seat ``h`` held there)."""
    results: tuple[tuple[HandResult, ...], ...]
    """``results[h][p]``: what the person of the first table's seat ``p``
    made of hand ``h``."""

    @property
    def totals(self) -> tuple[int, ...]:
        """Each person's matchpoints over the set."""
        return tuple(
            sum(hand[person].points for hand in self.results)
            for person in range(len(self.first.seats))
        )


def matchpoints(outcome: Outcome, seat: int, seats: int) -> int:
    """2 for every seat ``seat`` finished ahead of, 1 for every tie (a drawn
    game ties everybody); a game's losers (the durak) are behind the rest."""
    place = place_of(outcome, seat)
    points = 0
    for other in range(seats):
        if other == seat:
            continue
        theirs = place_of(outcome, other)
        if outcome.draw or theirs == place:
            points += 1
        elif place < theirs:
            points += 2
    return points


def place_of(outcome: Outcome, seat: int) -> int:
    """``seat``'s place from 0, losers after everybody else: right after the
    last place someone else holds, so that a table of three places its durak
    third (Durak lists him before the players who left the game)."""
    ahead = [group for group in outcome.places if not outcome.losers.issuperset(group)]
    if seat in outcome.losers:
        return len(ahead)
    return next((i for i, group in enumerate(ahead) if seat in group), len(ahead))


class Duplicates:
    def __init__(self, db: Database, tables: Tables, snapshots: Snapshots) -> None:
        self._db = db
        self._tables = tables
        self._snapshots = snapshots

    @staticmethod
    def offered(table: TableRow) -> bool:
        """Whether the finished ``table``'s result offers the set's next
        duplicate (none after the last rotation: the comparison comes)."""
        seats = len(table.seats)
        return (
            table.status is Status.FINISHED
            and table.commitment is not None
            and 2 <= seats <= MOST_SEATS
            and table.rotation < seats - 1
        )

    @staticmethod
    def completes(table: TableRow) -> bool:
        """Whether the finished ``table`` is its set's last game."""
        return (
            table.status is Status.FINISHED
            and table.duplicate_of is not None
            and table.rotation == len(table.seats) - 1
        )

    async def deal_next(self, table_id: int, person: Person) -> Snapshot:
        """Open and deal the duplicate that follows the finished ``table_id``,
        asked for by ``person``, a player of it."""
        table = await self._snapshots.table(table_id)
        if table.status is not Status.FINISHED:
            raise ServiceError("error.not_finished")
        if table.seat_of(person.id) is None:
            raise ServiceError("error.not_seated")
        if not self.offered(table):
            raise ServiceError("duplicate.not_offered")
        first_id = table.duplicate_of or table.id
        rotation = table.rotation + 1
        async with self._db.read() as tx:
            first = await tx.tables.get(first_id)
            dealt = await tx.tables.deal(first_id)
            played = await tx.tables.duplicates(first_id)
        if first is None or dealt is None:
            raise ServiceError("duplicate.not_offered")
        if any(t.rotation == rotation and t.status is not Status.CANCELLED for t in played):
            raise ServiceError("duplicate.already")
        seats = len(first.seats)
        async with self._tables.open(
            table.chat_id,
            table.thread_id,
            first.game,
            first.rules,
            person.id,
            turn_seconds=table.turn_seconds,
            on_absence=table.on_absence,
            computer_level=table.computer_level,
            duplicate_of=first.id,
            rotation=rotation,
        ) as change:
            # Seat j takes the person who sat ``rotation`` seats before it at
            # the first table: everybody holds his left neighbour's cards.
            for seat in range(seats):
                row = first.seats[(seat - rotation) % seats]
                if row.user_id is None:
                    assert row.computer is not None
                    await change.seat_computer(row.computer)
                else:
                    await change.seat_person(row.user_id)
            await change.deal_again(first, dealt)
        return change.snapshot

    async def comparison(self, table_id: int) -> Comparison | None:
        """The comparison of the set ``table_id`` completes (None when some
        rotation of it has no finished game)."""
        async with self._db.read() as tx:
            table = await tx.tables.get(table_id)
            if table is None or table.duplicate_of is None:
                return None
            played = await tx.tables.duplicates(table.duplicate_of)
            by_rotation: dict[int, tuple[TableRow, Outcome]] = {}
            for row in played:
                raw = await tx.scores.result(row.id)
                if row.status is Status.FINISHED and raw is not None:
                    by_rotation[row.rotation] = (row, Outcome.from_json(raw))
        seats = len(table.seats)
        if sorted(by_rotation) != list(range(seats)):
            return None
        first = by_rotation[0][0]
        results: list[tuple[HandResult, ...]] = []
        for hand in range(seats):
            of_hand = []
            for person in range(seats):
                # The person of the first table's seat p sits at p + k in
                # rotation k, so he held hand h in rotation h - p.
                _, outcome = by_rotation[(hand - person) % seats]
                of_hand.append(
                    HandResult(
                        matchpoints(outcome, hand, seats),
                        place_of(outcome, hand) + 1,
                        None if outcome.scores is None else outcome.scores[hand],
                    )
                )
            results.append(tuple(of_hand))
        return Comparison(first, tuple(results))

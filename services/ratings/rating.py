"""Rating one finished game: the step the game-over transaction takes (and the
catch-up and the recompute take, game by game in the order they finished).

The game is read once (``rated_games``): rated, or recorded with why it was
not.  In its chat's current season every person's rating moves; across chats
it counts only for the first :data:`DAILY_CAP` games a day of the same company
(the same people and computer level in the same game family), and computers
(one rating per game family and level, kept across chats) learn there only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core import RESIGN, Outcome
from games.spec import GameSpec
from services.errors import ServiceError
from services.history import History
from services.ratings.model import Skill, Unit, partial, rate, units
from services.ratings.seasons import day_of, season_of
from services.snapshots import Snapshots
from storage import Actor, MoveRow, RatedGame, RatingEvent, TableRow, Tx

__all__ = ["ACROSS", "DAILY_CAP", "Seat", "family_of", "rate_game", "who_person"]

DAILY_CAP = 3
"""Games a day with the same company that count across chats."""
ACROSS = 0
"""The scope of the ratings across chats (a chat's scope is its id)."""
_ALL_MOVES = 1_000_000
_ACHIEVER_SHARE = 0.5
"""A person earns a seat's achievement if he made at least this share of its moves."""


def who_person(user_id: int) -> str:
    return f"u{user_id}"


def _who_computer(level: str) -> str:
    return f"c{level}"


def family_of(spec: GameSpec, rules: object) -> str:
    """``durak/perevodnoy``, or the game's key for a game of one family."""
    family = spec.rated.family(rules)
    return f"{spec.key}/{family}" if family else spec.key


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the ratings see it: who is rated for it and for how much."""

    seat: int
    who: str
    share: float
    """The part of the seat's moves its player made (1: all)."""
    person: int | None


def _seats(table: TableRow, history: History | None) -> list[Seat]:
    """Per seat its rated player: the person (by his share of the seat's moves,
    when a computer took over from him) or the table's computer level; a
    person who made none of his seat's moves leaves it to the computer."""
    by_seat = history.moves_by_seat() if history is not None else {}
    computer = _who_computer(table.computer_level)
    seats = []
    for row in table.seats:
        if row.user_id is None:
            seats.append(Seat(row.seat, computer, 1.0, None))
            continue
        actors = by_seat.get(row.seat, {})
        total = sum(actors.values())
        share = 1.0 if total == 0 else 1 - actors.get(Actor.COMPUTER.value, 0) / total
        if share > 0:
            seats.append(Seat(row.seat, who_person(row.user_id), share, row.user_id))
        else:
            seats.append(Seat(row.seat, computer, 1.0, None))
    return seats


def _skip(
    spec: GameSpec,
    rules: object,
    table: TableRow,
    moves: Sequence[MoveRow],
    rated: list[Unit],
    seats: list[Seat],
) -> str | None:
    """Why the game is not rated (None: it is)."""
    if moves and moves[-1].action == RESIGN and moves[-1].actor is Actor.ADMIN:
        return "kick"  # a game /kick ended counts for nobody
    if spec.rated.trivial(rules, len(table.seats)):
        return "trivial"
    if not any(s.person is not None for s in seats):
        return "computers"
    if len(rated) < 2:
        return "one_side"
    return None


async def rate_game(tx: Tx, snapshots: Snapshots, table_id: int) -> None:
    """Rate the finished game at ``table_id`` (once: a game read is skipped)."""
    await tx.ratings.lock()
    if await tx.ratings.rated_game(table_id) is not None:
        return
    finished = await tx.ratings.finished(table_id)
    table = await tx.tables.get(table_id)
    if finished is None or table is None:
        return
    try:
        spec = snapshots.spec(table.game)
    except ServiceError:  # a game no longer hosted
        await tx.ratings.read_game(
            RatedGame(
                table_id,
                table.chat_id,
                table.game,
                "unknown_game",
                "",
                "",
                False,
                finished.finished_at,
            )
        )
        return
    rules = spec.rules.from_json(table.rules)
    family = family_of(spec, rules)
    moves = await tx.tables.moves_after(table_id, 0, _ALL_MOVES)
    dealt = await tx.tables.deal(table_id)
    # Games dealt before deals were kept (migration 0004) have no history to
    # read: their seats count wholly for their players.
    history = None if dealt is None else History(table, spec, dealt, tuple(moves))
    seats = _seats(table, history)
    outcome = Outcome.from_json(finished.outcome)
    kicked = {
        s
        for s, actor in (await tx.tables.removals(table_id, RESIGN)).items()
        if actor is Actor.ADMIN
    }
    playing = [s.seat for s in seats if s.seat not in kicked]
    rated = units(outcome.places, spec.teams(rules, len(table.seats)), playing)
    skipped = _skip(spec, rules, table, moves, rated, seats)
    day = day_of(finished.finished_at)
    company = family + ":" + ",".join(sorted(s.who for s in seats if s.seat in playing))
    across = skipped is None and await tx.ratings.counted_across(company, day) < DAILY_CAP
    await tx.ratings.read_game(
        RatedGame(
            table_id, table.chat_id, family, skipped, company, day, across, finished.finished_at
        )
    )
    if skipped is not None:
        return
    by_seat = {s.seat: s for s in seats}
    at = finished.finished_at
    season = season_of(at)
    events = await _scope(tx, table_id, rated, by_seat, family, table.chat_id, season, at)
    if across:
        events += await _scope(tx, table_id, rated, by_seat, family, ACROSS, "", at)
    await tx.ratings.add_events(events)
    await _achievements(tx, spec, table, moves, by_seat)


async def _skill(tx: Tx, scope: int, season: str, family: str, who: str) -> Skill:
    row = await tx.ratings.current(scope, season, family, who)
    return Skill() if row is None else Skill(row.mu, row.sigma)


async def _scope(
    tx: Tx,
    table_id: int,
    rated: list[Unit],
    by_seat: dict[int, Seat],
    family: str,
    scope: int,
    season: str,
    at: float,
) -> list[RatingEvent]:
    """The events of one scope.  A computer's rating is its rating across
    chats: in a chat it is the opponent's strength, and learns nothing."""
    before = [
        [
            await _skill(
                tx,
                ACROSS if by_seat[s].person is None else scope,
                "" if by_seat[s].person is None else season,
                family,
                by_seat[s].who,
            )
            for s in unit.seats
        ]
        for unit in rated
    ]
    after = rate(before, [unit.place for unit in rated])
    events = []
    for unit, olds, news in zip(rated, before, after, strict=True):
        for s, old, new in zip(unit.seats, olds, news, strict=True):
            seat = by_seat[s]
            if seat.person is None and scope != ACROSS:
                continue
            moved = partial(old, new, seat.share)
            events.append(
                RatingEvent(
                    table_id,
                    scope,
                    season,
                    family,
                    seat.who,
                    seat.share,
                    old.mu,
                    old.sigma,
                    moved.mu,
                    moved.sigma,
                    at,
                )
            )
    return events


async def _achievements(
    tx: Tx, spec: GameSpec, table: TableRow, moves: Sequence[MoveRow], by_seat: dict[int, Seat]
) -> None:
    if table.state is None:
        return
    final = spec.game.load(table.state)
    earned = spec.rated.achievements(final, [(m.seat, m.action) for m in moves])
    for seat, codes in earned.items():
        player = by_seat.get(seat)
        if player is None or player.person is None or player.share < _ACHIEVER_SHARE:
            continue
        for code in codes:
            await tx.ratings.award(player.person, code, table.id, table.chat_id)

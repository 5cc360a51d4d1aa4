"""Snapshots made by hand, to paint screens from without a database."""

from __future__ import annotations

from typing import Any

from bot.catalog import CATALOG
from services import LoggedEvent, Snapshot
from storage import DeadlineRow, OnAbsence, SeatRow, Status, TableRow

NOW = 1_800_000_000.0


def seat(n: int, name: str | None, *, computer: int | None = None, absent: bool = False) -> SeatRow:
    return SeatRow(
        seat=n,
        user_id=None if computer else 100 + n,
        computer=computer,
        first_name=name,
        dm_ok=True,
        language=None,
        timeouts=3 if absent else 0,
        absent=absent,
    )


def snapshot(
    game: Any,
    seats: tuple[SeatRow, ...],
    *,
    status: Status = Status.PLAYING,
    deadlines: tuple[DeadlineRow, ...] = (),
    recent: tuple[LoggedEvent, ...] = (),
    moves: int = 7,
) -> Snapshot:
    spec = CATALOG.specs[game.key]
    table = TableRow(
        id=5,
        chat_id=-100,
        thread_id=0,
        game=game.key,
        rules=game.rules.to_json(),
        status=status,
        creator_id=100,
        seed=1,
        state=game.dump(),
        version=9,
        moves=moves,
        previous_id=None,
        turn_seconds=60,
        on_absence=OnAbsence.COMPUTER,
        end_reason=None,
        seats=seats,
    )
    return Snapshot(table, spec, game.rules, game, deadlines, recent)

"""Flows shared by commands and buttons: starting a table, playing a move."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from handlers.context import Koloda
from services import Person

__all__ = ["begin", "play_move"]

Answer = Callable[[], Awaitable[None]]


async def begin(
    app: Koloda,
    table_id: int,
    who: Person,
    *,
    is_admin: bool,
    answer: Answer | None = None,
) -> None:
    """Start a table and put its first state on screen (shared with the
    button, whose ``answer`` is called as soon as the start succeeded)."""
    async with app.publisher.table_lock(table_id):
        table = await app.services.lobby.start(table_id, who, is_admin=is_admin)
        if answer is not None:
            await answer()
        app.publisher.table_changed(table)
        await app.publisher.refresh_hands(table)


async def play_move(
    app: Koloda,
    table_id: int,
    user_id: int,
    action: str,
    *,
    made_at: int,
    answer: Answer | None = None,
) -> None:
    """Apply a move, then bring every message of the table up to date
    (``answer`` is called as soon as the move is accepted)."""
    publisher = app.publisher
    async with publisher.table_lock(table_id):
        result = await app.services.moves.play(table_id, user_id, action, made_at=made_at)
        if answer is not None:
            await answer()
        publisher.table_changed(result.table)
        await publisher.refresh_hands(result.table, result.game)
        await publisher.announce(result.table, result.game, result.events)
        if result.outcome is not None:
            await publisher.post_result(result.table, result.game)

"""Keeps every table's Telegram messages in step with its stored state.

* The group sees one message per table (lobby, then the live table), edited in
  place.  Edits are coalesced: a change only marks the table dirty, and one
  flusher per table renders the *latest* state when the chat's pacer gives it a
  slot, so a group never gets more than the configured messages per minute.
* Each seat has one DM hand message.  When a seat becomes able to act it gets a
  fresh message (so the phone notifies) — the previous one was already edited
  to carry no buttons; otherwise the message is edited, and only when what it
  shows changed (a digest is stored with the message id).
* All of it is derived from the database, so a restart simply renders again.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from games import registry
from games.core import Event, Game
from handlers import callback_data as cd
from handlers.render import common
from handlers.render.base import GameUI, Key
from handlers.render.games import ui_for
from handlers.telegram_io import Outcome, TelegramIO, keyboard
from i18n import t
from services import Services
from services.hands import HandRecord
from services.lobby import load_rules
from storage import SeatRow, TableRow

__all__ = ["GroupPacer", "Publisher"]

log = logging.getLogger(__name__)
RECENT_EVENTS = 4


class GroupPacer:
    """Spaces a group's messages at least ``60 / per_minute`` seconds apart."""

    def __init__(self, per_minute: int) -> None:
        self.interval = 60.0 / per_minute
        self._next: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def turn(self, chat_id: int) -> None:
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        async with lock:
            now = time.monotonic()
            slot = self._next.get(chat_id, now)
            if slot > now:
                await asyncio.sleep(slot - now)
                now = time.monotonic()
            self._next[chat_id] = max(slot, now) + self.interval


class Publisher:
    def __init__(
        self, io: TelegramIO, services: Services, pacer: GroupPacer, bot_username: str
    ) -> None:
        self.io = io
        self.services = services
        self.pacer = pacer
        self.bot_username = bot_username
        self._table_locks: dict[int, tuple[asyncio.Lock, int]] = {}
        self._dirty: set[int] = set()
        self._flushers: dict[int, asyncio.Task[None]] = {}
        self._warned: set[tuple[int, int]] = set()

    # --- plumbing ---------------------------------------------------------------

    @asynccontextmanager
    async def table_lock(self, table_id: int) -> AsyncIterator[None]:
        """Serializes moves and renders of one table inside this process.
        Locks live only while somebody holds or awaits them."""
        lock, users = self._table_locks.get(table_id, (asyncio.Lock(), 0))
        self._table_locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._table_locks[table_id]
            if users == 1:
                del self._table_locks[table_id]
            else:
                self._table_locks[table_id] = (lock, users - 1)

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    async def group_language(self, table: TableRow) -> str:
        return await self.services.directory.chat_language(table.chat_id)

    async def close(self) -> None:
        """Let pending group edits finish (briefly), then stop."""
        tasks = list(self._flushers.values())
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)

    # --- the group message ------------------------------------------------------

    def table_changed(self, table: TableRow) -> None:
        """Mark the group message stale; a flusher renders it when paced."""
        self._dirty.add(table.id)
        if table.id not in self._flushers:
            flush = self._flush(table.id, table.chat_id)
            self._flushers[table.id] = asyncio.get_running_loop().create_task(flush)

    async def _flush(self, table_id: int, chat_id: int) -> None:
        try:
            while table_id in self._dirty:
                await self.pacer.turn(chat_id)
                # Read after the wait: render the latest state, not the one
                # that asked for this edit.
                self._dirty.discard(table_id)
                await self._render_group(await self.services.lobby.table(table_id))
        except Exception:
            log.exception("rendering the table message of %s failed", table_id)
        finally:
            self._flushers.pop(table_id, None)

    async def _render_group(self, table: TableRow) -> None:
        lang = await self.group_language(table)
        text, markup = await self._group_message(lang, table)
        if table.message_id is not None:
            result = await self.io.edit(table.chat_id, table.message_id, text, markup)
            if result is not Outcome.GONE:
                return
        # No message yet, or it was deleted: post a new one.
        await self._post_group(table, text, markup, paced=False)

    async def _post_group(
        self, table: TableRow, text: str, markup: InlineKeyboardMarkup | None, *, paced: bool
    ) -> None:
        if paced:
            await self.pacer.turn(table.chat_id)
        fresh = await self.services.lobby.table(table.id)  # chat id may have migrated
        result, message_id = await self.io.send(
            fresh.chat_id, text, markup, thread_id=fresh.thread_id
        )
        if result is Outcome.OK:
            await self.services.lobby.set_message(table.id, message_id)

    async def repost(self, table: TableRow) -> None:
        """``/table``: a new copy of the live message, which then becomes it."""
        lang = await self.group_language(table)
        text, markup = await self._group_message(lang, table)
        await self._post_group(table, text, markup, paced=True)

    async def _group_message(
        self, lang: str, table: TableRow
    ) -> tuple[str, InlineKeyboardMarkup | None]:
        if table.status == "lobby" or (table.status == "cancelled" and table.state is None):
            return self._lobby_message(lang, table)
        spec = registry.get(table.game)
        ui = ui_for(table.game)
        game = self.services.moves.games.get(table)
        names = common.names_of(table)
        view = game.public_view()
        lines = [f"🃏 {common.game_title(lang, spec, load_rules(table))}", ""]
        lines.append(ui.table(lang, view, names))
        recent = await self.services.moves.recent_events(table.id, RECENT_EVENTS)
        shown = [line for _, e in recent if (line := ui.event(lang, e, names))]
        if shown:
            lines += ["", *(f"<i>{line}</i>" for line in shown[-RECENT_EVENTS:])]
        if table.status == "cancelled":
            lines += ["", t(lang, "table.cancelled")]
        rows: list[list[InlineKeyboardButton]] = []
        if table.status == "playing":
            group_markup = keyboard(ui.group_keys(lang, view), table.id, table.moves, group=True)
            if group_markup is not None:
                rows.extend(list(r) for r in group_markup.inline_keyboard)
            rows.append(
                [
                    InlineKeyboardButton(
                        t(lang, "table.my_cards"), url=self.deep_link(f"h{table.id}")
                    )
                ]
            )
        return "\n".join(lines), InlineKeyboardMarkup(rows) if rows else None

    def _lobby_message(
        self, lang: str, table: TableRow, *, options: bool = False
    ) -> tuple[str, InlineKeyboardMarkup | None]:
        rules = load_rules(table)
        cancelled = table.status == "cancelled"
        text = common.lobby_text(lang, table, rules, cancelled=cancelled)
        if cancelled or table.status != "lobby":
            return text, None

        def button(label: str, command: str, option: int | None = None) -> InlineKeyboardButton:
            data = cd.pack(cd.LobbyButton(table.id, command, option))
            return InlineKeyboardButton(label, callback_data=data)

        if options:
            spec = registry.get(table.game)
            preset = spec.preset_name(rules)
            preset_label = t(lang, f"preset.{spec.key}.{preset}") if preset else "—"
            rows = [[button(t(lang, "lobby.preset", preset=preset_label), "p")]]
            rows += [
                [button(common.option_label(lang, spec, rules, name), "t", i)]
                for i, (name, _) in enumerate(spec.rules.options())
            ]
            rows.append([button(t(lang, "lobby.back"), "b")])
            return text, InlineKeyboardMarkup(rows)
        return text, InlineKeyboardMarkup(
            [
                [button(t(lang, "lobby.join"), "j"), button(t(lang, "lobby.leave"), "v")],
                [button(t(lang, "lobby.start"), "s"), button(t(lang, "lobby.options"), "o")],
                [button(t(lang, "lobby.cancel"), "c")],
            ]
        )

    async def show_lobby(self, table: TableRow, *, options: bool = False) -> None:
        """Post the lobby (first time) or edit it right away (pressed buttons
        expect a visible answer), both counted by the pacer."""
        lang = await self.group_language(table)
        text, markup = self._lobby_message(lang, table, options=options)
        if table.message_id is None:
            await self._post_group(table, text, markup, paced=True)
            return
        await self.pacer.turn(table.chat_id)
        result = await self.io.edit(table.chat_id, table.message_id, text, markup)
        if result is Outcome.GONE:
            await self._post_group(table, text, markup, paced=False)

    async def post_result(self, table: TableRow, game: Game[Any, Any]) -> None:
        outcome = game.outcome()
        if outcome is None:
            return
        lang = await self.group_language(table)
        ui = ui_for(table.game)
        text = ui.result(lang, outcome, game.public_view(), common.names_of(table))
        markup = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        t(lang, "result.rematch"),
                        callback_data=cd.pack(cd.RematchButton(table.id)),
                    )
                ]
            ]
        )
        await self.pacer.turn(table.chat_id)
        fresh = await self.services.lobby.table(table.id)
        await self.io.send(fresh.chat_id, text, markup, thread_id=fresh.thread_id)

    async def announce(self, table: TableRow, game: Game[Any, Any], events: list[Event]) -> None:
        """Post what the game's renderer wants said after a move (score sheets)."""
        lang = await self.group_language(table)
        texts = ui_for(table.game).announcements(
            lang, events, game.public_view(), common.names_of(table)
        )
        for text in texts:
            await self.pacer.turn(table.chat_id)
            fresh = await self.services.lobby.table(table.id)
            await self.io.send(fresh.chat_id, text, thread_id=fresh.thread_id)

    async def notice(self, table: TableRow, text: str, payload: str | None = None) -> None:
        """A short paced message to the group, with an "open the bot" link."""
        lang = await self.group_language(table)
        markup = None
        if payload is not None:
            markup = InlineKeyboardMarkup(
                [[InlineKeyboardButton(t(lang, "common.open_bot"), url=self.deep_link(payload))]]
            )
        await self.pacer.turn(table.chat_id)
        fresh = await self.services.lobby.table(table.id)
        await self.io.send(fresh.chat_id, text, markup, thread_id=fresh.thread_id)

    # --- hands ------------------------------------------------------------------

    async def refresh_hands(
        self,
        table: TableRow,
        game: Game[Any, Any] | None = None,
        *,
        fresh_for: int | None = None,
        focus: tuple[int, str] | None = None,
    ) -> None:
        """Bring every seat's DM in line with the table (``game`` is its state,
        if already loaded).  ``fresh_for`` forces a new message for that user;
        ``focus`` opens a sub-menu for one seat.  Call with :meth:`table_lock`
        held."""
        if table.state is None:
            return
        if game is None:
            game = self.services.moves.games.get(table)
        ui = ui_for(table.game)
        names = common.names_of(table)
        group_lang = await self.group_language(table)
        # Seats are independent: their messages go out side by side.
        records = await asyncio.gather(
            *(
                self._render_hand(
                    table,
                    game,
                    ui,
                    names,
                    seat,
                    seat.language or group_lang,
                    focus[1] if focus is not None and focus[0] == seat.seat else None,
                    fresh=fresh_for == seat.user_id,
                )
                for seat in table.seats
            )
        )
        await self.services.hands.record(table.id, [r for r in records if r is not None])

    async def _render_hand(
        self,
        table: TableRow,
        game: Game[Any, Any],
        ui: GameUI,
        names: Sequence[str],
        seat: SeatRow,
        lang: str,
        focus: str | None,
        *,
        fresh: bool,
    ) -> HandRecord | None:
        """Render one seat's DM; returns what it now shows, or None if nothing
        was sent."""
        playing = table.status == "playing"
        actions = game.legal_actions(seat.seat) if playing else []
        hand = ui.hand(lang, game.view(seat.seat), actions, names, focus)
        header = t(
            lang,
            "hand.header",
            game=t(lang, registry.get(table.game).name_key),
            table=table.id,
        )
        text = f"{header}\n{hand.text}"
        acting = bool(hand.rows)
        markup = keyboard(hand.rows, table.id, table.moves) if acting else None
        digest = _digest(text, hand.rows if acting else [])
        if (
            not fresh
            and seat.hand_message_id is not None
            and seat.hand_digest == digest
            and (seat.keyboard is not None or not acting)
        ):
            return None  # the message already shows exactly this
        if not seat.dm_ok and not fresh:
            await self._warn_unreachable(table, seat)
            return None
        message_id = seat.hand_message_id
        new_message = fresh or message_id is None or (acting and not seat.acting)
        if not new_message and message_id is not None:
            result = await self.io.edit(seat.user_id, message_id, text, markup)
            if result is Outcome.GONE:
                new_message = True
            elif result is Outcome.FORBIDDEN:
                await self._warn_unreachable(table, seat)
                return None
            elif result is Outcome.FAILED:
                return None
        if new_message:
            if message_id is not None and seat.keyboard is not None:
                # The old message still has buttons: take them away.
                await self.io.edit(seat.user_id, message_id, text, None)
            result, message_id = await self.io.send(seat.user_id, text, markup, notify=acting)
            if result is Outcome.FORBIDDEN:
                await self._warn_unreachable(table, seat)
                return None
            if result is not Outcome.OK:
                return None
            self._warned.discard((table.id, seat.user_id))
        return HandRecord(
            seat=seat.seat,
            message_id=message_id,
            digest=digest,
            keyboard=table.moves if acting else None,
            acting=acting,
        )

    async def _warn_unreachable(self, table: TableRow, seat: SeatRow) -> None:
        key = (table.id, seat.user_id)
        if key in self._warned or table.status != "playing":
            return
        self._warned.add(key)
        lang = await self.group_language(table)
        text = t(lang, "table.unreachable", name=html.escape(seat.first_name))
        await self.notice(table, text, payload=f"h{table.id}")

    async def welcome_back(self, user_id: int) -> None:
        """A player who could not be messaged (blocked the bot) is back: send
        him fresh hands of every game he is playing."""
        self._warned = {k for k in self._warned if k[1] != user_id}
        for table in await self.services.lobby.tables_of(user_id):
            if table.status == "playing":
                async with self.table_lock(table.id):
                    fresh = await self.services.lobby.table(table.id)
                    await self.refresh_hands(fresh, fresh_for=user_id)


def _digest(text: str, rows: Sequence[Sequence[Key]]) -> str:
    h = hashlib.blake2b(digest_size=12)
    h.update(text.encode())
    for row in rows:
        for key in row:
            h.update(
                b"\x00" + key.label.encode() + b"\x01" + (key.action or key.focus or "").encode()
            )
        h.update(b"\x02")
    return h.hexdigest()

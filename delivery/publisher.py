"""Delivers what every chat is owed, derived from the stored tables, until delivered.

The publisher observes the table service: every committed change hands it a
snapshot, and it brings the messages in line with the latest one.

* Each group has an outbox, worked through in order within the group's message
  budget (:class:`~delivery.group_window.GroupWindow`): the table message (edited in
  place; changes coalesce, so it always shows the latest state), the
  announcements the moves call for (score sheets, the result — the move log is
  their record, and a cursor says how far the group has been told), and
  replies to commands.
* Each table's DMs are brought in line by one worker per table
  (:mod:`~delivery.hand_messages`), every seat at once.
* A failed delivery (a flood wait, a server error, the network) is tried again
  with a growing pause; a flood wait also gives the table's players that time
  back on their clocks.  What the database records (table messages, hands,
  announcements, turn warnings) is derived again after a restart; replies to
  commands and choosers live only in memory, and a restart drops those not
  yet sent.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from delivery.composed import Composed
from delivery.group_window import GroupWindow
from delivery.hand_messages import HandMessages
from delivery.keyboards import Keyboard, markup, url_button
from delivery.ledger import Ledger
from delivery.table_messages import TableMessages
from delivery.telegram_io import Delivery, Sent, TelegramIO
from i18n import t
from screens import common
from screens.base import GameScreens, Picture
from services import ServiceError, Services, Snapshot, Status

__all__ = ["Publisher"]

log = logging.getLogger(__name__)

BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Pauses before trying a failed delivery again."""
RESUME_WINDOW = 24 * 3600.0
"""At start, tables changed this recently are painted again too."""


@dataclass(slots=True)
class _Say:
    """A one-off group message (a reply to a command, a notice)."""

    text: str
    markup: Keyboard | None
    thread_id: int
    picture: Picture | None = None
    notify: bool = True
    warns: tuple[int, int] | None = None
    """(table, seat) of the turn it warns of: recorded, to go when the turn ends."""


@dataclass(slots=True)
class _Chooser:
    """The game chooser of /newgame: one per chat (and topic); a new one closes
    the one before."""

    text: str
    markup: Keyboard | None
    thread_id: int


@dataclass(slots=True)
class _Sync:
    """Bring a table's group message and announcements up to date."""

    table_id: int


@dataclass(slots=True)
class _Outbox:
    items: deque[_Say | _Chooser | _Sync] = field(default_factory=deque)
    queued: set[int] = field(default_factory=set)
    """Tables with a sync waiting in ``items`` (not yet started)."""
    task: asyncio.Task[None] | None = None


class Publisher:
    def __init__(
        self,
        io: TelegramIO,
        services: Services,
        screens: Mapping[str, GameScreens[Any, Any]],
        pacer: GroupWindow,
        ledger: Ledger,
        bot_username: str,
    ) -> None:
        self.io = io
        self.services = services
        self.screens = screens
        self.pacer = pacer
        self.ledger = ledger
        self.bot_username = bot_username
        self._background = services.background
        self._clock = services.clock
        self.hands = HandMessages(io, services, screens, ledger, self._unreachable)
        self.tables = TableMessages(io, services, screens, ledger, pacer, self.deep_link)
        self._latest: dict[int, Snapshot] = {}
        self._outboxes: dict[int, _Outbox] = {}
        self._hands_dirty: set[int] = set()
        self._hand_tasks: dict[int, asyncio.Task[None]] = {}
        self._options_open: set[int] = set()
        self._repost: set[int] = set()
        self._adopted: dict[tuple[int, int], int] = {}
        self._choosers: dict[tuple[int, int], int] = {}

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    async def group_language(self, chat_id: int) -> str:
        return await self.services.directory.chat_language(chat_id)

    # --- the table service's observer -------------------------------------------

    def table_changed(self, snapshot: Snapshot) -> None:
        table = snapshot.table
        latest = self._latest.get(table.id)
        if latest is not None and latest.table.version > table.version:
            return
        self._latest[table.id] = snapshot
        self._sync_group(table.chat_id, table.id)
        if snapshot.started:  # the hands, and the turn warnings to delete
            self._sync_hands(table.id)

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        self.table_changed(snapshot)
        row = snapshot.seat(seat)
        if row.user_id is not None and not snapshot.spec.private_hands:
            # A game played on the table (Daytona) tells him there, where he
            # plays, whether or not he has opened the bot.
            self._background.spawn(self._mention(snapshot, seat), f"warn-{snapshot.table.id}")
        elif row.user_id is not None and row.dm_ok:
            self._background.spawn(self._warn(snapshot, seat), f"warn-{snapshot.table.id}")

    # --- asked for by the handlers -------------------------------------------------

    def say(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        thread_id: int = 0,
        picture: Picture | None = None,
        notify: bool = True,
    ) -> None:
        """A message to a group (a photo with ``text`` as its caption when there
        is a picture), in its turn within the group's budget; without
        ``notify``, silent (notifications come without a sound)."""
        box = self._outboxes.setdefault(chat_id, _Outbox())
        box.items.append(_Say(text, markup, thread_id, picture, notify))
        self._work(chat_id, box)

    def offer_games(
        self, chat_id: int, text: str, markup: Keyboard | None, *, thread_id: int
    ) -> None:
        """Post a game chooser; the chat's previous chooser, if any, is closed."""
        box = self._outboxes.setdefault(chat_id, _Outbox())
        box.items.append(_Chooser(text, markup, thread_id))
        self._work(chat_id, box)

    def adopt(self, chat_id: int, thread_id: int, message_id: int) -> None:
        """The next table opened in this chat (and topic) takes over this message
        (the game chooser becomes the lobby)."""
        self._adopted[(chat_id, thread_id)] = message_id
        if self._choosers.get((chat_id, thread_id)) == message_id:
            del self._choosers[(chat_id, thread_id)]

    def show_options(self, snapshot: Snapshot, shown: bool) -> None:
        """Open or close the lobby's options on the group message."""
        if shown:
            self._options_open.add(snapshot.table.id)
        else:
            self._options_open.discard(snapshot.table.id)
        self.table_changed(snapshot)

    def repost(self, snapshot: Snapshot) -> None:
        """``/table``: post the table message anew (the old one loses its buttons)."""
        self._repost.add(snapshot.table.id)
        self.table_changed(snapshot)

    def menu(self, snapshot: Snapshot, seat: int, focus: str | None) -> None:
        """Open (or close, with None) a sub-menu on one seat's own screen."""
        self.hands.open_menu(snapshot.table.id, seat, snapshot.table.moves, focus)
        self.table_changed(snapshot)
        self._sync_hands(snapshot.table.id)

    def pressed(self, table_id: int, user_id: int, message_id: int) -> None:
        """A player pressed a button of his hand message: he is looking at it."""
        self.hands.pressed(table_id, user_id, message_id)

    def refused(self, table_id: int, user_id: int, message_id: int) -> None:
        """A press on a button of this table on the user's DM message was
        refused: if the message is no hand of his (a copy a crash left), it goes."""
        self.hands.refused(table_id, user_id, message_id)
        latest = self._latest.get(table_id)
        if latest is not None and latest.started and latest.spec.private_hands:
            self._sync_hands(table_id)
        elif latest is None:
            self._background.spawn(self._reload(table_id), f"reload-{table_id}")

    async def _reload(self, table_id: int) -> None:
        """Paint a table this run has not painted yet (no change comes to tell)."""
        try:
            snapshot = await self.services.snapshots.snapshot(table_id)
        except ServiceError:  # no such table
            self.hands.forget(table_id)
            return
        self.table_changed(snapshot)

    def resend_hand(self, snapshot: Snapshot, user_id: int) -> None:
        """A new hand message for the user (asked for by a link): it notifies."""
        seat = snapshot.table.seat_of(user_id)
        if seat is not None:
            self.hands.renew(snapshot.table.id, seat)
            self._latest[snapshot.table.id] = snapshot
            self._sync_hands(snapshot.table.id)

    async def welcome_back(self, user_id: int) -> None:
        """A player who could not be messaged is back: fresh hands of every game
        he is playing."""
        self.hands.reachable(user_id)
        for table in await self.services.snapshots.tables_of(user_id):
            if table.status is Status.PLAYING:
                self.resend_hand(await self.services.snapshots.snapshot(table.id), user_id)

    async def resume(self) -> None:
        """After a start: paint every table that may be behind."""
        since = self._clock.now() - RESUME_WINDOW
        table_ids = await self.ledger.to_resume(since)
        log.info("resuming %d tables", len(table_ids))
        for table_id in table_ids:
            try:
                self.table_changed(await self.services.snapshots.snapshot(table_id))
            except Exception:
                log.exception("could not resume table %s", table_id)

    async def drain(self, timeout: float) -> None:  # noqa: ASYNC109 - a bound for shutdown
        """Let deliveries in hand finish, for at most ``timeout`` seconds."""
        tasks = [b.task for b in self._outboxes.values() if b.task is not None]
        tasks += list(self._hand_tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    # --- the group's outbox -----------------------------------------------------

    def _sync_group(self, chat_id: int, table_id: int) -> None:
        box = self._outboxes.setdefault(chat_id, _Outbox())
        if table_id not in box.queued:
            box.queued.add(table_id)
            box.items.append(_Sync(table_id))
        self._work(chat_id, box)

    def _work(self, chat_id: int, box: _Outbox) -> None:
        if box.task is None:
            box.task = self._background.spawn(self._run_outbox(chat_id, box), f"group-{chat_id}")

    async def _run_outbox(self, chat_id: int, box: _Outbox) -> None:
        failures = 0
        try:
            while box.items:
                item = box.items[0]
                if isinstance(item, _Sync):
                    box.queued.discard(item.table_id)
                try:
                    done = await self._deliver(chat_id, item)
                except Exception:
                    log.exception("delivering to chat %s failed", chat_id)
                    done = True  # a bug: do not loop on it
                if done:
                    box.items.popleft()
                    failures = 0
                    continue
                if isinstance(item, _Sync):
                    box.queued.add(item.table_id)
                pause = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                await self._background.wait(self._clock.sleep(pause))
        finally:
            box.task = None
            if not box.items:
                self._outboxes.pop(chat_id, None)
            self._forget_finished()

    async def _deliver(self, chat_id: int, item: _Say | _Chooser | _Sync) -> bool:
        """One outbox item; False to try it again later."""
        if isinstance(item, _Chooser):
            return await self._offer(chat_id, item)
        if isinstance(item, _Say):
            await self.pacer.turn(chat_id)
            shown = item.picture is not None and await self.services.directory.chat_pictures(
                chat_id
            )
            said = Composed(item.text, item.markup, item.picture if shown else None)
            sent = await self.io.show(chat_id, said, thread_id=item.thread_id, notify=item.notify)
            if sent.delivery is Delivery.MIGRATED and sent.migrated_to is not None:
                await self._migrated(chat_id, sent.migrated_to)
                chat_id = sent.migrated_to
                sent = await self.io.show(chat_id, said, notify=item.notify)
            if item.warns is not None and sent.ok and sent.message_id is not None:
                await self._warned(*item.warns, chat_id, sent.message_id)
            return await self._settled(sent, chat_id, None)
        return await self._sync_table(item.table_id)

    async def _offer(self, chat_id: int, item: _Chooser) -> bool:
        await self.pacer.turn(chat_id)
        sent = await self.io.send(chat_id, item.text, item.markup, thread_id=item.thread_id)
        if not sent.ok:
            return await self._settled(sent, chat_id, None)
        assert sent.message_id is not None
        before = self._choosers.get((chat_id, item.thread_id))
        self._choosers[(chat_id, item.thread_id)] = sent.message_id
        if before is not None:
            lang = await self.group_language(chat_id)
            await self.io.edit_text(chat_id, before, t(lang, "newgame.closed"))
        return True

    async def _settled(self, sent: Sent, chat_id: int, table_id: int | None) -> bool:
        """Act on a group delivery's result; True when there is nothing to retry."""
        match sent.delivery:
            case Delivery.RETRY:
                if sent.retry_after and table_id is not None:
                    await self.services.timers.postpone([table_id], sent.retry_after)
                return False
            case Delivery.MIGRATED:
                assert sent.migrated_to is not None
                await self._migrated(chat_id, sent.migrated_to)
                return False
            case _:
                return True

    async def _migrated(self, old: int, new: int) -> None:
        """The group became a supergroup: its tables move, and are painted there."""
        await self.services.directory.migrate_chat(old, new)
        for table in await self.services.snapshots.tables_in_chat(new):
            self._latest[table.id] = await self.services.snapshots.snapshot(table.id)

    async def _sync_table(self, table_id: int) -> bool:
        snapshot = self._latest.get(table_id)
        if snapshot is None:
            return True
        adopted = self._adopted.pop((snapshot.table.chat_id, snapshot.table.thread_id), None)
        done = await self.tables.sync(
            table_id,
            latest=lambda: self._latest[table_id],
            options_open=table_id in self._options_open,
            repost=table_id in self._repost,
            adopted=adopted,
            settled=self._settled,
        )
        if done:
            self._repost.discard(table_id)
        return done

    # --- hands -------------------------------------------------------------------

    def _sync_hands(self, table_id: int) -> None:
        self._hands_dirty.add(table_id)
        if table_id not in self._hand_tasks:
            self._hand_tasks[table_id] = self._background.spawn(
                self._run_hands(table_id), f"hands-{table_id}"
            )

    async def _run_hands(self, table_id: int) -> None:
        failures = 0
        try:
            while table_id in self._hands_dirty:
                self._hands_dirty.discard(table_id)
                snapshot = self._latest[table_id]
                try:
                    done = True
                    if snapshot.spec.private_hands:
                        lang = await self.group_language(snapshot.table.chat_id)
                        done = await self.hands.sync(snapshot, lang)
                    done = await self.hands.clear_warnings(snapshot) and done
                except Exception:
                    log.exception("updating the hands of table %s failed", table_id)
                    done = True
                if done:
                    failures = 0
                    continue
                self._hands_dirty.add(table_id)
                pause = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                await self._background.wait(self._clock.sleep(pause))
        finally:
            del self._hand_tasks[table_id]
            self._forget_finished()

    def _forget_finished(self) -> None:
        """Drop what is kept of tables that are over and fully delivered."""
        over = [i for i, snapshot in self._latest.items() if not snapshot.table.is_open]
        if not over:  # the usual case, after every delivery: skip the outboxes
            return
        busy = set(self._hand_tasks) | self._hands_dirty
        for box in self._outboxes.values():
            busy |= {i.table_id for i in box.items if isinstance(i, _Sync)}
        for table_id in over:
            if table_id in busy:
                continue
            del self._latest[table_id]
            self._options_open.discard(table_id)
            self._repost.discard(table_id)
            self.hands.forget(table_id)
            self.ledger.forget(table_id)

    def _unreachable(self, snapshot: Snapshot, seat: int) -> None:
        self._background.spawn(
            self._notice_unreachable(snapshot, seat), f"unreachable-{snapshot.table.id}"
        )

    async def _notice_unreachable(self, snapshot: Snapshot, seat: int) -> None:
        table = snapshot.table
        lang = await self.group_language(table.chat_id)
        name = common.seat_name(lang, snapshot.seat(seat))
        link = url_button(t(lang, "common.open_bot"), self.deep_link(f"h{table.id}"))
        text = t(lang, "table.unreachable", name=name)
        self.say(table.chat_id, text, markup([[link]]), thread_id=table.thread_id)

    async def _mention(self, snapshot: Snapshot, seat: int) -> None:
        """His turn waits: a silent group message mentioning him, which
        Telegram notifies him of (an edit of the table message would not)."""
        table, row = snapshot.table, snapshot.seat(seat)
        deadline = snapshot.deadlines.get(seat)
        if deadline is None or row.user_id is None:
            return
        lang = await self.group_language(table.chat_id)
        left = common.duration(lang, deadline.due_at - self._clock.now())
        who = f'<a href="tg://user?id={row.user_id}">{common.seat_name(lang, row)}</a>'
        text = t(lang, "table.turn_mention", name=who, time=left)
        box = self._outboxes.setdefault(table.chat_id, _Outbox())
        box.items.append(_Say(text, None, table.thread_id, notify=False, warns=(table.id, seat)))
        self._work(table.chat_id, box)

    async def _warn(self, snapshot: Snapshot, seat: int) -> None:
        row = snapshot.seat(seat)
        assert row.user_id is not None
        lang = row.language or await self.group_language(snapshot.table.chat_id)
        deadline = snapshot.deadlines.get(seat)
        if deadline is None:
            return
        left = common.duration(lang, deadline.due_at - self._clock.now())
        chat = html.escape(snapshot.table.chat_title or "?")
        text = t(lang, "hand.warning", time=left, chat=chat)
        # Silent: his hand notified him when the turn came.  Deleted when the
        # turn ends.
        sent = await self.io.send(row.user_id, text, notify=False)
        if sent.ok and sent.message_id is not None:
            await self._warned(snapshot.table.id, seat, row.user_id, sent.message_id)

    async def _warned(self, table_id: int, seat: int, chat_id: int, message_id: int) -> None:
        """A turn warning was sent: recorded, it is deleted when the turn ends
        (looked at again at once: the turn may have ended meanwhile)."""
        await self.hands.warned(table_id, seat, chat_id, message_id)
        if table_id in self._latest:
            self._sync_hands(table_id)
        else:  # over and forgotten meanwhile
            await self._reload(table_id)

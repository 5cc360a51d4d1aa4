"""Delivers what every chat is owed, derived from the stored tables, until delivered.

The publisher observes the table service: every committed change hands it a
snapshot, and it brings the messages in line with the latest one.

* Each group has an outbox (:class:`~delivery.group_outbox.GroupOutbox`),
  worked through in order within the group's message budget
  (:class:`~delivery.group_window.GroupWindow`): the table message (edited in
  place; changes coalesce, so it always shows the latest state), the
  announcements the moves call for (score sheets, the result — the move log is
  their record, and a cursor says how far the group has been told), and
  replies to commands.
* Each table's hands are brought in line by one worker per table
  (:mod:`~delivery.hand_messages`), every seat at once: in the players' DMs,
  or in the group as ephemeral messages each player alone sees.
* What is kept of a table in memory is its
  :class:`~delivery.table_delivery.TableDelivery`: the latest snapshot, what
  its group message is asked to show, its DM worker and each player's screen.
  A sync says what came of it (:mod:`~delivery.synced`) and the publisher acts
  on that: tries again, gives the players a flood wait's time back, follows a
  group that became a supergroup, tells the group a player cannot be reached.
* A failed delivery (a flood wait, a server error, the network) is tried again
  with a growing pause; a flood wait also gives the table's players that time
  back on their clocks.  What the database records (table messages, hands,
  announcements, turn warnings, the open game chooser) is derived again after
  a restart; replies to commands and choosers not yet sent live only in
  memory, and a restart drops them.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Mapping
from typing import Any

from delivery import callback_data as cd
from delivery.backoff import Backoff
from delivery.composed import Composed
from delivery.group_outbox import Chooser, GroupOutbox, Item, Say, SyncTable
from delivery.group_window import GroupWindow
from delivery.hand_messages import HandMessages, in_group
from delivery.keyboards import Keyboard, button, markup
from delivery.ledger import Ledger
from delivery.replay_messages import replay_payload
from delivery.synced import Done, Migrated, Retry, Synced, judged
from delivery.table_delivery import TableDelivery
from delivery.table_messages import TableMessages
from delivery.telegram_io import Delivery, TelegramIO
from i18n import t
from screens import common
from screens.base import GameScreens, Picture
from services import HistoryError, ServiceError, Services, Snapshot, Status, ThinkingFailed

__all__ = ["BACK", "Publisher"]

log = logging.getLogger(__name__)

BACK = "back:"
"""What a worker tells the others when a player is back (his user id follows)."""
ANALYSIS_SEND_PAUSES = (1.0, 5.0, 30.0, 120.0)
"""Pauses before sending an analysis again after a flood wait, a server error
or the network (a flood wait's own length when Telegram gives one)."""
RESUME_WINDOW = 24 * 3600.0
"""At start, tables changed this recently are painted again too."""


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
        self._holding = services.holding
        self.hands = HandMessages(io, services, screens, ledger)
        self.tables = TableMessages(io, services, screens, ledger, pacer, self.deep_link)
        self._deliveries: dict[int, TableDelivery] = {}
        self._outboxes: dict[int, GroupOutbox] = {}
        self._replay_edits: dict[tuple[int, int], object] = {}
        """Per replay message, the latest edit asked for: an edit that waited
        for the group's slot while a newer one was asked for is dropped."""

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    async def group_language(self, chat_id: int) -> str:
        return await self.services.directory.chat_language(chat_id)

    def _delivery(self, table_id: int) -> TableDelivery:
        table = self._deliveries.get(table_id)
        if table is None:
            table = self._deliveries[table_id] = TableDelivery(table_id)
        return table

    def _outbox(self, chat_id: int) -> GroupOutbox:
        box = self._outboxes.get(chat_id)
        if box is None:
            box = self._outboxes[chat_id] = GroupOutbox(chat_id, self._clock, self._background)
        return box

    # --- the table service's observer -------------------------------------------

    def table_changed(self, snapshot: Snapshot) -> None:
        if not self._holding.holds(snapshot.table.chat_id):
            return  # another worker delivers it
        table = self._delivery(snapshot.table.id)
        if not table.take(snapshot):
            return
        self._sync_group(snapshot.table.chat_id, table.table_id)
        if snapshot.started:  # the hands, and the turn warnings to delete
            self._sync_hands(table)

    def seat_warned(self, snapshot: Snapshot, seat: int) -> None:
        if not self._holding.holds(snapshot.table.chat_id):
            return
        self.table_changed(snapshot)
        row = snapshot.seat(seat)
        if row.user_id is None:
            return
        screen = self._delivery(snapshot.table.id).screen(row.user_id)
        if not snapshot.spec.private_hands or in_group(screen, row):
            # A game played on the table (Daytona), or a player whose hand is
            # in the group: he is told there, where he plays, whether or not
            # he has opened the bot.
            self._background.spawn(self._mention(snapshot, seat), f"warn-{snapshot.table.id}")
        else:
            self._background.spawn(self._warn(snapshot, seat), f"warn-{snapshot.table.id}")

    # --- asked for by the handlers -------------------------------------------------

    def hand_in_group(self, snapshot: Snapshot, user_id: int) -> bool | None:
        """Whether ``user_id``'s hand at this table goes to the group rather
        than his DM (the group wherever his DM does not work); None when he
        does not sit at it."""
        seat = snapshot.table.seat_of(user_id)
        if seat is None:
            return None
        screen = self._delivery(snapshot.table.id).screen(user_id)
        return in_group(screen, snapshot.seat(seat))

    def edit_replay(
        self, chat_id: int, message_id: int, text: str, markup: Keyboard | None
    ) -> None:
        """Show a replay's next frame: its one message edited, in a group within
        the group's budget (an edit that waits, spread as a table's are), the
        presses made while it waited coalescing into the latest."""
        key, mine = (chat_id, message_id), object()
        self._replay_edits[key] = mine
        self._background.spawn(
            self._edit_replay(key, mine, text, markup), f"replay-{chat_id}-{message_id}"
        )

    async def _edit_replay(
        self, key: tuple[int, int], mine: object, text: str, markup: Keyboard | None
    ) -> None:
        chat_id, message_id = key
        try:
            while chat_id < 0 and (wait := self.pacer.delay(chat_id, spread=True)) > 0:
                await self._background.wait(self._clock.sleep(wait))
            if self._replay_edits.get(key) is mine:
                async with self.pacer.slot(chat_id, spread=True):
                    await self.io.edit_text(chat_id, message_id, text, markup)
        finally:
            if self._replay_edits.get(key) is mine:
                del self._replay_edits[key]

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
        box = self._outbox(chat_id)
        box.add(Say(text, markup, thread_id, picture, notify))
        self._work(box)

    def answer(
        self, query_id: str, text: str | None = None, *, alert: bool = False, url: str | None = None
    ) -> None:
        """Answer a press at once, and again for a few seconds if Telegram fails
        (on the bot's clock, while the handler goes on)."""
        self._background.spawn(
            self.io.answer(query_id, text, alert=alert, url=url), f"answer-{query_id}"
        )

    def offer_games(
        self, chat_id: int, text: str, markup: Keyboard | None, *, thread_id: int
    ) -> None:
        """Post a game chooser; the chat's previous chooser, if any, is closed."""
        box = self._outbox(chat_id)
        box.add(Chooser(text, markup, thread_id))
        self._work(box)

    def adopt(self, chat_id: int, thread_id: int, message_id: int) -> None:
        """The next table opened in this chat (and topic) takes over this message
        (the game chooser becomes the lobby)."""
        box = self._outbox(chat_id)
        box.adopted[thread_id] = message_id
        if box.choosers.get(thread_id) == message_id:
            del box.choosers[thread_id]
        # No later chooser closes it (nor would it, once the table records it
        # as its message: storage.Messages.chooser).
        self._background.spawn(self.ledger.drop_chooser(chat_id, message_id), f"adopt-{chat_id}")

    def show_options(self, snapshot: Snapshot, shown: bool) -> None:
        """Open or close the lobby's options on the group message."""
        table = self._delivery(snapshot.table.id)
        table.options_open, table.options_known = shown, True
        self.table_changed(snapshot)

    async def chat_settings_changed(self, chat_id: int) -> None:
        """The group now speaks another language, or shows pictures or not:
        its open tables show it at once, not from their next move on (a lobby
        may wait long for one)."""
        for row in await self.services.snapshots.tables_in_chat(chat_id):
            self.table_changed(await self.services.snapshots.snapshot(row.id))

    def repost(self, snapshot: Snapshot) -> None:
        """``/table``: post the table message anew (the old one loses its buttons)."""
        self._delivery(snapshot.table.id).repost = True
        self.table_changed(snapshot)

    def menu(self, snapshot: Snapshot, seat: int, focus: str | None) -> None:
        """Open (or close, with None) a sub-menu on one seat's own screen."""
        table = self._delivery(snapshot.table.id)
        user_id = snapshot.seat(seat).user_id
        assert user_id is not None  # a person pressed it
        table.screen(user_id).open_menu(snapshot.table.moves, focus)
        self.table_changed(snapshot)
        self._sync_hands(table)

    def pressed(self, table_id: int, user_id: int, message_id: int) -> None:
        """A player pressed a button of his hand message: he is looking at it."""
        self._delivery(table_id).screen(user_id).press(message_id, self._clock.now())

    def pressed_in_group(
        self, table_id: int, user_id: int, query_id: str, message_id: int | None = None
    ) -> None:
        """A player pressed a button of this table in the group (of the table
        message, or of his hand there: ``message_id``, its ephemeral id): for
        a few seconds his press may be answered with an ephemeral message."""
        screen = self._delivery(table_id).screen(user_id)
        now = self._clock.now()
        screen.press_in_group(query_id, now)
        if message_id is not None:
            screen.press(message_id, now)

    async def show_cards(self, table_id: int, user_id: int, query_id: str) -> None:
        """ "🂠 My cards": the presser's hand as a new ephemeral message in the
        group, in answer to his press (the one just replaced, if any, goes); his
        hands stay in the group from now on, as he chose."""
        snapshot = await self.services.snapshots.snapshot(table_id)
        if snapshot.table.seat_of(user_id) is None:
            raise ServiceError("error.not_seated")
        if snapshot.table.status is not Status.PLAYING:
            raise ServiceError("error.game_not_running")
        await self.services.directory.set_hand_in(user_id, "group")
        table = self._delivery(table_id)
        screen = table.screen(user_id)
        screen.in_group = True
        screen.fresh = True
        screen.press_in_group(query_id, self._clock.now())
        table.take(snapshot)
        self._sync_hands(table)

    async def hands_to_dm(self, table_id: int, user_id: int) -> None:
        """ "✉️ To my DM" on a hand in the group: his hands go to his DM from
        now on (a new hand there; the one in the group goes)."""
        snapshot = await self.services.snapshots.snapshot(table_id)
        if snapshot.table.seat_of(user_id) is None:
            raise ServiceError("error.not_seated")
        if not await self.services.directory.dm_ok(user_id):
            raise ServiceError("error.dm_closed")
        await self.services.directory.set_hand_in(user_id, "dm")
        table = self._delivery(table_id)
        screen = table.screen(user_id)
        screen.in_group, screen.dm_refused = False, False
        if snapshot.table.status is Status.PLAYING:
            self.resend_hand(snapshot, user_id)

    def refused(self, table_id: int, user_id: int, message_id: int) -> None:
        """A press on a button of this table on the user's DM message was
        refused: if the message is no hand of his (a copy a crash left), it goes."""
        table = self._delivery(table_id)
        table.suspects.add((user_id, message_id))
        latest = table.latest
        if latest is not None and latest.started and latest.spec.private_hands:
            self._sync_hands(table)
        elif latest is None:
            self._background.spawn(self._reload(table_id), f"reload-{table_id}")

    async def _reload(self, table_id: int) -> None:
        """Paint a table this run has not painted yet (no change comes to tell)."""
        try:
            snapshot = await self.services.snapshots.snapshot(table_id)
        except ServiceError:  # no such table
            table = self._deliveries.get(table_id)
            if table is not None and table.latest is None:
                del self._deliveries[table_id]
            return
        self.table_changed(snapshot)

    def analyse(self, table_id: int, user_id: int, lang: str) -> None:
        """Analyse the user's play at a finished table and send it to his DM,
        in the background: it takes a while, at a lower priority than any
        game (:mod:`services.analysis`).  The promise is recorded first, so
        that a restart before the analysis is sent starts it again
        (:meth:`resume`)."""
        self._background.spawn(
            self._analyse(table_id, user_id, lang, owe=True), f"analysis-{table_id}"
        )

    async def _analyse(self, table_id: int, user_id: int, lang: str, *, owe: bool) -> None:
        analyses = self.services.analyses
        if owe:
            await analyses.owe(table_id, user_id, lang)
        try:
            analysis = await analyses.of(table_id, user_id)
        except ServiceError as exc:
            text = t(lang, exc.key, **exc.params)
        except (ThinkingFailed, HistoryError):
            log.exception("the analysis of table %s failed", table_id)
            text = t(lang, "analysis.failed")
        else:
            screens = self.screens[analysis.table.game]
            spec = self.services.snapshots.spec(analysis.table.game)
            table = analysis.table.id
            text = common.analysis_text(
                lang,
                analysis,
                spec,
                screens,
                replay_link=lambda at: self.deep_link(replay_payload(table, at)),
            )
        sent = await self.io.send(user_id, text)
        for pause in ANALYSIS_SEND_PAUSES:
            if sent.delivery is not Delivery.RETRY:
                break
            await self._background.wait(self._clock.sleep(sent.retry_after or pause))
            sent = await self.io.send(user_id, text)
        if sent.delivery is Delivery.RETRY:  # still owed: the next start sends it
            log.warning("the analysis of table %s for %s could not be sent", table_id, user_id)
            return
        await analyses.sent(table_id, user_id)

    def resend_hand(self, snapshot: Snapshot, user_id: int) -> None:
        """A new hand message for the user (asked for by a link): it notifies."""
        if snapshot.table.seat_of(user_id) is not None:
            table = self._delivery(snapshot.table.id)
            table.screen(user_id).fresh = True
            table.latest = snapshot
            self._sync_hands(table)

    async def welcome_back(self, user_id: int, *, tell_others: bool = True) -> None:
        """A player who could not be messaged is back: fresh hands of every game
        he is playing.  With several workers, those of the chats this one
        holds, and the others are told to do the same for theirs."""
        for kept in self._deliveries.values():
            if (screen := kept.screens.get(user_id)) is not None:
                screen.told_unreachable = screen.dm_refused = False
        for table in await self.services.snapshots.tables_of(user_id):
            if table.status is Status.PLAYING and self._holding.holds(table.chat_id):
                self.resend_hand(await self.services.snapshots.snapshot(table.id), user_id)
        if tell_others and self.services.leases is not None:
            await self.services.leases.tell_others(f"{BACK}{user_id}")

    async def resume(self) -> None:
        """After a start: paint every table that may be behind (with several
        workers, those of the chats taken: :meth:`chat_taken`)."""
        if self.services.leases is not None:
            return
        since = self._clock.now() - RESUME_WINDOW
        table_ids = await self.ledger.to_resume(since)
        log.info("resuming %d tables", len(table_ids))
        await self._repaint(table_ids)
        # The analyses a stop cut off (asked in the last day): promised, so
        # made again.  (With several workers, the one that took the request
        # makes it; one it could not finish waits for a single process.)
        for owed in await self.services.analyses.owed(since):
            try:
                self.services.analyses.reserve(owed.table_id, owed.user_id)
            except ServiceError:
                continue  # asked again meanwhile: that request keeps the promise
            self._background.spawn(
                self._analyse(owed.table_id, owed.user_id, owed.lang, owe=False),
                f"analysis-{owed.table_id}",
            )

    async def _repaint(self, table_ids: list[int]) -> None:
        for table_id in table_ids:
            try:
                self.table_changed(await self.services.snapshots.snapshot(table_id))
            except Exception:
                log.exception("could not resume table %s", table_id)

    # --- the chats of this worker (services.leases) ---------------------------------

    async def chat_taken(self, chat_id: int, given_back: float) -> None:
        """Resume the chat as a restart would: its group's budget as the last
        minute left it, its tables painted from the database (what another
        worker's ledger recorded is read anew)."""
        await self.pacer.load(chat_id)
        since = self._clock.now() - RESUME_WINDOW
        table_ids = await self.ledger.to_resume(since, chat_id)
        for table_id in table_ids:
            self.ledger.forget(table_id)
        await self._repaint(table_ids)

    def chat_dropped(self, chat_id: int) -> None:
        """Stop delivering to the chat and forget what is kept of it (its
        new holder derives it again).  What is under way is not cancelled but
        stops before its next call to Telegram: a call cut off after it was
        made would leave no record, and the new holder would make it again."""
        box = self._outboxes.pop(chat_id, None)
        if box is not None:
            box.drop()
        for table in list(self._deliveries.values()):
            latest = table.latest
            if latest is not None and latest.table.chat_id != chat_id:
                continue
            table.dropped = True
            del self._deliveries[table.table_id]
            self.ledger.forget(table.table_id)
        self.pacer.forget(chat_id)
        self.io.hand_over(chat_id)

    async def drain(self, timeout: float) -> None:  # noqa: ASYNC109 - a bound for shutdown
        """Let deliveries in hand finish, for at most ``timeout`` seconds."""
        tasks = [b.task for b in self._outboxes.values() if b.task is not None]
        tasks += [t.hands_task for t in self._deliveries.values() if t.hands_task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    # --- the group's outbox -----------------------------------------------------

    def _sync_group(self, chat_id: int, table_id: int) -> None:
        box = self._outbox(chat_id)
        box.sync(table_id)
        self._work(box)

    def _work(self, box: GroupOutbox) -> None:
        if box.task is None:
            box.task = self._background.spawn(self._run_outbox(box), f"group-{box.chat_id}")

    async def _run_outbox(self, box: GroupOutbox) -> None:
        try:
            await box.run(lambda item: self._deliver(box, item))
        finally:
            box.task = None
            if box.forgettable and self._outboxes.get(box.chat_id) is box:
                del self._outboxes[box.chat_id]
            self._forget_finished()

    async def _deliver(self, box: GroupOutbox, item: Item) -> bool:
        """One outbox item; False to try it again later."""
        chat_id = box.chat_id
        if isinstance(item, Chooser):
            return await self._offer(box, item)
        if isinstance(item, Say):
            shown = item.picture is not None and await self.services.directory.chat_pictures(
                chat_id
            )
            said = Composed(item.text, item.markup, item.picture if shown else None)
            async with self.pacer.slot(chat_id):
                if box.dropped:
                    return True
                sent = await self.io.show(
                    chat_id, said, thread_id=item.thread_id, notify=item.notify
                )
            if sent.delivery is Delivery.MIGRATED and sent.migrated_to is not None:
                await self._migrated(chat_id, sent.migrated_to)
                chat_id = sent.migrated_to
                sent = await self.io.show(chat_id, said, notify=item.notify)
            if item.warns is not None and sent.ok and sent.message_id is not None:
                await self._warned(*item.warns, chat_id, sent.message_id)
            return await self._settle(judged(sent, chat_id), None)
        return await self._sync_table(item)

    async def _offer(self, box: GroupOutbox, item: Chooser) -> bool:
        chat_id = box.chat_id
        async with self.pacer.slot(chat_id):
            if box.dropped:
                return True
            sent = await self.io.send(chat_id, item.text, item.markup, thread_id=item.thread_id)
        if not sent.ok:
            return await self._settle(judged(sent, chat_id), None)
        assert sent.message_id is not None
        choosers = box.choosers
        before = choosers.get(item.thread_id)
        if before is None:  # one left open by an earlier run (a restart)
            before = await self.ledger.chooser(chat_id, item.thread_id)
        choosers[item.thread_id] = sent.message_id
        await self.ledger.set_chooser(chat_id, item.thread_id, sent.message_id)
        if before is not None:  # closed, in a slot of its own
            lang = await self.group_language(chat_id)
            async with self.pacer.slot(chat_id):
                if not box.dropped:
                    await self.io.edit_text(chat_id, before, t(lang, "newgame.closed"))
        return True

    async def _settle(self, synced: Synced, table_id: int | None) -> bool:
        """Act on what a delivery to a group came to; True when there is
        nothing to try again."""
        match synced:
            case Retry(after=after):
                if after and table_id is not None:
                    await self.services.timers.postpone([table_id], after)
                return False
            case Migrated(chat=chat_id, to=to):
                await self._migrated(chat_id, to)
                return False
            case Done():
                return True

    async def _migrated(self, old: int, new: int) -> None:
        """The group became a supergroup: its tables move, and are painted there
        (with several workers, by this one, which takes the new chat too)."""
        await self.services.directory.migrate_chat(old, new)
        await self.services.take(new)
        for table in await self.services.snapshots.tables_in_chat(new):
            self._delivery(table.id).latest = await self.services.snapshots.snapshot(table.id)

    async def _sync_table(self, item: SyncTable) -> bool:
        table = self._deliveries.get(item.table_id)
        if table is None or table.latest is None:
            return True
        place = table.latest.table
        adopting = self._outboxes.get(place.chat_id)
        adopted = None if adopting is None else adopting.adopted.pop(place.thread_id, None)
        synced = await self.tables.sync(table, adopted)
        if isinstance(synced, Done):
            table.repost = False
        return await self._settle(synced, table.table_id)

    # --- hands -------------------------------------------------------------------

    def _sync_hands(self, table: TableDelivery) -> None:
        table.hands_due = True
        if table.hands_task is None:
            table.hands_task = self._background.spawn(
                self._run_hands(table), f"hands-{table.table_id}"
            )

    async def _run_hands(self, table: TableDelivery) -> None:
        backoff = Backoff(self._clock, self._background)
        try:
            while table.hands_due and not table.dropped:
                table.hands_due = False
                snapshot = table.latest
                assert snapshot is not None
                if not self._holding.holds(snapshot.table.chat_id):
                    break  # let go of (dropped just after): its new holder syncs them
                try:
                    done = True
                    if snapshot.spec.private_hands:
                        lang = await self.group_language(snapshot.table.chat_id)
                        synced = await self.hands.sync(table, snapshot, lang)
                        done = await self._settle_hands(synced, snapshot)
                    done = await self.hands.clear_warnings(snapshot) and done
                except Exception:
                    log.exception("updating the hands of table %s failed", table.table_id)
                    done = True
                if done:
                    backoff.succeeded()
                    continue
                table.hands_due = True
                await backoff.wait()
        finally:
            table.hands_task = None
            self._forget_finished()

    async def _settle_hands(self, synced: Synced, snapshot: Snapshot) -> bool:
        """Act on what a sync of the DMs came to; True when there is nothing to
        try again."""
        assert not isinstance(synced, Migrated)  # a DM does not migrate
        for seat in synced.unreachable:
            self._background.spawn(
                self._notice_unreachable(snapshot, seat), f"unreachable-{snapshot.table.id}"
            )
        if isinstance(synced, Retry):
            if synced.after:
                await self.services.timers.postpone([snapshot.table.id], synced.after)
            return False
        return True

    def _forget_finished(self) -> None:
        """Drop what is kept of tables that are over and fully delivered."""
        over = [table for table in self._deliveries.values() if table.over]
        if not over:  # the usual case, after every delivery: skip the outboxes
            return
        syncing = set().union(*(box.syncing() for box in self._outboxes.values()))
        for table in over:
            if table.hands_busy or table.table_id in syncing:
                continue
            del self._deliveries[table.table_id]
            self.ledger.forget(table.table_id)

    async def _notice_unreachable(self, snapshot: Snapshot, seat: int) -> None:
        table = snapshot.table
        lang = await self.group_language(table.chat_id)
        name = common.seat_name(lang, snapshot.seat(seat))
        cards = button(t(lang, "table.my_cards"), cd.CardsButton(table.id))
        text = t(lang, "table.unreachable", name=name)
        self.say(table.chat_id, text, markup([[cards]]), thread_id=table.thread_id)

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
        box = self._outbox(table.chat_id)
        box.add(Say(text, None, table.thread_id, notify=False, warns=(table.id, seat)))
        self._work(box)

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
        table = self._deliveries.get(table_id)
        if table is not None and table.latest is not None:
            self._sync_hands(table)
        else:  # over and forgotten meanwhile
            await self._reload(table_id)

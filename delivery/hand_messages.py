"""Each player's hand, and the buttons of the moves made there: in his DM, or
in the group as an ephemeral message that he alone sees.

Where it goes is chosen per person (:func:`in_group`): his own choice ("🂠 My
cards" on the table message, "✉️ To my DM" on his hand in the group), else his
DM when it works and the group when it does not, so that a person who never
opened the bot plays all the same.  Both ways are one delivery: the same
screen, the same record in the ledger (a hand in the group is recorded with
the group's chat id and the ephemeral message's id), the same stale-press rule
(the move count its buttons were drawn at).

A hand in the group is lossy (see ``docs/ephemeral.md``): Telegram does not
promise to deliver it to a member who is offline, keeps it out of the chat's
history, and lets a bot that is no administrator send one only in answer to a
press a few seconds old.  So it is edited in place while it can be; a new one
is sent when the player asks (his press gives the right to answer), or, when
the bot is an administrator, when his turn comes; one that cannot be edited
any more waits for either.  Nothing of the game waits for it: the table
message says whose turn it is, and the turn timer runs as ever.

One hand message per seat, edited silently, and only when what it shows
changed (a digest of it is kept with its id).  When a seat must act and its
player is not looking at his hand, it comes as a fresh message instead (so
that the phone notifies) and the previous one is deleted; never while he is
away (💤) and a computer plays his seat.  He is taken to be
looking when he pressed a button of that very message within :data:`LOOKING`
seconds and nothing was sent to his chat since: it is on his screen, and a
notification would only repeat what he sees change.  Computers have no DM; a
game without private hands sends none.

The turn warning ("20 s left") comes silently (his hand notified when the
turn came) and is deleted when the turn it warns of ends, and so is a game
without hands' (Daytona's) mention of him in the group; the ledger keeps them
until then, so a restart deletes them too.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from delivery import callback_data as cd
from delivery.bot_status import BotStatus
from delivery.composed import Composed
from delivery.keyboards import Rows, button, markup, move_rows
from delivery.ledger import HandMessageRow, Ledger
from delivery.seat_screen import LOOKING, SeatScreen
from delivery.synced import Done, Retry, Synced
from delivery.table_delivery import TableDelivery
from delivery.table_messages import marked_lines
from delivery.telegram_io import Delivery, Sent, TelegramIO
from games.core import Wait
from i18n import t
from screens import common
from screens.base import GameScreens, Key, OutScreens
from services import LoggedEvent, SeatRow, Services, Snapshot, Status

__all__ = ["BACK", "LOOKING", "HandMessages", "compose_hand", "in_group"]

BACK = "back"
"""The sub-menu focus that closes a sub-menu (and tells that an absent player is back)."""


def in_group(screen: SeatScreen, row: SeatRow) -> bool:
    """Whether the player's hands go to the group (ephemeral messages) rather
    than to his DM: as he asked this run, else as he chose, and the group
    wherever his DM does not work."""
    if screen.in_group is not None:
        return screen.in_group or not row.dm_ok or screen.dm_refused
    return row.hand_in == "group" or not row.dm_ok or screen.dm_refused


def compose_hand(
    snapshot: Snapshot,
    seat: int,
    lang: str,
    screens: GameScreens[Any, Any],
    *,
    now: float,
    focus: str | None = None,
    to_dm: bool = False,
) -> tuple[Composed, bool]:
    """The seat's DM, and whether it must act now (a new message then notifies;
    a move it may make but need not, such as a throw-in, arrives silently, and
    so does everything while the player is away and a computer plays for him)."""
    table = snapshot.table
    names = common.names_of(lang, table)
    live = table.status is Status.PLAYING
    # A move made on the table (101's next round) may be made from the DM too.
    actions = list(snapshot.legal(seat))
    view = snapshot.view(seat)
    # A seat out of a game that goes on (101's eliminated) sees that alone,
    # the same until the game ends: nothing of others' moves and turns.
    out = (
        screens.out(lang, view, names)
        if live and not actions and isinstance(screens, OutScreens)
        else None
    )
    body = out if out is not None else screens.hand(lang, view, actions, names, focus, live=live)
    title = html.escape(table.chat_title or "?")
    lines = [t(lang, "hand.header", game=t(lang, snapshot.spec.name_key), chat=title)]
    # His own move made by the timer or a computer reads so, as in the group.
    happened = (
        marked_lines(
            snapshot,
            _happened(snapshot, seat, screens.round_opened_by, acting=bool(actions)),
            lambda logged: screens.event(lang, logged.event, names, viewer=seat),
        )
        if out is None
        else []
    )
    if happened:
        lines.append("<i>" + " · ".join(happened) + "</i>")
    lines.append(body.text)
    if live and out is None and not actions and (turn := screens.turn(lang, view, names)):
        lines.append(turn)
    outcome = snapshot.outcome()
    if table.status is Status.FINISHED and outcome is not None:
        lines.append(screens.own_result(lang, outcome, view, names))
    if table.status is Status.CANCELLED:
        lines.append(common.closed_text(lang, table))
    keys: list[tuple[Key, ...]] = list(body.keys)
    row = snapshot.seat(seat)
    deadline = snapshot.deadlines.get(seat)
    # An absent player's seat is played by the computer: what he sees of it
    # is edited in silently, and he comes back with one press.
    must_act = live and snapshot.waits().get(seat) is Wait.DECIDE and not row.absent
    if live and row.absent and out is None:
        lines.append(t(lang, f"hand.absent.{table.on_absence.value}"))
        keys.append((Key(t(lang, "hand.back_button"), focus=BACK),))
    elif must_act and deadline is not None:
        lines.append(t(lang, "hand.time_left", time=common.duration(lang, deadline.due_at - now)))
    rows: Rows = move_rows(keys, table.id, table.moves)
    if to_dm and live:
        # A hand in the group offers the way back to the DM, which works.
        rows.append([button(t(lang, "hand.to_dm"), cd.DmButton(table.id))])
    return Composed("\n".join(lines), markup(rows), body.picture), must_act


def _happened(
    snapshot: Snapshot, seat: int, round_opened_by: frozenset[str], *, acting: bool
) -> list[LoggedEvent]:
    """What a seat's DM tells of what happened: the last move, to a seat that
    acts now; to one that waits, the latest move that concerned it (it made
    it, or was its target: the cards it picked up and why), so that it stays
    in view while others play, and the DM changes only when he is concerned.
    Nothing from before the round under way: the last round's end over the
    new round's cards reads as if it were this round's; a seat not concerned
    since the round began is told its beginning."""
    opened = max((e.move for e in snapshot.recent if e.event.kind in round_opened_by), default=0)
    recent = [e for e in snapshot.recent if e.move >= opened]
    if acting:
        last = snapshot.table.moves
    else:
        concerned = [e.move for e in recent if seat in (e.seat, e.event.seat, e.event.target)]
        if concerned:
            last = concerned[-1]
        elif opened:
            last = opened
        else:
            return []
    return [e for e in recent if e.move == last]


@dataclass(frozen=True, slots=True)
class _Synced:
    """What syncing one seat's DM came to."""

    record: HandMessageRow | None = None
    """The hand's new record (None: unchanged)."""
    replaced: tuple[tuple[int, int], str | None] | None = None
    """The message (chat, message) the new one replaces, to delete, with the
    text to leave it showing if too old to delete (None: it only loses its
    buttons)."""
    done: bool = True
    """Nothing is left to retry."""
    flood_wait: float = 0.0
    """Seconds of flood wait Telegram asked for."""
    unreachable: bool = False
    """The player gets no DMs, and the group has not been told yet."""


class HandMessages:
    """Brings a table's hands (in the DMs, or in the group) in line with its
    latest snapshot, every seat at once.

    What is only on screen (open sub-menus, asked-for fresh messages, presses,
    refused buttons, players the group was told cannot be reached) is the
    table's :class:`~delivery.table_delivery.TableDelivery`; what the DMs hold,
    and what is owed deleting, is the ledger's."""

    def __init__(
        self,
        io: TelegramIO,
        services: Services,
        screens: Mapping[str, GameScreens[Any, Any]],
        ledger: Ledger,
    ) -> None:
        self._io = io
        self._services = services
        self._screens = screens
        self._ledger = ledger
        self._bot_status = BotStatus(io, services)

    async def sync(self, table: TableDelivery, snapshot: Snapshot, group_lang: str) -> Synced:
        """Every person's DM as ``snapshot`` (the table's latest when the sync
        began) shows it; :class:`~delivery.synced.Retry` when something is
        worth trying again, with, either way, the seats whose players the group
        is to be told cannot be reached."""
        rows = await self._ledger.hands(table.table_id)
        seats = [s for s in snapshot.table.seats if s.user_id is not None]
        results = await asyncio.gather(
            *(self._sync(table, snapshot, s.seat, rows.get(s.seat), group_lang) for s in seats)
        )
        records = [r.record for r in results if r.record is not None]
        retiring = dict(r.replaced for r in results if r.replaced is not None)
        if table.suspects:
            suspects, table.suspects = table.suspects, set()
            # Judged with this sync's sends: a hand sent a moment ago may be
            # pressed before its record is written.
            rows.update((r.seat, r) for r in records)
            hands = {(r.chat_id, r.message_id) for r in rows.values()}
            players = {s.user_id for s in seats}
            retiring.update(dict.fromkeys((m for m in suspects - hands if m[0] in players), None))
        await self._ledger.save_hands(table.table_id, records, retiring)
        retired = await self._retire(table.table_id)
        unreachable = tuple(s.seat for s, r in zip(seats, results, strict=True) if r.unreachable)
        if retired and all(r.done for r in results):
            return Done(unreachable)
        return Retry(sum(r.flood_wait for r in results), unreachable)

    async def warned(self, table_id: int, seat: int, chat_id: int, message_id: int) -> None:
        """A turn warning was sent to the seat's DM: it goes when the turn ends."""
        await self._ledger.set_warning(table_id, seat, chat_id, message_id)

    async def clear_warnings(self, snapshot: Snapshot) -> bool:
        """Delete the turn warnings of turns that have ended; False while some
        are left to try again."""
        table = snapshot.table
        warnings = await self._ledger.warnings(table.id)
        if not warnings:
            return True
        waits = snapshot.waits() if table.status is Status.PLAYING else {}
        gone, done = [], True
        for seat, (chat_id, message_id) in warnings.items():
            deadline = snapshot.deadlines.get(seat)
            if (
                waits.get(seat) is Wait.DECIDE
                and deadline is not None
                and deadline.warn_at is None  # the warned deadline, not a new turn's
                and not snapshot.seat(seat).absent
            ):
                continue
            sent = await self._io.delete(chat_id, message_id)
            if sent.delivery is Delivery.RETRY:
                done = False
                continue
            gone.append(seat)  # deleted, or already gone
        await self._ledger.drop_warnings(table.id, gone)
        return done

    async def _retire(self, table_id: int) -> bool:
        """Delete the DM messages owed deleting (too old to delete, they lose
        their buttons); False while some are left."""
        owed = await self._ledger.retiring(table_id)
        gone = []
        for (chat_id, message_id), text in owed.items():
            sent = await self._io.delete(chat_id, message_id)
            if sent.delivery is Delivery.RETRY:
                continue
            if sent.delivery is Delivery.GONE:
                if text is None:
                    await self._io.remove_buttons(chat_id, message_id)
                else:
                    await self._io.edit_text(chat_id, message_id, text, None)
            gone.append((chat_id, message_id))
        await self._ledger.retired(table_id, gone)
        return len(gone) == len(owed)

    async def _sync(
        self,
        table: TableDelivery,
        snapshot: Snapshot,
        seat: int,
        row: HandMessageRow | None,
        group_lang: str,
    ) -> _Synced:
        """One seat's hand, where it goes."""
        person = snapshot.seat(seat)
        assert person.user_id is not None
        user_id = person.user_id
        screen = table.screen(user_id)
        moves = snapshot.table.moves
        if row is not None:
            screen.resume_menu(row.at_move, row.focus)
        here = in_group(screen, person)
        focus = screen.menu(moves)
        composed, must_act = compose_hand(
            snapshot,
            seat,
            person.language or group_lang,
            self._screens[snapshot.table.game],
            now=self._services.clock.now(),
            focus=focus,
            to_dm=here and person.dm_ok and not screen.dm_refused,
        )
        chat_id = snapshot.table.chat_id if here else user_id
        fresh = screen.fresh
        if (
            not fresh
            and row is not None
            and row.chat_id == chat_id
            and row.digest == composed.digest
            and (row.at_move is not None or not composed.has_buttons)
        ):
            return _Synced()
        if here:
            return await self._sync_in_group(table, snapshot, seat, row, composed, must_act, focus)
        if not person.dm_ok and not fresh:
            return _Synced(unreachable=self._tell_unreachable(table, snapshot, user_id))
        mine = row is not None and row.chat_id == user_id
        new_message = (
            fresh
            or row is None
            or not mine
            or (must_act and not row.acting and not self._looking(table, row))
        )
        message_id = None if row is None else row.message_id
        replaced = None
        if not new_message and row is not None:
            sent = await self._io.reshow(user_id, row.message_id, composed)
            if sent.delivery is Delivery.GONE:
                new_message = True
            elif not sent.ok:
                return await self._failed(table, snapshot, user_id, sent)
        if new_message:
            sent = await self._io.show(user_id, composed, notify=must_act)
            if not sent.ok:
                return await self._failed(table, snapshot, user_id, sent)
            if mine and row is not None:
                # One live hand per DM: the old one goes (or, too old to
                # delete, at least loses its buttons).
                left = composed.text if row.at_move is not None else None
                replaced = ((user_id, row.message_id), left)
            elif row is not None:
                await self._drop_from_group(row, user_id)
            message_id = sent.message_id
            screen.fresh = False
            screen.told_unreachable = False
        assert message_id is not None
        record = HandMessageRow(
            table_id=table.table_id,
            seat=seat,
            chat_id=user_id,
            message_id=message_id,
            digest=composed.digest,
            at_move=moves if composed.has_buttons else None,
            acting=must_act,
            focus=focus if composed.has_buttons else None,
        )
        return _Synced(record, replaced)

    async def _sync_in_group(
        self,
        table: TableDelivery,
        snapshot: Snapshot,
        seat: int,
        row: HandMessageRow | None,
        composed: Composed,
        must_act: bool,
        focus: str | None,
    ) -> _Synced:
        """One seat's hand as an ephemeral message in the group: edited in place
        while it can be; a new one when he asked (pressed "my cards"), when it
        was lost, or when his turn comes and he is not looking, as far as
        Telegram allows (an administrator any time, else only in answer to his
        press a few seconds old).  What cannot be sent now waits for his next
        press; the game does not wait for it."""
        place = snapshot.table
        person = snapshot.seat(seat)
        user_id = person.user_id
        assert user_id is not None
        screen = table.screen(user_id)
        now = self._services.clock.now()
        query = screen.answerable(now)
        may_send = query is not None or await self._bot_status.admin(place.chat_id)
        mine = row is not None and row.chat_id == place.chat_id
        new_message = screen.fresh or not mine or screen.lost
        if not new_message and row is not None:
            turn_came = must_act and not row.acting
            looking = screen.pressed_lately(row.message_id, now)
            if turn_came and not looking and may_send:
                new_message = True  # pushed to him: a new message notifies
            else:
                sent = await self._io.reshow_ephemeral(
                    place.chat_id, user_id, row.message_id, composed
                )
                if sent.delivery is Delivery.GONE:
                    screen.lost = True
                    new_message = True
                elif not sent.ok:
                    return self._failed_in_group(table, snapshot, person, sent)
        if new_message and not may_send:
            # Waits for his press of "my cards" (the table message says whose
            # turn it is).  One who had his hand in his DM until now (he
            # blocked the bot) is told, once, where it is.
            moved = row is not None and row.chat_id == user_id
            return _Synced(unreachable=moved and self._tell_unreachable(table, snapshot, user_id))
        replaced = None
        message_id = None if row is None else row.message_id
        if new_message:
            sent = await self._io.show_ephemeral(
                place.chat_id,
                user_id,
                composed,
                query_id=query,
                thread_id=place.thread_id,
                # In answer to his press he is looking already: silent.
                notify=must_act and query is None,
            )
            if sent.delivery is Delivery.GONE:
                return _Synced()  # his press is too old after all: the next one
            if not sent.ok:
                return self._failed_in_group(table, snapshot, person, sent)
            if mine and row is not None:
                await self._drop_from_group(row, user_id)
            elif row is not None:
                left = composed.text if row.at_move is not None else None
                replaced = ((row.chat_id, row.message_id), left)
            message_id = sent.message_id
            screen.fresh = screen.lost = False
            screen.told_unreachable = False
        assert message_id is not None
        record = HandMessageRow(
            table_id=table.table_id,
            seat=seat,
            chat_id=place.chat_id,
            message_id=message_id,
            digest=composed.digest,
            at_move=place.moves if composed.has_buttons else None,
            acting=must_act,
            focus=focus if composed.has_buttons else None,
        )
        return _Synced(record, replaced)

    async def _drop_from_group(self, row: HandMessageRow, user_id: int) -> None:
        """Delete a hand shown in the group (a new one replaces it).  Not
        retried: Telegram keeps ephemeral messages out of the chat's history
        anyway, and its buttons, drawn at an older move, are refused."""
        if row.chat_id < 0:
            await self._io.delete_ephemeral(row.chat_id, user_id, row.message_id)

    def _looking(self, table: TableDelivery, row: HandMessageRow) -> bool:
        """The player pressed this hand a moment ago and it is still his chat's
        newest message."""
        return (
            table.screen(row.chat_id).pressed_lately(row.message_id, self._services.clock.now())
            and self._io.newest(row.chat_id) == row.message_id
        )

    async def _failed(
        self, table: TableDelivery, snapshot: Snapshot, user_id: int, sent: Sent
    ) -> _Synced:
        """A DM was refused: done when trying again would not help."""
        if sent.delivery is Delivery.FORBIDDEN:
            await self._services.directory.set_dm_ok(user_id, False)
            # His hands go to the group from now on; the group is told once.
            table.screen(user_id).dm_refused = True
            return _Synced(done=False, unreachable=self._tell_unreachable(table, snapshot, user_id))
        if sent.delivery is Delivery.RETRY:
            return _Synced(done=False, flood_wait=sent.retry_after or 0.0)
        return _Synced()

    def _failed_in_group(
        self, table: TableDelivery, snapshot: Snapshot, person: SeatRow, sent: Sent
    ) -> _Synced:
        """A hand in the group was refused: the DM takes over where it works
        (the group path cannot reach him); done when trying again would not help."""
        assert person.user_id is not None
        if sent.delivery is Delivery.RETRY:
            return _Synced(done=False, flood_wait=sent.retry_after or 0.0)
        screen = table.screen(person.user_id)
        if person.dm_ok and not screen.dm_refused and screen.in_group is not False:
            screen.in_group = False
            screen.fresh = True
            return _Synced(done=False)
        return _Synced(unreachable=self._tell_unreachable(table, snapshot, person.user_id))

    @staticmethod
    def _tell_unreachable(table: TableDelivery, snapshot: Snapshot, user_id: int) -> bool:
        """Whether the group is to be told (once) that a player of a running
        game gets no cards."""
        screen = table.screen(user_id)
        if screen.told_unreachable or snapshot.table.status is not Status.PLAYING:
            return False
        screen.told_unreachable = True
        return True

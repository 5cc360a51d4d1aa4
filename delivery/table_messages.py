"""The group's one live message for a table: the lobby, then the table.

Composed from a snapshot only, so a restart (or a retry) composes it again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from delivery import callback_data as cd
from delivery.callback_data import LobbyCommand
from delivery.composed import Composed
from delivery.group_window import GroupWindow
from delivery.keyboards import Button, Keyboard, Rows, button, markup, move_rows, url_button
from delivery.ledger import Ledger, TableMessageRow
from delivery.synced import Done, Synced, judged
from delivery.table_delivery import TableDelivery
from delivery.telegram_io import Delivery, Sent, TelegramIO
from games.core import Action, Event, Place, Wait
from i18n import t
from screens import common, ratings
from screens.base import GameScreens, Key, Screen
from services import (
    Duplicates,
    LoggedEvent,
    Services,
    Setting,
    Snapshot,
    Status,
    TableRow,
)

__all__ = ["RECENT_LINES", "TableMessages", "compose_group"]

RECENT_LINES = 4
PIN_RETRY = 600.0
"""Seconds before asking again to pin in a chat where the bot may not pin
(an admin may have given it the right meanwhile)."""
"""Lines of what just happened under the table."""


@dataclass(frozen=True, slots=True)
class _Owed:
    """One post a move calls for: the ``index``-th of the move's ``count``."""

    move: int
    index: int
    count: int
    composed: Composed
    notify: bool


def marked_lines(
    snapshot: Snapshot,
    events: Iterable[LoggedEvent],
    line_of: Callable[[LoggedEvent], str | None],
) -> list[str]:
    """The lines ``line_of`` gives of ``events`` (in the group, and in a seat's
    DM), the mover's own action marked when nobody pressed for it: once a
    move, not what followed from it (a trick taken, a pulka closed)."""
    lines = []
    marked: set[int] = set()
    for logged in events:
        line = line_of(logged)
        if not line:
            continue
        if logged.event.seat == logged.seat and logged.move not in marked:
            marked.add(logged.move)
            line = common.actor_mark(snapshot.table, logged.seat, logged.actor) + line
        lines.append(line)
    return lines


def compose_group(
    snapshot: Snapshot,
    lang: str,
    screens: GameScreens[Any, Any],
    *,
    now: float,
    options_open: bool = False,
    pictures: bool = True,
) -> Composed:
    """The group's message for the table; ``pictures`` False (the chat turned
    them off) shows a picture's text alone."""
    table = snapshot.table
    if not snapshot.started:
        if table.status is Status.LOBBY:
            return _lobby(snapshot, lang, screens, options_open)
        return Composed(common.closed_lobby_text(lang, snapshot))
    composed = _table(snapshot, lang, screens, now)
    return composed if pictures else replace(composed, picture=None)


def _lobby(
    snapshot: Snapshot, lang: str, screens: GameScreens[Any, Any], options_open: bool
) -> Composed:
    table, spec, rules = snapshot.table, snapshot.spec, snapshot.rules
    text = common.lobby_text(lang, snapshot, screens)

    def lobby(label: str, command: LobbyCommand, arg: str | None = None) -> Button:
        return button(label, cd.LobbyButton(table.id, command, arg))

    def setting(name: Setting) -> list[Button]:
        label = common.setting_label(lang, table, name)
        return [lobby(label, LobbyCommand.SETTING, name)]

    rows: Rows
    if options_open:
        preset = spec.preset_name(rules)
        preset_label = t(lang, f"preset.{spec.key}.{preset}" if preset else "lobby.custom")
        rows = [[lobby(t(lang, "lobby.preset", preset=preset_label), LobbyCommand.PRESET)]]
        rows += [
            [lobby(common.option_label(lang, spec, rules, name), LobbyCommand.OPTION, name)]
            for name, _ in spec.rules.options()
            if rules.applies(name)
        ]
        rows.append(setting(Setting.TURN))
        if table.turn_seconds:
            rows.append(setting(Setting.ABSENCE))
        rows.append(
            [
                lobby(t(lang, "lobby.add_computer"), LobbyCommand.ADD_COMPUTER),
                lobby(t(lang, "lobby.remove_computer"), LobbyCommand.REMOVE_COMPUTER),
            ]
        )
        if common.computers_play(table) and snapshot.levels_differ:
            rows.append(setting(Setting.LEVEL))
        if _has_teams(snapshot):
            names = common.names_of(lang, table)
            switches = [
                lobby(t(lang, "lobby.switch_team", name=name), LobbyCommand.SWITCH_TEAM, str(i))
                for i, name in enumerate(names)
            ]
            rows += [switches[i : i + 2] for i in range(0, len(switches), 2)]
        rows.append([lobby(t(lang, "lobby.back"), LobbyCommand.BACK)])
        return Composed(text, markup(rows))
    rows = [
        [
            lobby(t(lang, "lobby.join"), LobbyCommand.JOIN),
            lobby(t(lang, "lobby.leave"), LobbyCommand.LEAVE),
        ],
        [
            lobby(t(lang, "lobby.start"), LobbyCommand.START),
            lobby(t(lang, "lobby.options"), LobbyCommand.OPTIONS),
        ],
        [lobby(t(lang, "lobby.cancel"), LobbyCommand.CANCEL)],
    ]
    if _has_teams(snapshot):
        rows.insert(2, [lobby(t(lang, "lobby.shuffle_teams"), LobbyCommand.SHUFFLE_TEAMS)])
    return Composed(text, markup(rows))


def _has_teams(snapshot: Snapshot) -> bool:
    seats = len(snapshot.table.seats)
    return seats > 1 and bool(snapshot.spec.teams(snapshot.rules, seats))


def _table(
    snapshot: Snapshot,
    lang: str,
    screens: GameScreens[Any, Any],
    now: float,
) -> Composed:
    table = snapshot.table
    names = common.names_of(lang, table)
    body = screens.table(lang, snapshot.public, names, live=table.status is Status.PLAYING)
    lines = [f"🃏 {common.game_title(lang, snapshot.spec, snapshot.rules)}", "", body.text]
    if table.duplicate_of is not None:
        lines[1:1] = [common.duplicate_line(lang, table)]
    shown = marked_lines(
        snapshot, snapshot.recent, lambda logged: screens.event(lang, logged.event, names)
    )
    if shown:
        lines += ["", *(f"<i>{line}</i>" for line in shown[-RECENT_LINES:])]
    waiting = _waiting_line(snapshot, lang, names, now)
    if waiting:
        lines += ["", waiting]
    if table.status is Status.CANCELLED:
        lines += ["", common.closed_text(lang, table)]
    dealt = common.deal_line(lang, table)
    if dealt:
        lines += ["", dealt]
    rows: Rows = []
    if table.status is Status.PLAYING:
        rows = move_rows(_table_keys(snapshot, lang, screens), table.id, table.moves)
        if snapshot.spec.private_hands:
            # The presser's hand, to him alone, here in the group.
            rows.append([button(t(lang, "table.my_cards"), cd.CardsButton(table.id))])
    return Composed("\n".join(lines), markup(rows), body.picture)


def _table_keys(snapshot: Snapshot, lang: str, screens: GameScreens[Any, Any]) -> list[list[Key]]:
    """Moves made on the table message (e.g. "next round"), each once."""
    keys: dict[str, Key] = {}
    for action in _table_moves(snapshot):
        code = action.encode()
        keys.setdefault(code, Key(screens.table_key(lang, action, snapshot.public), code))
    return [[key] for key in keys.values()]


def _table_moves(snapshot: Snapshot) -> list[Action]:
    """The moves any seat may make on the table message now."""
    return [
        action
        for seat in range(len(snapshot.table.seats))
        for action in snapshot.legal(seat)
        if action.place is Place.TABLE
    ]


def _move_codes(snapshot: Snapshot) -> frozenset[str]:
    """The moves the table message offers now, by their codes."""
    return frozenset(action.encode() for action in _table_moves(snapshot))


def _waiting_line(snapshot: Snapshot, lang: str, names: list[str], now: float) -> str | None:
    """Whose decision the table waits for, with the time left on each clock
    (an away player's seat has none: a computer plays it)."""
    waits = snapshot.waits()
    parts = []
    for seat, wait in sorted(waits.items()):
        deadline = snapshot.deadlines.get(seat)
        if wait is not Wait.DECIDE:
            continue
        if snapshot.seat(seat).absent:
            parts.append(f"{names[seat]} 💤")
        elif deadline is not None:
            left = common.duration(lang, max(deadline.due_at - now, 0))
            parts.append(f"{names[seat]} — {left}")
    if not parts:
        return None
    return "⏳ " + ", ".join(parts)


class TableMessages:
    """Keeps each table's group message showing its latest state, pinned while
    the game runs, and posts the announcements its moves call for (silently,
    but for the result)."""

    def __init__(
        self,
        io: TelegramIO,
        services: Services,
        screens: Mapping[str, GameScreens[Any, Any]],
        ledger: Ledger,
        pacer: GroupWindow,
        deep_link: Callable[[str], str],
    ) -> None:
        """``deep_link`` makes a link that opens the bot's DM with a payload (a
        finished game's replay)."""
        self._io = io
        self._services = services
        self._screens = screens
        self._ledger = ledger
        self._pacer = pacer
        self._deep_link = deep_link
        self._pin_refused: dict[int, float] = {}
        """Per chat: when Telegram last refused to let the bot pin there."""

    async def sync(self, table: TableDelivery, adopted: int | None = None) -> Synced:
        """The group's table message showing the table's latest snapshot, its
        pin, then the announcements owed; stops at the first delivery worth
        trying again.  ``adopted``: a message to take over if the table has
        none (the game chooser it was opened from).

        The group is told in the order things happened: what a move calls
        for (a round's score sheet) is posted before the table message shows
        a later move (the next round's play), which may have come while the
        edit waited for its slot; the edit then waits for the slot after it.
        Every call takes one slot either way: nothing more of the group's
        budget is spent, only in another order."""
        assert table.latest is not None
        table_id = table.table_id
        options_open, repost = table.options_open, table.repost
        chat_id = table.latest.table.chat_id
        lang = await self._services.directory.chat_language(chat_id)
        pictures = await self._services.directory.chat_pictures(chat_id)
        if not table.options_known:
            # The first sync of this run (a restart): a lobby whose message
            # shows its options open, as the creator left them, keeps them so.
            table.options_known = True
            row = await self._row(table_id, adopted)
            if (
                table.latest.table.status is Status.LOBBY
                and row.digest is not None
                and row.digest == self._compose(table.latest, lang, True, pictures).digest
            ):
                table.options_open = options_open = True
        while True:
            snapshot = table.latest
            row = await self._row(table_id, adopted)
            if row.announced < snapshot.table.moves - 1:
                # Moves before the latest, not yet told: their posts first.
                owed = await self._owed(snapshot, row, lang, pictures, before=True)
                synced = await self._post_owed(table, snapshot, row, owed, before=True)
                if not isinstance(synced, Done):
                    return synced
                row = await self._row(table_id, adopted)
            composed = self._compose(snapshot, lang, options_open, pictures)
            if not (repost or row.message_id is None or row.digest != composed.digest):
                break
            # An edit of a running game's table that only shows what the
            # players did (in their DMs, or one seat's move on the table, as
            # Daytona's draws) waits its spread turn (and shows what is latest
            # then); a lobby's edits, a move the whole group may make on the
            # table (101's next round), other moves than the message offers
            # (a deuce's readings, which nobody can play on without) and a new
            # message, which people in the group are waiting for, take the
            # next slot.
            offered = _move_codes(snapshot)
            spread = (
                snapshot.table.status is Status.PLAYING
                and not repost
                and row.message_id is not None
                and not (offered and Wait.CONSENT in snapshot.waits().values())
                and table.shown_moves in (None, offered)
            )
            async with self._pacer.slot(chat_id, spread=spread):
                if not self._ours(table, chat_id):
                    return Done()  # let go of meanwhile: its new holder shows it
                # Show the latest state, not the one that asked for this edit;
                # but a move it went past whose posts are owed (the round
                # that ended while the edit waited) has them first, the first
                # in this slot, and the edit waits for its next turn.
                latest = table.latest
                if latest.table.moves - 1 > row.announced and (
                    owed := await self._owed(latest, row, lang, pictures, before=True)
                ):
                    synced = await self._post_owed(table, latest, row, owed, before=True, held=True)
                    if not isinstance(synced, Done):
                        return synced
                    continue
                snapshot = latest
                composed = self._compose(snapshot, lang, options_open, pictures)
                sent = await self._show(table, snapshot, row, composed, lang, repost=repost)
            if sent is None:
                return Done()  # let go of meanwhile
            if not isinstance(synced := judged(sent, snapshot.table.chat_id), Done):
                return synced
            table.shown_moves = _move_codes(snapshot)
            break
        await self._pin(snapshot, await self._ledger.table_message(table_id))
        if snapshot.table.moves <= row.announced:
            return Done()
        owed = await self._owed(snapshot, row, lang, pictures)
        return await self._post_owed(table, snapshot, row, owed)

    async def _row(self, table_id: int, adopted: int | None) -> TableMessageRow:
        """What the ledger holds of the table's message: ``adopted`` as its
        message while it has none."""
        row = await self._ledger.table_message(table_id)
        if row.message_id is None and adopted is not None:
            row = replace(row, message_id=adopted)
        return row

    async def _pin(self, snapshot: Snapshot, row: TableMessageRow) -> None:
        """The live table message is pinned while the game runs, where the bot
        may pin; unpinned when the game is over."""
        table = snapshot.table
        playing = table.status is Status.PLAYING
        if row.message_id is None or playing == row.pinned:
            return
        now = self._services.clock.now()
        if playing and now - self._pin_refused.get(table.chat_id, -PIN_RETRY) < PIN_RETRY:
            return  # no right to pin here: no message budget spent asking again
        async with self._pacer.slot(table.chat_id):
            if playing:
                sent = await self._io.pin(table.chat_id, row.message_id)
                if sent.delivery is Delivery.GONE:
                    self._pin_refused[table.chat_id] = now
            else:
                sent = await self._io.unpin(table.chat_id, row.message_id)
        if sent.ok:
            await self._ledger.set_pinned(table.id, playing)

    def _compose(
        self, snapshot: Snapshot, lang: str, options_open: bool, pictures: bool
    ) -> Composed:
        return compose_group(
            snapshot,
            lang,
            self._screens[snapshot.table.game],
            now=self._services.clock.now(),
            options_open=options_open,
            pictures=pictures,
        )

    async def _show(
        self,
        delivery: TableDelivery,
        snapshot: Snapshot,
        row: TableMessageRow,
        composed: Composed,
        lang: str,
        *,
        repost: bool,
    ) -> Sent | None:
        """Edit the table message to ``composed``, or post it anew (pointing
        the old one below).  Its first call to Telegram is made in the group's
        slot the caller holds (which counts until this returns, on the safe
        side); each one after that takes a slot of its own, and None says the
        chat was let go of while one was awaited."""
        table = snapshot.table
        post = partial(self._post, table, composed)
        if row.message_id is None:
            return await post()
        if not repost and row.kind == composed.kind:
            sent = await self._io.reshow(table.chat_id, row.message_id, composed)
            if sent.delivery is Delivery.GONE:
                return await post()  # deleted in the chat: posted anew
            if sent.ok:
                await self._ledger.set_table_message(
                    table.id, row.message_id, composed.kind, composed.digest
                )
            return sent
        # The old message stays in the chat's history, pointing below (and
        # without its buttons) before the new one is posted.  Forget what it
        # showed first: if the bot stops before the new one is recorded, the
        # restart paints the old one again instead of trusting it.
        await self._ledger.set_table_message(table.id, row.message_id, row.kind, None)
        point_below = partial(self._point_below, table.chat_id, row, lang)
        if row.pinned:
            unpinned = await self._io.unpin(table.chat_id, row.message_id)
            if unpinned.delivery is Delivery.RETRY:
                return unpinned
            await self._ledger.set_pinned(table.id, False)
            if (edited := await self._in_slot(delivery, table.chat_id, point_below)) is None:
                return None
        else:
            edited = await point_below()
        if edited.delivery is Delivery.RETRY:
            return edited
        return await self._in_slot(delivery, table.chat_id, post)

    async def _post(self, table: TableRow, composed: Composed) -> Sent:
        """Post the table message anew, and record it."""
        sent = await self._io.show(table.chat_id, composed, thread_id=table.thread_id)
        if sent.ok:
            await self._ledger.set_table_message(
                table.id, sent.message_id, composed.kind, composed.digest
            )
        return sent

    @staticmethod
    def _after_game(lang: str, table: TableRow, first: list[Button]) -> Rows:
        """The result post's buttons: ``first`` (the rematch, the replay), then the same
        deal with the seats turned (when offered) and the analysis, a row each."""
        rows = [first, [button(t(lang, "result.analysis"), cd.AnalysisButton(table.id))]]
        if Duplicates.offered(table):
            rows.insert(1, [button(t(lang, "result.duplicate"), cd.DuplicateButton(table.id))])
        return rows

    async def _compared(self, lang: str, table: TableRow) -> str | None:
        """The comparison of the duplicate set ``table`` completes, if it does."""
        if not Duplicates.completes(table):
            return None
        comparison = await self._services.duplicates.comparison(table.id)
        return None if comparison is None else common.comparison_text(lang, comparison)

    async def _owed(
        self,
        snapshot: Snapshot,
        row: TableMessageRow,
        lang: str,
        pictures: bool,
        *,
        before: bool = False,
    ) -> list[_Owed]:
        """The posts the moves after the cursor call for, in order, up to the
        snapshot's latest move (``before``: up to the one before it), those
        already made left out."""
        table = snapshot.table
        last = table.moves - 1 if before else table.moves
        if last <= row.announced:
            return []
        screens = self._screens[table.game]
        names = common.names_of(lang, table)
        logged = await self._services.snapshots.events_after(table.id, row.announced)
        by_move: dict[int, list[Event]] = {}
        for entry in logged:
            if entry.move <= last:  # later moves wait for their own snapshot
                by_move.setdefault(entry.move, []).append(entry.event)
        announcing = {
            move
            for move, events in by_move.items()
            if any(e.kind in screens.announced_after for e in events)
        }
        # A move before the latest is shown as it left the table (a round's
        # sheet, not the latest round's), rebuilt from the log.
        views = await self._services.histories.public_views(table.id, announcing - {table.moves})
        views[table.moves] = snapshot.public
        posting = announcing | ({table.moves} if last == table.moves else set())
        owed: list[_Owed] = []
        for move in sorted(posting):
            # What a game posts on its way (a round's score sheet) comes
            # silently: the table message shows the game, and each player's
            # DM notifies him of his own moves.  The result notifies.
            posts: list[tuple[Screen, Keyboard | None, bool]] = []
            if move in announcing and move in views:
                posts += [
                    (s, None, False)
                    for s in screens.announcements(lang, by_move[move], views[move], names)
                ]
            if move == table.moves:
                posts += await self._result(snapshot, lang, names)
            owed += self._posts(row, move, posts, pictures)
        return owed

    @staticmethod
    def _posts(
        row: TableMessageRow,
        move: int,
        posts: list[tuple[Screen, Keyboard | None, bool]],
        pictures: bool,
    ) -> list[_Owed]:
        """A move's posts, less those made before (a later one failed, or
        whoever delivered the chat before stopped between them)."""
        done = row.announced_posts if move == row.announced + 1 else 0
        return [
            _Owed(
                move,
                index,
                len(posts),
                Composed(screen.text, keys, screen.picture if pictures else None),
                notify,
            )
            for index, (screen, keys, notify) in enumerate(posts)
            if index >= done
        ]

    async def _result(
        self, snapshot: Snapshot, lang: str, names: list[str]
    ) -> list[tuple[Screen, Keyboard | None, bool]]:
        """The result of a finished game (and the comparison of the duplicate
        set it completes), which notifies; nothing while it runs."""
        table = snapshot.table
        outcome = snapshot.outcome()
        if table.status is not Status.FINISHED or outcome is None:
            return []
        screens = self._screens[table.game]
        rematch = button(t(lang, "result.rematch"), cd.RematchButton(table.id))
        replay = url_button(t(lang, "result.replay"), self._deep_link(f"p{table.id}"))
        result = screens.result(lang, outcome, snapshot.public, names)
        rated = await self._services.ratings.of_table(table.id)
        result = ratings.with_ratings(lang, result, rated, table, names)
        keys = markup(self._after_game(lang, table, [rematch, replay]))
        posts: list[tuple[Screen, Keyboard | None, bool]] = [(result, keys, True)]
        compared = await self._compared(lang, table)
        if compared is not None:
            posts.append((Screen(compared), None, True))
        return posts

    async def _post_owed(
        self,
        delivery: TableDelivery,
        snapshot: Snapshot,
        row: TableMessageRow,
        owed: list[_Owed],
        *,
        before: bool = False,
        held: bool = False,
    ) -> Synced:
        """Post what is owed, each in a slot of its own (``held``: the first in
        the slot the caller holds), moving the cursor as they go, to the
        snapshot's latest move (``before``: to the one before it)."""
        table = snapshot.table
        told = row.announced  # how far the cursor is known to be
        for n, post in enumerate(owed):
            call = partial(
                self._io.show,
                table.chat_id,
                post.composed,
                thread_id=table.thread_id,
                notify=post.notify,
            )
            sent = (
                await call()
                if held and n == 0
                else await self._in_slot(delivery, table.chat_id, call)
            )
            if sent is None:
                return Done()  # the chat's next holder posts it from the cursor
            if not isinstance(synced := judged(sent, table.chat_id), Done):
                return synced
            if post.index + 1 < post.count:
                if sent.ok:
                    await self._ledger.set_announced(table.id, post.move - 1, post.index + 1)
            else:
                await self._ledger.set_announced(table.id, post.move)
                told = post.move
        last = table.moves - 1 if before else table.moves
        if last > told:
            await self._ledger.set_announced(table.id, last)
        return Done()

    async def _in_slot(
        self, delivery: TableDelivery, chat_id: int, call: Callable[[], Awaitable[Sent]]
    ) -> Sent | None:
        """One more call, in a group's slot of its own; None when the chat was
        let go of while the slot was awaited."""
        async with self._pacer.slot(chat_id):
            if not self._ours(delivery, chat_id):
                return None
            return await call()

    async def _point_below(self, chat_id: int, row: TableMessageRow, lang: str) -> Sent:
        """The old table message says the table moved below."""
        assert row.message_id is not None
        moved = t(lang, "table.moved_below")
        if row.kind == "photo":
            return await self._io.edit_caption(chat_id, row.message_id, moved)
        return await self._io.edit_text(chat_id, row.message_id, moved)

    def _ours(self, delivery: TableDelivery, chat_id: int) -> bool:
        """The table's chat is still this worker's to deliver: not dropped
        (its new holder delivers it from what the ledger recorded), and held
        now (a worker whose leases went unrenewed too long stops at once)."""
        return not delivery.dropped and self._services.holding.holds(chat_id)

"""Inline buttons: decode (never trusting the payload), call a service, answer.

The answer goes out as soon as the service has committed; what the change
means for the chat's messages is the publisher's work, told by the table
service itself.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import CallbackQuery, Message, Update

from delivery import callback_data as cd
from delivery.hand_messages import BACK
from delivery.keyboards import button, markup
from delivery.replay_messages import replay_message
from handlers.commands import (
    admin_unless_creator,
    analysis_payload,
    ask_for_analysis,
    set_language,
)
from handlers.context import (
    Koloda,
    KolodaContext,
    chat_info,
    language_for,
    person,
    presser_language,
    thread_of,
)
from i18n import LANGUAGES, t
from screens import common
from services import Lobby, Person, ServiceError, Setting, Snapshot

__all__ = ["on_callback"]

log = logging.getLogger(__name__)


def _answer(
    app: Koloda,
    query: CallbackQuery,
    text: str | None = None,
    *,
    alert: bool = False,
    url: str | None = None,
) -> None:
    app.publisher.answer(query.id, text, alert=alert, url=url)


async def on_callback(update: Update, context: KolodaContext) -> None:
    query = update.callback_query
    if query is None:
        return
    app = context.koloda
    await app.services.directory.seen(
        person(query.from_user),
        chat_info(update.effective_chat) if update.effective_chat else None,
    )
    # Toasts answer the presser in his own language; what is drawn into a group
    # message keeps the group's.
    lang = await presser_language(app, query.from_user)
    try:
        pressed = cd.parse(query.data)
    except cd.CallbackDataError:
        _answer(app, query, t(lang, "error.bad_button"), alert=True)
        return
    on_hand = _on_hand(query, pressed)
    if on_hand is not None:
        app.publisher.pressed(*on_hand)
    in_group = _in_group(query, pressed)
    if in_group is not None:
        app.publisher.pressed_in_group(*in_group)
    try:
        match pressed:
            case cd.MoveButton():
                snapshot = await app.services.tables.press(
                    pressed.table_id, query.from_user.id, pressed.action, at_move=pressed.at_move
                )
                _answer(app, query, _move_toast(app, query, in_group, snapshot, lang))
            case cd.MenuButton():
                await _menu(app, query, pressed)
            case cd.LobbyButton():
                await _lobby(app, update, context, query, pressed, lang)
            case cd.NewGameButton():
                await _new_game(app, update, query, pressed)
            case cd.LanguageButton():
                await _language(app, update, context, query, pressed)
            case cd.RematchButton():
                who = person(query.from_user)
                await app.services.lobby.rematch(pressed.table_id, who, query.id)
                _answer(app, query)
            case cd.ReplayButton():
                await _replay(app, update, query, pressed)
            case cd.DuplicateButton():
                await app.services.duplicates.deal_next(pressed.table_id, person(query.from_user))
                _answer(app, query)
            case cd.AnalysisButton():
                asked = await ask_for_analysis(app, query.from_user, pressed.table_id)
                if asked.queued:
                    _answer(app, query, t(lang, "analysis.queued", id=asked.table_id))
                else:  # his DM is closed: the bot opens, and its Start asks again
                    link = app.publisher.deep_link(analysis_payload(asked.table_id))
                    _answer(app, query, url=link)
            case cd.CardsButton():
                await app.publisher.show_cards(pressed.table_id, query.from_user.id, query.id)
                _answer(app, query, t(lang, "hand.in_group_toast"))
            case cd.DmButton():
                await app.publisher.hands_to_dm(pressed.table_id, query.from_user.id)
                _answer(app, query)
    except ServiceError as exc:
        _answer(app, query, t(lang, exc.key, **exc.params), alert=True)
        if on_hand is not None:
            app.publisher.refused(*on_hand)


def _move_toast(
    app: Koloda,
    query: CallbackQuery,
    in_group: tuple[int, int, str, int | None] | None,
    snapshot: Snapshot,
    lang: str,
) -> str | None:
    """The toast that answers a move made on the group's table message: what
    the move did, at once, while the message's edit may wait seconds for the
    group's budget (a hand, in a DM or ephemeral, is edited at once and says
    it itself)."""
    if in_group is None or in_group[3] is not None:
        return None
    return common.move_toast(lang, snapshot, app.screens[snapshot.table.game])


def _on_hand(query: CallbackQuery, pressed: cd.Button) -> tuple[int, int, int] | None:
    """(table, user, message) of a press on a table's button in the presser's
    DM; None for other presses, and for data the message has no button with
    (a modified client may send any)."""
    message = query.message
    if not isinstance(pressed, cd.MoveButton | cd.MenuButton) or not isinstance(message, Message):
        return None
    keyboard = message.reply_markup
    user_id = query.from_user.id
    if message.chat.id != user_id or keyboard is None:
        return None
    if all(b.callback_data != query.data for row in keyboard.inline_keyboard for b in row):
        return None
    return pressed.table_id, user_id, message.message_id


def _in_group(query: CallbackQuery, pressed: cd.Button) -> tuple[int, int, str, int | None] | None:
    """(table, user, query, ephemeral message or None) of a press on a table's
    move or menu button in a group: on the table message, or on the presser's
    own hand there (an ephemeral message, which names its receiver); None for
    other presses."""
    message = query.message
    if not isinstance(pressed, cd.MoveButton | cd.MenuButton) or not isinstance(message, Message):
        return None
    user_id = query.from_user.id
    if message.chat.id == user_id:
        return None
    ephemeral = message.api_kwargs.get("ephemeral_message_id")
    receiver = message.api_kwargs.get("receiver_user")
    if isinstance(ephemeral, int) and isinstance(receiver, dict) and receiver.get("id") == user_id:
        return pressed.table_id, user_id, query.id, ephemeral
    return pressed.table_id, user_id, query.id, None


async def _language(
    app: Koloda,
    update: Update,
    context: KolodaContext,
    query: CallbackQuery,
    pressed: cd.LanguageButton,
) -> None:
    if pressed.language not in LANGUAGES or query.message is None:
        raise ServiceError("error.bad_button")
    await set_language(app, update, context, pressed.language)
    done = t(pressed.language, "language.set", language=t(pressed.language, "language.in_text"))
    _answer(app, query, done)
    await app.publisher.io.edit_text(query.message.chat.id, query.message.message_id, done)


async def _menu(app: Koloda, query: CallbackQuery, pressed: cd.MenuButton) -> None:
    back = pressed.focus == BACK
    snapshot, seat = await app.services.tables.touch(
        pressed.table_id, query.from_user.id, None if back else pressed.at_move
    )
    _answer(app, query)
    app.publisher.menu(snapshot, seat, None if back else pressed.focus)


async def _replay(
    app: Koloda, update: Update, query: CallbackQuery, pressed: cd.ReplayButton
) -> None:
    """A step of a replay: its message shows the frame asked for.  Only the
    person who asked for it steps it; anybody else is sent to his own, in
    his DM (a finished game is anybody's to replay)."""
    message = query.message
    keyboard = message.reply_markup if isinstance(message, Message) else None
    if message is None or keyboard is None:
        raise ServiceError("error.bad_button")
    if all(b.callback_data != query.data for row in keyboard.inline_keyboard for b in row):
        raise ServiceError("error.bad_button")  # data the message has no button with
    if pressed.owner != query.from_user.id:
        _answer(app, query, url=app.publisher.deep_link(f"p{pressed.table_id}"))
        return
    history = await app.services.replays.of(pressed.table_id)
    if pressed.at > len(history.moves):
        raise ServiceError("error.bad_button")
    lang = await language_for(app, update)
    screens = app.screens[history.table.game]
    text, keys = replay_message(lang, history, screens, pressed.at, pressed.owner)
    _answer(app, query)
    app.publisher.edit_replay(message.chat.id, message.message_id, text, keys)


@dataclass(frozen=True, slots=True)
class _LobbyPress:
    """A press on a lobby button of the table in the chat it was pressed in."""

    app: Koloda
    update: Update
    context: KolodaContext
    query: CallbackQuery
    snapshot: Snapshot
    who: Person
    arg: str | None
    lang: str
    """The presser's language, for his toast."""

    @property
    def table_id(self) -> int:
        return self.snapshot.table.id

    @property
    def lobby(self) -> Lobby:
        return self.app.services.lobby

    def answer(self, key: str | None = None) -> None:
        _answer(self.app, self.query, None if key is None else t(self.lang, key))


async def _lobby(
    app: Koloda,
    update: Update,
    context: KolodaContext,
    query: CallbackQuery,
    pressed: cd.LobbyButton,
    lang: str,
) -> None:
    chat = update.effective_chat
    snapshot = await app.services.snapshots.snapshot(pressed.table_id)
    if chat is None or snapshot.table.chat_id != chat.id:
        raise ServiceError("error.bad_button")
    press = _LobbyPress(
        app, update, context, query, snapshot, person(query.from_user), pressed.arg, lang
    )
    await _LOBBY_HANDLERS[pressed.command](press)


async def _join(press: _LobbyPress) -> None:
    # Telegram's id of this press is mixed into the deal's seed (services.fairness).
    await press.lobby.join(press.table_id, press.who, press.query.id)
    press.answer("lobby.joined")


async def _leave(press: _LobbyPress) -> None:
    await press.lobby.leave(press.table_id, press.who)
    press.answer("lobby.left")


async def _start(press: _LobbyPress) -> None:
    admin = await admin_unless_creator(press.update, press.context, press.snapshot)
    started = await press.lobby.start(
        press.table_id, press.who, is_admin=admin, press_id=press.query.id
    )
    # Where the presser's own cards are: only a game with private hands has
    # them in a DM, and only for a player whose DM works.
    if not started.spec.private_hands:
        press.answer("lobby.started_on_table")
        return
    here = press.app.publisher.hand_in_group(started, press.who.id)
    if here is None:
        press.answer("lobby.started_unseated")
    else:
        press.answer("lobby.started_here" if here else "lobby.started")


async def _cancel(press: _LobbyPress) -> None:
    admin = await admin_unless_creator(press.update, press.context, press.snapshot)
    await press.app.services.moderation.cancel(press.table_id, press.who, is_admin=admin)
    press.answer("lobby.cancelled_short")


def _show_options(shown: bool) -> LobbyHandler:
    async def show(press: _LobbyPress) -> None:
        press.lobby.check_creator(press.snapshot, press.who)
        press.answer()
        press.app.publisher.show_options(press.snapshot, shown)

    return show


async def _cycle_preset(press: _LobbyPress) -> None:
    await press.lobby.cycle_preset(press.table_id, press.who)
    press.answer()


async def _add_computer(press: _LobbyPress) -> None:
    await press.lobby.add_computer(press.table_id, press.who)
    press.answer()


async def _remove_computer(press: _LobbyPress) -> None:
    await press.lobby.remove_computer(press.table_id, press.who)
    press.answer()


async def _cycle_option(press: _LobbyPress) -> None:
    if press.arg is None:
        raise ServiceError("error.bad_button")
    await press.lobby.cycle_option(press.table_id, press.who, press.arg)
    press.answer()


async def _cycle_setting(press: _LobbyPress) -> None:
    if press.arg not in tuple(Setting):
        raise ServiceError("error.bad_button")
    await press.lobby.cycle_setting(press.table_id, press.who, Setting(press.arg))
    press.answer()


async def _shuffle_teams(press: _LobbyPress) -> None:
    await press.lobby.shuffle_teams(press.table_id, press.who)
    press.answer("lobby.teams_shuffled")


async def _switch_team(press: _LobbyPress) -> None:
    if press.arg is None or not press.arg.isdigit():
        raise ServiceError("error.bad_button")
    await press.lobby.switch_team(press.table_id, press.who, int(press.arg))
    press.answer()


LobbyHandler = Callable[[_LobbyPress], Awaitable[None]]
_LOBBY_HANDLERS: dict[cd.LobbyCommand, LobbyHandler] = {
    cd.LobbyCommand.JOIN: _join,
    cd.LobbyCommand.LEAVE: _leave,
    cd.LobbyCommand.START: _start,
    cd.LobbyCommand.CANCEL: _cancel,
    cd.LobbyCommand.OPTIONS: _show_options(True),
    cd.LobbyCommand.BACK: _show_options(False),
    cd.LobbyCommand.PRESET: _cycle_preset,
    cd.LobbyCommand.ADD_COMPUTER: _add_computer,
    cd.LobbyCommand.REMOVE_COMPUTER: _remove_computer,
    cd.LobbyCommand.OPTION: _cycle_option,
    cd.LobbyCommand.SETTING: _cycle_setting,
    cd.LobbyCommand.SHUFFLE_TEAMS: _shuffle_teams,
    cd.LobbyCommand.SWITCH_TEAM: _switch_team,
}
"""What each lobby button does (every command has its handler: see the test)."""


async def _new_game(
    app: Koloda, update: Update, query: CallbackQuery, pressed: cd.NewGameButton
) -> None:
    chat = update.effective_chat
    message = query.message
    spec = app.games.get(pressed.game)
    if chat is None or message is None or spec is None:
        raise ServiceError("error.bad_button")
    if pressed.preset is not None and pressed.preset not in spec.presets:
        raise ServiceError("error.bad_button")  # a variant no longer offered
    if pressed.owner != query.from_user.id:
        raise ServiceError("error.not_your_choice")
    if pressed.preset is None:
        lang = await language_for(app, update)  # the chooser is the group's message
        rows = [
            [
                button(
                    t(lang, f"preset.{spec.key}.{name}"),
                    cd.NewGameButton(pressed.owner, spec.key, name),
                )
            ]
            for name in spec.presets
        ]
        _answer(app, query)
        text = common.preset_chooser_text(lang, spec)
        await app.publisher.io.edit_text(chat.id, message.message_id, text, markup(rows))
        return
    who = person(query.from_user)
    # The chooser message becomes the lobby message.
    app.publisher.adopt(chat.id, thread_of(update), message.message_id)
    snapshot: Snapshot = await app.services.lobby.create(
        chat.id, thread_of(update), who, spec.key, pressed.preset
    )
    if snapshot.table.seat_of(who.id) is not None:
        _answer(app, query)
    else:
        _answer(app, query, url=app.publisher.deep_link(f"j{snapshot.table.id}"))

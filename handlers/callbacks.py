"""Inline buttons: decode (never trusting the payload), call a service,
answer the query, re-render."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from games import registry
from handlers import callback_data as cd
from handlers.commands import is_admin
from handlers.context import Koloda, chat_info, koloda, language_for, person, thread_of
from handlers.flows import begin, play_move
from i18n import t
from services import ServiceError

__all__ = ["on_callback"]

log = logging.getLogger(__name__)


async def _answer(
    query: CallbackQuery, text: str | None = None, *, alert: bool = False, url: str | None = None
) -> None:
    try:
        await query.answer(text, show_alert=alert, url=url)
    except TelegramError as exc:  # too old or answered already: nothing to do
        log.info("answerCallbackQuery failed: %s", exc)


async def on_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    app = koloda(context)
    await app.services.directory.seen(
        person(query.from_user),
        chat_info(update.effective_chat) if update.effective_chat else None,
    )
    lang = await language_for(app, update)
    try:
        button = cd.parse(query.data)
    except cd.CallbackDataError:
        await _answer(query, t(lang, "error.bad_button"), alert=True)
        return
    try:
        match button:
            case cd.MoveButton():
                await _move(app, query, button)
            case cd.MenuButton():
                await _menu(app, query, button)
            case cd.LobbyButton():
                await _lobby(app, update, context, query, button, lang)
            case cd.NewGameButton():
                await _new_game(app, update, query, button, lang)
            case cd.RematchButton():
                await _rematch(app, query, button)
    except ServiceError as exc:
        # A private-chat refusal reads in the presser's language.
        await _answer(query, t(lang, exc.key, **exc.params), alert=True)


async def _move(app: Koloda, query: CallbackQuery, button: cd.MoveButton) -> None:
    await play_move(
        app,
        button.table_id,
        query.from_user.id,
        button.action,
        made_at=button.version,
        answer=lambda: _answer(query),
    )


async def _menu(app: Koloda, query: CallbackQuery, button: cd.MenuButton) -> None:
    async with app.publisher.table_lock(button.table_id):
        table, seat = await app.services.moves.button_seat(
            button.table_id, query.from_user.id, button.keyboard
        )
        await _answer(query)
        focus = None if button.focus == "back" else button.focus
        await app.publisher.refresh_hands(table, focus=(seat, focus) if focus else None)


async def _lobby(
    app: Koloda,
    update: Update,
    context: ContextTypes.DEFAULT_TYPE,
    query: CallbackQuery,
    button: cd.LobbyButton,
    lang: str,
) -> None:
    who = person(query.from_user)
    lobby = app.services.lobby
    publisher = app.publisher
    table = await lobby.table(button.table_id)
    if table.chat_id != (update.effective_chat.id if update.effective_chat else None):
        raise ServiceError("error.bad_button")
    if button.command == "s":
        admin = who.id != table.creator_id and await is_admin(update, context)
        started = t(lang, "lobby.started")
        await begin(app, table.id, who, is_admin=admin, answer=lambda: _answer(query, started))
        return
    async with publisher.table_lock(button.table_id):
        table = await lobby.table(button.table_id)
        match button.command:
            case "j":
                dm_ok = await app.services.directory.dm_ok(who.id)
                result = await lobby.join(table.id, who, dm_ok=dm_ok)
                if result.needs_dm:
                    # Telegram opens t.me links given as the answer's url.
                    await _answer(query, url=publisher.deep_link(f"j{table.id}"))
                    return
                await _answer(query, t(lang, "lobby.joined"))
                await publisher.show_lobby(result.table)
            case "v":
                table = await lobby.leave(table.id, who)
                await _answer(query, t(lang, "lobby.left"))
                await publisher.show_lobby(table)
            case "c":
                admin = who.id != table.creator_id and await is_admin(update, context)
                table = await lobby.cancel(table.id, who, is_admin=admin)
                await _answer(query, t(lang, "lobby.cancelled_short"))
                await publisher.show_lobby(table)
            case "o" | "b":
                if who.id != table.creator_id:
                    raise ServiceError("error.only_creator_options")
                await _answer(query)
                await publisher.show_lobby(table, options=button.command == "o")
            case "p":
                table = await lobby.cycle_preset(table.id, who)
                await _answer(query)
                await publisher.show_lobby(table, options=True)
            case "t" if button.option is not None:
                table = await lobby.cycle_option(table.id, who, button.option)
                await _answer(query)
                await publisher.show_lobby(table, options=True)
            case _:
                raise ServiceError("error.bad_button")


async def _new_game(
    app: Koloda, update: Update, query: CallbackQuery, button: cd.NewGameButton, lang: str
) -> None:
    chat = update.effective_chat
    message = query.message
    if chat is None or message is None or button.game not in registry.GAMES:
        raise ServiceError("error.bad_button")
    spec = registry.get(button.game)
    if button.preset is None:
        rows = [
            [
                InlineKeyboardButton(
                    t(lang, f"preset.{spec.key}.{name}"),
                    callback_data=cd.pack(cd.NewGameButton(spec.key, name)),
                )
            ]
            for name in spec.presets
        ]
        await _answer(query)
        await app.publisher.io.edit(
            chat.id,
            message.message_id,
            t(lang, "newgame.choose_preset", game=t(lang, spec.name_key)),
            InlineKeyboardMarkup(rows),
        )
        return
    who = person(query.from_user)
    dm_ok = await app.services.directory.dm_ok(who.id)
    table = await app.services.lobby.create(
        chat.id, thread_of(update), who, spec.key, button.preset, creator_dm_ok=dm_ok
    )
    # The chooser message becomes the lobby message.
    await app.services.lobby.set_message(table.id, message.message_id)
    table = await app.services.lobby.table(table.id)
    if dm_ok:
        await _answer(query)
    else:
        await _answer(query, url=app.publisher.deep_link(f"j{table.id}"))
    async with app.publisher.table_lock(table.id):
        await app.publisher.show_lobby(table)


async def _rematch(app: Koloda, query: CallbackQuery, button: cd.RematchButton) -> None:
    table = await app.services.lobby.rematch(button.table_id, person(query.from_user))
    await _answer(query)
    async with app.publisher.table_lock(table.id):
        await app.publisher.show_lobby(table)

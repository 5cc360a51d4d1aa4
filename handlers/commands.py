"""Slash commands: parse, call a service, render, reply."""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatMemberStatus
from telegram.ext import ContextTypes

from games import registry
from handlers import callback_data as cd
from handlers.context import (
    Koloda,
    chat_info,
    koloda,
    language_for,
    person,
    sender,
    thread_of,
)
from handlers.flows import begin, play_move
from handlers.render import common
from handlers.render.games import ui_for
from i18n import LANGUAGES, t
from services import ServiceError
from services.lobby import load_rules
from storage import TableRow

__all__ = ["COMMANDS", "is_admin", "reply", "unknown"]

log = logging.getLogger(__name__)

Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


async def reply(
    app: Koloda, update: Update, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Answer in the chat (and topic) the command came from; group replies are
    paced like every other group message."""
    _, chat = sender(update)
    if chat.type != Chat.PRIVATE:
        await app.publisher.pacer.turn(chat.id)
    await app.publisher.io.send(chat.id, text, markup, thread_id=thread_of(update))


async def is_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type == Chat.PRIVATE:
        return False
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


def _group_only(handler: Handler) -> Handler:
    async def wrapped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat = update.effective_chat
        if chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP):
            await handler(update, context)
            return
        app = koloda(context)
        await reply(app, update, t(await language_for(app, update), "error.group_only"))

    return wrapped


def _refusing(handler: Handler) -> Handler:
    """Every command: remember who and where, and turn a ServiceError into a
    translated reply."""

    async def wrapped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        app = koloda(context)
        if update.effective_user is None or update.effective_chat is None:
            return
        await app.services.directory.seen(
            person(update.effective_user), chat_info(update.effective_chat)
        )
        try:
            await handler(update, context)
        except ServiceError as exc:
            lang = await language_for(app, update)
            await reply(app, update, t(lang, exc.key, **exc.params))

    return wrapped


async def _open_table(app: Koloda, update: Update) -> TableRow:
    _, chat = sender(update)
    table = await app.services.lobby.open_table(chat.id, thread_of(update))
    if table is None:
        raise ServiceError("error.no_open_table")
    return table


# --- /start, /help ---------------------------------------------------------------


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, chat = sender(update)
    lang = await language_for(app, update)
    if chat.type != Chat.PRIVATE:
        await reply(app, update, common.help_text(lang))
        return
    payload = context.args[0] if context.args else ""
    if payload.startswith("j") and payload[1:].isdigit():
        await _join_by_link(app, update, int(payload[1:]), lang)
    elif payload.startswith("h") and payload[1:].isdigit():
        await _resend_hand(app, update, int(payload[1:]), lang)
    elif payload:
        await reply(app, update, t(lang, "error.bad_link"))
    else:
        await reply(app, update, t(lang, "start.welcome") + "\n\n" + common.help_text(lang))
        await app.publisher.welcome_back(user.id)


async def _linked_table(
    app: Koloda, update: Update, table_id: int, lang: str, *, usable: Callable[[TableRow], bool]
) -> TableRow | None:
    """The table a deep link names, or None after telling the user why not."""
    try:
        table = await app.services.lobby.table(table_id)
    except ServiceError:
        await reply(app, update, t(lang, "error.bad_link"))
        return None
    if not usable(table):
        await reply(app, update, t(lang, "error.link_expired"))
        return None
    return table


async def _join_by_link(app: Koloda, update: Update, table_id: int, lang: str) -> None:
    user, _ = sender(update)
    if not await _linked_table(app, update, table_id, lang, usable=lambda t: t.status == "lobby"):
        return
    async with app.publisher.table_lock(table_id):
        result = await app.services.lobby.join(table_id, person(user), dm_ok=True)
        await app.publisher.show_lobby(result.table)
    chat = await app.services.directory.chat_title(result.table.chat_id)
    await reply(app, update, t(lang, "start.joined", chat=html.escape(chat)))


async def _resend_hand(app: Koloda, update: Update, table_id: int, lang: str) -> None:
    user, _ = sender(update)

    def seated_and_playing(table: TableRow) -> bool:
        return table.status == "playing" and table.seat_of(user.id) is not None

    if await _linked_table(app, update, table_id, lang, usable=seated_and_playing):
        async with app.publisher.table_lock(table_id):
            fresh = await app.services.lobby.table(table_id)
            await app.publisher.refresh_hands(fresh, fresh_for=user.id)


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    await reply(app, update, common.help_text(await language_for(app, update)))


# --- the lobby ---------------------------------------------------------------------


async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, chat = sender(update)
    lang = await language_for(app, update)
    args = context.args or []
    if len(args) > 2:
        raise ServiceError("error.newgame_usage")
    if not args:
        if await app.services.lobby.open_table(chat.id, thread_of(update)) is not None:
            raise ServiceError("error.table_exists")
        markup = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        t(lang, spec.name_key), callback_data=cd.pack(cd.NewGameButton(spec.key))
                    )
                ]
                for spec in registry.GAMES.values()
            ]
        )
        await reply(app, update, t(lang, "newgame.choose"), markup)
        return
    game = args[0].lower()
    preset = args[1].lower() if len(args) == 2 else None
    dm_ok = await app.services.directory.dm_ok(user.id)
    table = await app.services.lobby.create(
        chat.id, thread_of(update), person(user), game, preset, creator_dm_ok=dm_ok
    )
    await app.publisher.show_lobby(table)
    if not dm_ok:
        await _send_to_bot(app, update, table.id, lang)


async def _send_to_bot(app: Koloda, update: Update, table_id: int, lang: str) -> None:
    link = app.publisher.deep_link(f"j{table_id}")
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "common.open_bot"), url=link)]])
    user, _ = sender(update)
    text = t(lang, "lobby.open_bot_first", name=html.escape(user.first_name))
    await reply(app, update, text, markup)


async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, _ = sender(update)
    table = await _open_table(app, update)
    lang = await language_for(app, update)
    dm_ok = await app.services.directory.dm_ok(user.id)
    async with app.publisher.table_lock(table.id):
        result = await app.services.lobby.join(table.id, person(user), dm_ok=dm_ok)
        if not result.needs_dm:
            await app.publisher.show_lobby(result.table)
    if result.needs_dm:
        await _send_to_bot(app, update, table.id, lang)


async def leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, _ = sender(update)
    table = await _open_table(app, update)
    async with app.publisher.table_lock(table.id):
        await app.publisher.show_lobby(await app.services.lobby.leave(table.id, person(user)))


async def startgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, _ = sender(update)
    table = await _open_table(app, update)
    if table.status == "playing":
        # A running game may have something to start, e.g. 101's next round.
        code = ui_for(table.game).continue_action(app.services.moves.games.get(table).public_view())
        if code is None:
            raise ServiceError("error.already_started")
        await play_move(app, table.id, user.id, code, made_at=table.moves)
        return
    admin = user.id != table.creator_id and await is_admin(update, context)
    await begin(app, table.id, person(user), is_admin=admin)


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, _ = sender(update)
    table = await _open_table(app, update)
    admin = user.id != table.creator_id and await is_admin(update, context)
    async with app.publisher.table_lock(table.id):
        table = await app.services.lobby.cancel(table.id, person(user), is_admin=admin)
        app.publisher.table_changed(table)
        await app.publisher.refresh_hands(table)


async def table_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    table = await _open_table(app, update)
    async with app.publisher.table_lock(table.id):
        await app.publisher.repost(table)


# --- scores, rules, language ---------------------------------------------------------


async def scores(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    _, chat = sender(update)
    lang = await language_for(app, update)
    board = await app.services.scores.leaderboard(chat.id)
    await reply(app, update, common.scores_text(lang, board))


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, chat = sender(update)
    lang = await language_for(app, update)
    in_chat = None if chat.type == Chat.PRIVATE else chat.id
    rows = await app.services.scores.stats(user.id, in_chat)
    await reply(app, update, common.stats_text(lang, user.first_name, rows))


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    _, chat = sender(update)
    lang = await language_for(app, update)
    args = context.args or []
    table = None
    if chat.type != Chat.PRIVATE:
        table = await app.services.lobby.open_table(chat.id, thread_of(update))
    if args:
        key = args[0].lower()
        if key not in registry.GAMES:
            raise ServiceError("error.unknown_game", game=key)
    elif table is not None:
        key = table.game
    else:
        raise ServiceError("error.rules_usage", games=", ".join(registry.GAMES))
    spec = registry.get(key)
    text = f"<b>{t(lang, spec.name_key)}</b>\n\n{t(lang, f'rules.{key}')}"
    if table is not None and table.game == key:
        text += "\n\n" + t(lang, "rules.this_table") + "\n"
        text += common.options_summary(lang, spec, load_rules(table))
    await reply(app, update, text)


async def language(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    app = koloda(context)
    user, chat = sender(update)
    current = await language_for(app, update)
    args = context.args or []
    if len(args) > 1 or (args and args[0].lower() not in LANGUAGES):
        raise ServiceError("error.language_usage", languages=", ".join(LANGUAGES))
    if chat.type != Chat.PRIVATE and not await is_admin(update, context):
        raise ServiceError("error.admins_only")
    new = args[0].lower() if args else LANGUAGES[(LANGUAGES.index(current) + 1) % len(LANGUAGES)]
    await app.services.directory.set_language(chat_info(chat), user.id, new)
    await reply(app, update, t(new, "language.set"))


async def unknown(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A command this bot does not have, in a private chat (in groups it may
    be another bot's, so it is left alone)."""
    app = koloda(context)
    await reply(app, update, t(await language_for(app, update), "error.unknown_command"))


COMMANDS: dict[str, Handler] = {
    "start": _refusing(start),
    "help": _refusing(help_command),
    "newgame": _refusing(_group_only(newgame)),
    "join": _refusing(_group_only(join)),
    "leave": _refusing(_group_only(leave)),
    "startgame": _refusing(_group_only(startgame)),
    "cancel": _refusing(_group_only(cancel)),
    "table": _refusing(_group_only(table_command)),
    "scores": _refusing(_group_only(scores)),
    "stats": _refusing(stats),
    "rules": _refusing(rules),
    "language": _refusing(language),
}
"""Every command, in the order ``setMyCommands`` lists them."""

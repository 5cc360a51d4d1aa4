"""Slash commands: parse, call a service, reply.

Replies in groups go through the publisher (within the group's message budget,
so a handler never waits for the group's next slot); in private chats they go
out at once.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import Chat, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from delivery import callback_data as cd
from delivery.keyboards import button, markup, url_button
from delivery.replay_messages import replay_at, replay_message
from handlers import ratings
from handlers.context import (
    Koloda,
    KolodaContext,
    chat_info,
    language_for,
    person,
    presser_language,
    reply,
    sender,
    thread_of,
)
from i18n import LANGUAGES, normalize, t
from screens import common
from screens.base import SheetScreens
from services import History, ServiceError, Snapshot, Status, seated_named

__all__ = [
    "COMMANDS",
    "PRIVATE_COMMANDS",
    "admin_unless_creator",
    "analysis",
    "ask_for_analysis",
    "plain_text",
    "reply",
    "set_language",
    "unknown",
    "verify",
]

log = logging.getLogger(__name__)

Handler = Callable[[Update, KolodaContext], Coroutine[Any, Any, None]]


async def is_admin(update: Update, context: KolodaContext) -> bool:
    """The sender administers the group (False if Telegram cannot tell now)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type == Chat.PRIVATE:
        return False
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError as exc:
        log.warning("getChatMember %s/%s failed: %s", chat.id, user.id, exc)
        return False
    return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


def _group_only(handler: Handler) -> Handler:
    async def wrapped(update: Update, context: KolodaContext) -> None:
        chat = update.effective_chat
        if chat is not None and chat.type in (Chat.GROUP, Chat.SUPERGROUP):
            await handler(update, context)
            return
        app = context.koloda
        await reply(app, update, t(await language_for(app, update), "error.group_only"))

    return wrapped


def _recorded(handler: Handler) -> Handler:
    """Every command: remember who and where, and turn a refusal into a
    translated reply."""

    async def wrapped(update: Update, context: KolodaContext) -> None:
        app = context.koloda
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


async def _open_table(app: Koloda, update: Update) -> Snapshot:
    _, chat = sender(update)
    snapshot = await app.services.snapshots.snapshot_in(chat.id, thread_of(update))
    if snapshot is None:
        raise ServiceError("error.no_open_table")
    return snapshot


async def admin_unless_creator(update: Update, context: KolodaContext, snapshot: Snapshot) -> bool:
    """The sender may act on the table as a group admin: he administers the
    group and is not its creator (who may anyway; Telegram is not asked)."""
    user, _ = sender(update)
    return user.id != snapshot.table.creator_id and await is_admin(update, context)


# --- /start, /help ---------------------------------------------------------------


async def start(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, chat = sender(update)
    lang = await language_for(app, update)
    if chat.type != Chat.PRIVATE:
        await reply(app, update, common.help_text(lang, app.games.values()))
        return
    payload = context.args[0] if context.args else ""
    if payload.startswith("j") and payload[1:].isdigit():
        await _join_by_link(app, update, int(payload[1:]), lang)
    elif payload.startswith("h") and payload[1:].isdigit():
        await _resend_hand(app, update, int(payload[1:]), lang)
    elif payload.startswith("p") and payload[1:].isdigit():
        # "▶️ Replay" under a game's result in the group: the replay in his DM.
        await _send_replay(app, update, await app.services.replays.of(int(payload[1:])), lang)
    elif (at_move := replay_at(payload)) is not None:
        # A move named in his analysis: the replay in his DM, at that move.
        history = await app.services.replays.of(at_move[0])
        if at_move[1] > len(history.moves):
            raise ServiceError("error.bad_link")
        await _send_replay(app, update, history, lang, at_move[1])
    elif payload.startswith("a") and payload[1:].isdigit():
        # "🤖 Open the bot" under a refused analysis: now his DM is open.
        asked = await ask_for_analysis(app, user, int(payload[1:]))
        await reply(app, update, t(lang, "analysis.queued", id=asked.table_id))
    elif payload:
        await reply(app, update, _hello(lang, user) + "\n\n" + t(lang, "error.bad_link"))
    else:
        help_text = common.help_text(lang, app.games.values())
        await reply(app, update, t(lang, "start.welcome") + "\n\n" + help_text)
        await app.publisher.welcome_back(user.id)


def _hello(lang: str, user: User) -> str:
    return t(lang, "start.hello", name=html.escape(user.first_name))


async def _linked_table(
    app: Koloda, update: Update, table_id: int, lang: str, *, usable: Callable[[Snapshot], bool]
) -> Snapshot | None:
    """The table a deep link names, or None after telling the user why not."""
    try:
        snapshot = await app.services.snapshots.snapshot(table_id)
    except ServiceError:
        await reply(app, update, t(lang, "error.bad_link"))
        return None
    if not usable(snapshot):
        await reply(app, update, t(lang, "error.link_expired"))
        return None
    return snapshot


async def _join_by_link(app: Koloda, update: Update, table_id: int, lang: str) -> None:
    """Join by the lobby's deep link: often the first the person ever hears
    from the bot, so it greets him and shows the table, never only a refusal."""
    user, _ = sender(update)
    hello = _hello(lang, user)
    try:
        snapshot = await app.services.snapshots.snapshot(table_id)
    except ServiceError:
        await reply(app, update, hello + "\n\n" + t(lang, "error.bad_link"))
        return
    chat = html.escape(await app.services.directory.chat_title(snapshot.table.chat_id))
    if snapshot.table.status is not Status.LOBBY:
        where = t(lang, "start.table_closed", chat=chat)
        await reply(app, update, f"{hello}\n\n{where} {t(lang, 'error.link_expired')}")
        return
    try:
        # The person writes from his DM, which the directory has just noted open.
        snapshot = await app.services.lobby.join(table_id, person(user))
        seated = t(lang, "start.joined", chat=chat)
    except ServiceError as exc:
        if exc.key != "error.already_seated":
            refusal = t(lang, exc.key, **exc.params)
            seated = t(lang, "start.not_joined", chat=chat, why=refusal)
        else:
            seated = t(lang, "start.joined", chat=chat)
    screens = app.screens[snapshot.table.game]
    table = common.lobby_text(lang, snapshot, screens)
    await reply(app, update, f"{hello}\n\n{seated}\n\n{table}")


async def _resend_hand(app: Koloda, update: Update, table_id: int, lang: str) -> None:
    user, _ = sender(update)

    def playing(snapshot: Snapshot) -> bool:
        return snapshot.table.status is Status.PLAYING

    snapshot = await _linked_table(app, update, table_id, lang, usable=playing)
    if snapshot is None:
        return
    if snapshot.table.seat_of(user.id) is None:
        raise ServiceError("error.not_your_table")
    app.publisher.resend_hand(snapshot, user.id)


async def help_command(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    lang = await language_for(app, update)
    await reply(app, update, common.help_text(lang, app.games.values()))


# --- the lobby ---------------------------------------------------------------------


async def newgame(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, chat = sender(update)
    lang = await language_for(app, update)
    args = context.args or []
    if not args:
        if await app.services.snapshots.snapshot_in(chat.id, thread_of(update)) is not None:
            raise ServiceError("error.table_exists")
        rows = [
            [button(t(lang, spec.name_key), cd.NewGameButton(user.id, spec.key))]
            for spec in app.games.values()
        ]
        text = t(lang, "newgame.choose", name=html.escape(user.first_name))
        app.publisher.offer_games(chat.id, text, markup(rows), thread_id=thread_of(update))
        return
    game, preset = common.game_and_preset(lang, app.games, args)
    await app.services.lobby.create(chat.id, thread_of(update), person(user), game, preset)


async def join(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, _ = sender(update)
    snapshot = await _open_table(app, update)
    await app.services.lobby.join(snapshot.table.id, person(user))


async def leave(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, _ = sender(update)
    snapshot = await _open_table(app, update)
    after = await app.services.lobby.leave(snapshot.table.id, person(user))
    # The lobby may be far up the chat: the command is answered where it was
    # given (one message of the group's budget, as any reply).
    lang = await language_for(app, update)
    if after.table.status is Status.CANCELLED:
        await reply(app, update, common.closed_text(lang, after.table))
    else:
        await reply(app, update, common.left_text(lang, after.table, html.escape(user.first_name)))


async def startgame(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, _ = sender(update)
    snapshot = await _open_table(app, update)
    if snapshot.table.status is Status.PLAYING:
        # A running game may have a move made on the table, e.g. 101's next round.
        await app.services.tables.table_move(snapshot.table.id, user.id)
        return
    admin = await admin_unless_creator(update, context, snapshot)
    await app.services.lobby.start(snapshot.table.id, person(user), is_admin=admin)


async def salt(update: Update, context: KolodaContext) -> None:
    """``/salt word``: a seated player's word, mixed into the deal's seed; the
    lobby's count of contributions answers."""
    app = context.koloda
    user, _ = sender(update)
    snapshot = await _open_table(app, update)
    await app.services.lobby.salt(snapshot.table.id, person(user), " ".join(context.args or []))


async def cancel(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, _ = sender(update)
    snapshot = await _open_table(app, update)
    admin = await admin_unless_creator(update, context, snapshot)
    after = await app.services.moderation.cancel(snapshot.table.id, person(user), is_admin=admin)
    # Answered here: the table's own message, edited, may be far up the chat.
    await reply(app, update, common.closed_text(await language_for(app, update), after.table))


async def kick(update: Update, context: KolodaContext) -> None:
    """``/kick Вера`` (a seated player's first name or @username) or ``/kick``
    in reply to a player's message: remove him from the table."""
    app = context.koloda
    user, _ = sender(update)
    lang = await language_for(app, update)
    snapshot = await _open_table(app, update)
    target_id, target_name = _kicked(lang, update, snapshot, " ".join(context.args or []))
    admin = await admin_unless_creator(update, context, snapshot)
    after = await app.services.moderation.kick(
        snapshot.table.id, target_id, person(user), is_admin=admin
    )
    if not after.started:
        what = "lobby"
    elif after.table.status is Status.PLAYING:
        what = "goes_on"
    else:
        what = "over"
    names = {"admin": html.escape(user.first_name), "name": html.escape(target_name)}
    app.publisher.say(
        after.table.chat_id, t(lang, f"kick.group.{what}", **names), thread_id=thread_of(update)
    )
    # His DM, if he ever opened the bot (a failed send is simply not delivered).
    own = normalize(await app.services.directory.user_language(target_id))
    chat = html.escape(await app.services.directory.chat_title(after.table.chat_id))
    text = t(own, f"kick.dm.{'lobby' if what == 'lobby' else 'game'}", chat=chat, **names)
    await app.publisher.io.send(target_id, text)


def _kicked(lang: str, update: Update, snapshot: Snapshot, name: str) -> tuple[int, str]:
    """Whom ``/kick`` names: the seated person ``name`` names, else the
    author of the message it answers; refused with who sits at the table
    when that is nobody, or several people."""
    players = common.seated_people(snapshot.table)
    if name:
        found = seated_named(snapshot.table, name)
        if len(found) == 1 and found[0].user_id is not None:
            return found[0].user_id, found[0].first_name or name
        key = "error.kick_ambiguous" if found else "error.kick_unknown"
        raise ServiceError(key, name=html.escape(name), players=players)
    message = update.effective_message
    replied = None if message is None else message.reply_to_message
    if replied is None or replied.from_user is None:
        raise ServiceError("error.kick_usage", players=players)
    return replied.from_user.id, replied.from_user.first_name


async def table_command(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    app.publisher.repost(await _open_table(app, update))


async def sheet(update: Update, context: KolodaContext) -> None:
    """The score sheet of the game being played here, for games that keep one;
    a game that keeps none says so, and names the games that do."""
    app = context.koloda
    snapshot = await _open_table(app, update)
    lang = await language_for(app, update)
    screens = app.screens[snapshot.table.game]
    if not isinstance(screens, SheetScreens):
        keeping = [
            t(lang, spec.name_key)
            for spec in app.games.values()
            if isinstance(app.screens[spec.key], SheetScreens)
        ]
        game = t(lang, snapshot.spec.name_key)
        raise ServiceError("error.no_sheet_in_game", game=game, games=", ".join(keeping))
    screen = None
    if snapshot.started:
        names = common.names_of(lang, snapshot.table)
        screen = screens.sheet(lang, snapshot.public, names)
    if screen is None:
        raise ServiceError("error.no_sheet_yet")
    _, chat = sender(update)
    app.publisher.say(chat.id, screen.text, thread_id=thread_of(update), picture=screen.picture)


async def verify(update: Update, context: KolodaContext) -> None:
    """``/verify [table]``: prove that a finished game's deal was not rigged;
    in a group the chat's last game (or its table), in a DM the person's last
    game (or any finished table, as the result's "/verify N" names it)."""
    app = context.koloda
    user, chat = sender(update)
    lang = await language_for(app, update)
    in_chat = None if chat.type == Chat.PRIVATE else chat.id
    table_id = _table_number(context.args)
    verdict = await app.services.fairness.verify(in_chat, table_id, user_id=user.id)
    await reply(app, update, common.verdict_text(lang, verdict))


def _table_number(args: list[str] | None, usage: str = "fair.usage") -> int | None:
    """The table a command names (``12`` or ``#12``), None when it names none;
    ``usage`` is the refusal of anything else."""
    if not args:
        return None
    text = args[0].removeprefix("#").removeprefix("№")
    if len(args) > 1 or not text.isdecimal() or not text.isascii() or len(text) > 18:
        raise ServiceError(usage)
    return int(text)


async def replay(update: Update, context: KolodaContext) -> None:
    """``/replay [table] [move]``: a finished game move by move, every hand
    face up, from the deal or the move named; in a group the chat's last game
    (or its table), in a DM the person's last game (or any finished table)."""
    app = context.koloda
    user, chat = sender(update)
    lang = await language_for(app, update)
    args = context.args or []
    table_id = _table_number(args[:1], "replay.usage")
    at = _table_number(args[1:], "replay.usage") or 0  # a move: "/replay 12 44"
    if len(args) > 2:
        raise ServiceError("replay.usage")
    in_chat = None if chat.type == Chat.PRIVATE else chat.id
    history = await app.services.replays.find(in_chat, user.id, table_id, at)
    await _send_replay(app, update, history, lang, at)


async def _send_replay(
    app: Koloda, update: Update, history: History, lang: str, at: int = 0
) -> None:
    """A replay's frame after ``at`` moves (0: the deal), to be stepped by its asker."""
    user, _ = sender(update)
    text, keys = replay_message(lang, history, app.screens[history.table.game], at, user.id)
    await reply(app, update, text, keys)


async def analysis(update: Update, context: KolodaContext) -> None:
    """``/analysis [table]``: an analysis of one's play in a finished game (by
    default one's last), sent to one's DM; whoever never opened the bot gets
    a button that opens it and asks again."""
    app = context.koloda
    user, _ = sender(update)
    lang = await language_for(app, update)
    wanted = _table_number(context.args, "analysis.usage")
    asked = await ask_for_analysis(app, user, wanted)
    if asked.queued:
        await reply(app, update, t(lang, "analysis.queued", id=asked.table_id))
        return
    link = app.publisher.deep_link(analysis_payload(asked.table_id))
    keys = markup([[url_button(t(lang, "common.open_bot"), link)]])
    await reply(app, update, t(lang, "analysis.open_dm"), keys)


@dataclass(frozen=True, slots=True)
class Asked:
    """An analysis asked for: of which table, and whether it is on its way
    (False: the asker's DM is closed, nothing was queued)."""

    table_id: int
    queued: bool


def analysis_payload(table_id: int) -> str:
    """The deep link's ``/start`` payload that asks for this table's analysis."""
    return f"a{table_id}"


async def ask_for_analysis(app: Koloda, user: User, table_id: int | None) -> Asked:
    """Have ``user``'s play at ``table_id`` (None: his last finished game)
    analysed for his DM, once the request is found in order; not when his DM
    is closed (he is to open the bot by :func:`analysis_payload`'s link)."""
    table = await app.services.analyses.table_for(user.id, table_id)
    if not await app.services.directory.dm_ok(user.id):
        return Asked(table.id, queued=False)
    lang = await presser_language(app, user)
    app.services.analyses.reserve(table.id, user.id)
    app.publisher.analyse(table.id, user.id, lang)
    return Asked(table.id, queued=True)


# --- scores, rules, language ---------------------------------------------------------


async def scores(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    _, chat = sender(update)
    lang = await language_for(app, update)
    board = await app.services.scores.leaderboard(chat.id)
    await reply(app, update, common.scores_text(lang, board, app.games, app.screens))


async def rules(update: Update, context: KolodaContext) -> None:
    """``/rules дурак переводной`` (any name ``/newgame`` takes): that game and
    variant; ``/rules`` alone: the table this chat is playing, else the one it
    played last, with its options."""
    app = context.koloda
    _, chat = sender(update)
    lang = await language_for(app, update)
    args = context.args or []
    table = None
    if chat.type != Chat.PRIVATE:
        table = await app.services.snapshots.last_played_in(chat.id, thread_of(update))
    if not args:
        if table is None:
            example = f"{t(lang, 'game.durak').lower()} {t(lang, 'preset.durak.perevodnoy')}"
            words = common.game_words(lang, app.games.values())
            raise ServiceError("error.rules_usage", games=words, example=example)
        spec = table.spec
        text = common.rules_text(lang, spec, app.screens[spec.key], table.rules, table.table)
        await reply(app, update, text)
        return
    game, preset = common.game_and_preset(lang, app.games, args)
    spec = app.games[game]
    chosen = None if preset is None else spec.preset(preset)
    shown = None
    if table is not None and table.table.game == game and chosen in (None, table.rules):
        chosen, shown = table.rules, table.table  # what this chat's table plays
    await reply(app, update, common.rules_text(lang, spec, app.screens[game], chosen, shown))


async def language(update: Update, context: KolodaContext) -> None:
    """``/language en`` switches; ``/language`` alone offers the languages as buttons."""
    app = context.koloda
    lang = await language_for(app, update)
    args = context.args or []
    if len(args) > 1 or (args and args[0].lower() not in LANGUAGES):
        raise ServiceError("error.language_usage", languages=", ".join(LANGUAGES))
    _, chat = sender(update)
    if chat.type != Chat.PRIVATE and not await is_admin(update, context):
        # No buttons that would only refuse him: what he may do instead.
        link = f"https://t.me/{app.publisher.bot_username}"
        text = t(lang, "language.group_admins_only", language=t(lang, "language.in_text"))
        await reply(app, update, text, markup([[url_button(t(lang, "common.open_bot"), link)]]))
        return
    if not args:
        rows = [[button(t(code, "language.name"), cd.LanguageButton(code))] for code in LANGUAGES]
        await reply(app, update, t(lang, "language.choose"), markup(rows))
        return
    chosen = args[0].lower()
    await set_language(app, update, context, chosen)
    await reply(app, update, t(chosen, "language.set", language=t(chosen, "language.in_text")))


async def set_language(app: Koloda, update: Update, context: KolodaContext, language: str) -> None:
    """The chat's language (a group's is for its admins to change)."""
    user, chat = sender(update)
    if chat.type != Chat.PRIVATE and not await is_admin(update, context):
        current = await language_for(app, update)
        raise ServiceError("language.group_admins_only", language=t(current, "language.in_text"))
    await app.services.directory.set_language(chat_info(chat), user.id, language)
    if chat.type != Chat.PRIVATE:
        await app.publisher.chat_settings_changed(chat.id)


async def pictures(update: Update, context: KolodaContext) -> None:
    """``/pictures off`` sends pictures' text alone (a score sheet as text),
    ``/pictures on`` shows them again; the group's admins decide."""
    app = context.koloda
    lang = await language_for(app, update)
    _, chat = sender(update)
    args = [a.lower() for a in context.args or []]
    if args not in (["on"], ["off"]):
        shown = await app.services.directory.chat_pictures(chat.id)
        state = t(lang, "pictures.state_on" if shown else "pictures.state_off")
        await reply(app, update, state + "\n" + t(lang, "pictures.usage"))
        return
    if not await is_admin(update, context):
        raise ServiceError("error.admins_only")
    on = args == ["on"]
    await app.services.directory.set_chat_pictures(chat.id, on)
    await reply(app, update, t(lang, "pictures.state_on" if on else "pictures.state_off"))
    await app.publisher.chat_settings_changed(chat.id)


async def plain_text(update: Update, context: KolodaContext) -> None:
    """Words in a private chat: say what the bot understands."""
    app = context.koloda
    await reply(app, update, t(await language_for(app, update), "hint.commands"))


async def unknown(update: Update, context: KolodaContext) -> None:
    """A command this bot does not have, in a private chat (in groups it may
    be another bot's, so it is left alone)."""
    app = context.koloda
    await reply(app, update, t(await language_for(app, update), "error.unknown_command"))


COMMANDS: dict[str, Handler] = {
    "start": _recorded(start),
    "help": _recorded(help_command),
    "newgame": _recorded(_group_only(newgame)),
    "join": _recorded(_group_only(join)),
    "leave": _recorded(_group_only(leave)),
    "startgame": _recorded(_group_only(startgame)),
    "salt": _recorded(_group_only(salt)),
    "cancel": _recorded(_group_only(cancel)),
    "kick": _recorded(_group_only(kick)),
    "table": _recorded(_group_only(table_command)),
    "sheet": _recorded(_group_only(sheet)),
    "verify": _recorded(verify),
    "replay": _recorded(replay),
    "analysis": _recorded(analysis),
    "scores": _recorded(_group_only(scores)),
    "rating": _recorded(_group_only(ratings.rating)),
    "top": _recorded(ratings.top),
    "stats": _recorded(ratings.stats),
    "rules": _recorded(rules),
    "language": _recorded(language),
    "pictures": _recorded(_group_only(pictures)),
}
"""Every command, in the order ``setMyCommands`` lists them (all but /start
in groups)."""

PRIVATE_COMMANDS = (
    "start",
    "help",
    "replay",
    "verify",
    "top",
    "stats",
    "analysis",
    "rules",
    "language",
)
"""The commands a private chat lists."""

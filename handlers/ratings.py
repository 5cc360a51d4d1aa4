"""The rating commands: ``/rating [game]`` (the chat's season), ``/top
[game]`` (across chats) and ``/stats`` (a person's figures, ratings and
achievements, with his rating history drawn)."""

from __future__ import annotations

from telegram import Chat, Update

from delivery.composed import Composed
from handlers.context import Koloda, KolodaContext, language_for, sender, thread_of
from screens import common, ratings
from screens.base import Picture
from services.ratings import family_of

__all__ = ["rating", "stats", "top"]


def _family(app: Koloda, lang: str, words: list[str]) -> str | None:
    """The game (``durak``) or family (``durak/perevodnoy``) the words name;
    None for none."""
    if not words:
        return None
    game, preset = common.game_and_preset(lang, app.games, words)
    if preset is None:
        return game
    spec = app.games[game]
    return family_of(spec, spec.preset(preset))


async def _answer(app: Koloda, update: Update, text: str, picture: Picture | None = None) -> None:
    _, chat = sender(update)
    if picture is not None and not await app.services.directory.chat_pictures(chat.id):
        picture = None
    if chat.type == Chat.PRIVATE:
        await app.publisher.io.show(chat.id, Composed(text, None, picture))
    else:
        app.publisher.say(chat.id, text, thread_id=thread_of(update), picture=picture)


async def rating(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, chat = sender(update)
    lang = await language_for(app, update)
    family = _family(app, lang, context.args or [])
    boards = await app.services.ratings.standings(chat.id, family, user.id)
    season = app.services.ratings.season()
    await _answer(app, update, ratings.standings_text(lang, boards, app.games, season=season))


async def top(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, _ = sender(update)
    lang = await language_for(app, update)
    boards = await app.services.ratings.top(_family(app, lang, context.args or []), user.id)
    await _answer(app, update, ratings.standings_text(lang, boards, app.games, season=None))


async def stats(update: Update, context: KolodaContext) -> None:
    app = context.koloda
    user, chat = sender(update)
    lang = await language_for(app, update)
    in_chat = None if chat.type == Chat.PRIVATE else chat.id
    rows = await app.services.scores.stats(user.id, in_chat)
    card = await app.services.ratings.card(user.id, in_chat)
    lines = [common.stats_text(lang, user.first_name, rows, app.games)]
    lines += ratings.card_lines(lang, card, app.games)
    await _answer(app, update, "\n".join(lines), ratings.history_picture(lang, card, app.games))

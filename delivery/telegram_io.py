"""Sending, editing and deleting messages the way Telegram really behaves.

Every call returns a :class:`Sent` saying what happened, never raises for
Telegram's answers: "message is not modified" is success; a message or chat
that is gone, a user who never started (or blocked) the bot, a group that
became a supergroup, a flood wait and a network failure each come back as
their own :class:`Delivery` for the caller to act on — this module records
nothing itself but the last message it sent to each private chat.

Ephemeral messages (Bot API 10.2: a message in a group that one member alone
sees, see ``docs/ephemeral.md``) are sent and edited here too, through PTB's
raw request path, as PTB 22.8 stops at Bot API 10.0; their ids are the
``ephemeral_message_id`` Telegram gives, a numbering of their own.
"""

from __future__ import annotations

import asyncio
import enum
import functools
import itertools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import Bot, ChatMember, InputMediaPhoto, LinkPreviewOptions, Message
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from delivery.composed import Composed
from delivery.keyboards import Keyboard, markup_json, ptb_markup
from delivery.orphans import MAX_PROBES, Orphans, Sweep
from services import Background, Clock

__all__ = ["MAX_CAPTION", "MAX_TEXT", "Delivery", "Sent", "TelegramIO", "clip"]

log = logging.getLogger(__name__)
NO_PREVIEW = LinkPreviewOptions(is_disabled=True).to_json()
"""As JSON text, which PTB passes on as it is (its objects it serialises on every call)."""
MAX_TEXT = 4096
MAX_CAPTION = 1024
NEWEST_KEPT = 50_000
"""Private chats whose last message is remembered, at most."""
ANSWER_PAUSES = (0.1, 0.3, 1.0)
"""Pauses between attempts to answer a press: a press is answered within
seconds or it looks broken."""
MAX_ANSWER_WAIT = 3.0
"""The longest flood wait an answer waits out."""
RESWEEP_PAUSES = (1.0, 5.0, 30.0, 120.0)
"""Pauses before finishing a sweep that was cut short (the last one repeats)."""
_GONE = (
    "not enough rights",
    "message to edit not found",
    "message to delete not found",
    "message can't be edited",
    "message can't be deleted",
    "chat not found",
    "there is no text in the message to edit",
    "there is no caption in the message to edit",
    "there is no media in the message to edit",
    "message_id_invalid",
    "query is too old",  # an ephemeral message's press too old to answer with one
)


class _Probe(enum.Enum):
    OURS = "ours"
    NOT_OURS = "not ours"
    NOTHING = "nothing"
    UNKNOWN = "unknown"
    UNREACHABLE = "unreachable"
    """The chat is out of reach (the bot was blocked or removed): nothing to do."""


class Delivery(enum.Enum):
    OK = "ok"
    GONE = "gone"
    """The message (or the chat) is not there any more, or cannot take this edit."""
    FORBIDDEN = "forbidden"
    """The user has not started the bot or has blocked it; the bot left the group."""
    MIGRATED = "migrated"
    """The group became a supergroup: the same call belongs at ``migrated_to``."""
    RETRY = "retry"
    """A flood wait, a server error or the network: worth trying again later."""
    FAILED = "failed"
    """Refused for good (a bug of ours): trying again would fail again."""


@dataclass(frozen=True, slots=True)
class Sent:
    delivery: Delivery
    message_id: int | None = None
    retry_after: float | None = None
    """A flood wait's length, when Telegram said it."""
    migrated_to: int | None = None
    unsure: bool = False
    """No answer came (the network, a timeout, a 5xx): the call may have been
    applied all the same."""

    @property
    def ok(self) -> bool:
        return self.delivery is Delivery.OK


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """At most ``limit`` characters, cut at a line boundary so that no HTML tag
    is split, with a mark that something was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 2].rsplit("\n", 1)[0] + "\n…"


class TelegramIO:
    def __init__(
        self, bot: Bot, clock: Clock, background: Background, *, shared_dms: bool = False
    ) -> None:
        """``shared_dms``: other processes send to the same private chats (one
        of several workers): copies are looked for in groups only, where the
        worker holding the group alone sends."""
        self.bot = bot
        self._clock = clock
        self._background = background
        self._shared_dms = shared_dms
        self._abandoned: dict[int, int] = {}
        """Per chat, how often it was handed to another process: a sweep
        begun before stops."""
        self._orphans = Orphans()
        self._sweeping: dict[int, asyncio.Event] = {}
        self._resweeps: set[int] = set()
        self._newest: dict[int, int] = {}

    def newest(self, chat_id: int) -> int | None:
        """The last message this process sent to a private chat (None: not
        known)."""
        return self._newest.get(chat_id)

    async def show(
        self, chat_id: int, composed: Composed, *, thread_id: int = 0, notify: bool = True
    ) -> Sent:
        """Send what ``composed`` shows: a text, or a photo with its caption (the
        picture drawn off the event loop)."""
        if composed.picture is None:
            return await self.send(
                chat_id, composed.text, composed.markup, thread_id=thread_id, notify=notify
            )
        photo = await asyncio.to_thread(composed.picture.draw)
        return await self.send_photo(
            chat_id, photo, composed.text, composed.markup, thread_id=thread_id, notify=notify
        )

    async def reshow(self, chat_id: int, message_id: int, composed: Composed) -> Sent:
        """Edit a message to show ``composed`` (of the same kind: text or photo)."""
        if composed.picture is None:
            return await self.edit_text(chat_id, message_id, composed.text, composed.markup)
        photo = await asyncio.to_thread(composed.picture.draw)
        return await self.edit_photo(chat_id, message_id, photo, composed.text, composed.markup)

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        thread_id: int = 0,
        notify: bool = True,
    ) -> Sent:
        return await self._send(
            "sendMessage",
            chat_id,
            lambda: self._raw(
                "sendMessage",
                chat_id=chat_id,
                text=clip(text),
                parse_mode="HTML",
                reply_markup=markup,
                message_thread_id=thread_id or None,
                link_preview_options=NO_PREVIEW,
                disable_notification=not notify,
            ),
        )

    async def send_photo(
        self,
        chat_id: int,
        photo: bytes,
        caption: str,
        markup: Keyboard | None = None,
        *,
        thread_id: int = 0,
        notify: bool = True,
    ) -> Sent:
        return await self._send(
            "sendPhoto",
            chat_id,
            lambda: self.bot.send_photo(
                chat_id,
                photo,
                caption=clip(caption, MAX_CAPTION),
                parse_mode="HTML",
                reply_markup=ptb_markup(markup),
                message_thread_id=thread_id or None,
                disable_notification=not notify,
            ),
        )

    async def edit_text(
        self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None
    ) -> Sent:
        return await self._call(
            "editMessageText",
            chat_id,
            lambda: self._raw(
                "editMessageText",
                chat_id=chat_id,
                message_id=message_id,
                text=clip(text),
                parse_mode="HTML",
                reply_markup=markup,
                link_preview_options=NO_PREVIEW,
            ),
            message_id,
        )

    async def edit_photo(
        self,
        chat_id: int,
        message_id: int,
        photo: bytes,
        caption: str,
        markup: Keyboard | None = None,
    ) -> Sent:
        media = InputMediaPhoto(photo, caption=clip(caption, MAX_CAPTION), parse_mode="HTML")
        return await self._call(
            "editMessageMedia",
            chat_id,
            lambda: self.bot.edit_message_media(
                media, chat_id=chat_id, message_id=message_id, reply_markup=ptb_markup(markup)
            ),
            message_id,
        )

    async def edit_caption(
        self,
        chat_id: int,
        message_id: int,
        caption: str,
        markup: Keyboard | None = None,
    ) -> Sent:
        return await self._call(
            "editMessageCaption",
            chat_id,
            lambda: self.bot.edit_message_caption(
                chat_id=chat_id,
                message_id=message_id,
                caption=clip(caption, MAX_CAPTION),
                parse_mode="HTML",
                reply_markup=ptb_markup(markup),
            ),
            message_id,
        )

    async def show_ephemeral(
        self,
        chat_id: int,
        receiver: int,
        composed: Composed,
        *,
        query_id: str | None = None,
        thread_id: int = 0,
        notify: bool = True,
    ) -> Sent:
        """Send ``composed`` to one member of a group, seen by him alone (its
        text: what goes this way, a hand, has no picture).  ``query_id`` is the
        press it answers: a bot that is no administrator may send one only so,
        within seconds of the press.  The answer's ``message_id`` is the
        ephemeral message's id."""
        parameters: dict[str, Any] = {"receiver_user_id": receiver}
        if query_id is not None:
            parameters["callback_query_id"] = query_id
        return await self._call(
            "sendMessage",
            chat_id,
            lambda: self._ephemeral_sent(
                self._raw(
                    "sendMessage",
                    chat_id=chat_id,
                    text=clip(composed.text),
                    parse_mode="HTML",
                    reply_markup=composed.markup,
                    message_thread_id=thread_id or None,
                    link_preview_options=NO_PREVIEW,
                    disable_notification=not notify,
                    ephemeral_message_parameters=json.dumps(parameters),
                )
            ),
            sweep=False,  # no orphan sweep: an ephemeral message cannot be probed
        )

    async def reshow_ephemeral(
        self, chat_id: int, receiver: int, ephemeral_id: int, composed: Composed
    ) -> Sent:
        """Edit an ephemeral message to show ``composed``'s text and keys."""
        return await self._call(
            "editEphemeralMessageText",
            chat_id,
            lambda: self._raw(
                "editEphemeralMessageText",
                chat_id=chat_id,
                receiver_user_id=receiver,
                ephemeral_message_id=ephemeral_id,
                text=clip(composed.text),
                parse_mode="HTML",
                reply_markup=composed.markup,
                link_preview_options=NO_PREVIEW,
            ),
            ephemeral_id,
            sweep=False,
        )

    async def delete_ephemeral(self, chat_id: int, receiver: int, ephemeral_id: int) -> Sent:
        return await self._call(
            "deleteEphemeralMessage",
            chat_id,
            lambda: self._raw(
                "deleteEphemeralMessage",
                chat_id=chat_id,
                receiver_user_id=receiver,
                ephemeral_message_id=ephemeral_id,
            ),
            ephemeral_id,
            sweep=False,
        )

    @staticmethod
    async def _ephemeral_sent(call: Awaitable[Any]) -> Any:
        """The sent ephemeral message with its ``ephemeral_message_id`` as the
        id the caller records (its ``message_id`` is no message of the chat's)."""
        result = await call
        if isinstance(result, dict) and isinstance(result.get("ephemeral_message_id"), int):
            return {**result, "message_id": result["ephemeral_message_id"]}
        return result

    async def answer(
        self, query_id: str, text: str | None = None, *, alert: bool = False, url: str | None = None
    ) -> None:
        """Answer a press, trying again for a few seconds when Telegram fails:
        an unanswered press leaves the button spinning."""
        for pause in (*ANSWER_PAUSES, None):
            try:
                await self.bot.answer_callback_query(query_id, text, show_alert=alert, url=url)
                return
            except RetryAfter as exc:
                wait = exc.retry_after
                seconds = wait if isinstance(wait, int | float) else wait.total_seconds()
                if pause is None or seconds > MAX_ANSWER_WAIT:
                    log.warning("answerCallbackQuery: flood wait of %s s, not answered", seconds)
                    return
            except BadRequest as exc:  # too old, or answered already by a lost attempt
                log.info("answerCallbackQuery refused: %s", exc.message)
                return
            except NetworkError as exc:
                if pause is None:
                    log.warning("answerCallbackQuery failed: %s", exc)
                    return
                seconds = pause
            except TelegramError as exc:
                log.warning("answerCallbackQuery failed: %s", exc)
                return
            await self._background.wait(self._clock.sleep(seconds))

    async def pin(self, chat_id: int, message_id: int) -> Sent:
        """Pin without a notification (refused where the bot may not pin)."""
        return await self._call(
            "pinChatMessage",
            chat_id,
            lambda: self.bot.pin_chat_message(chat_id, message_id, disable_notification=True),
            message_id,
        )

    async def unpin(self, chat_id: int, message_id: int) -> Sent:
        return await self._call(
            "unpinChatMessage",
            chat_id,
            lambda: self.bot.unpin_chat_message(chat_id, message_id),
            message_id,
        )

    async def delete(self, chat_id: int, message_id: int) -> Sent:
        return await self._call(
            "deleteMessage",
            chat_id,
            lambda: self.bot.delete_message(chat_id, message_id),
            message_id,
        )

    async def remove_buttons(self, chat_id: int, message_id: int) -> Sent:
        return await self._call(
            "editMessageReplyMarkup",
            chat_id,
            lambda: self._raw("editMessageReplyMarkup", chat_id=chat_id, message_id=message_id),
            message_id,
        )

    async def bot_is_admin(self, chat_id: int) -> bool | None:
        """Whether the bot is an administrator of the group, as Telegram says
        now (None: it did not say)."""
        try:
            me = await self.bot.get_chat_member(chat_id, self.bot.id)
        except TelegramError as exc:
            log.info("getChatMember of the bot in chat %s failed: %s", chat_id, exc)
            return None
        return me.status == ChatMember.ADMINISTRATOR

    async def _raw(self, method: str, **params: Any) -> Any:
        """A call whose answer stays JSON (True, or the message as a dict): PTB's
        objects of messages of which nothing is read but the id were a
        measurable share of the bot's CPU per move.  Method names are
        case-insensitive in the Bot API; the lower-case one tells PTB that no
        typed method is wanted (it warns for names it has one for).  A keyboard
        goes as its JSON text, which costs less to make than PTB's way."""
        keyboard = params.get("reply_markup")
        if keyboard is not None:
            params["reply_markup"] = markup_json(keyboard)  # PTB passes text on as it is
        try:
            return await self.bot.do_api_request(method.lower(), api_kwargs=params)
        except EndPointNotFound as exc:
            # Its name, once the bot is up, for a 401 or a 404: a rejected token.
            if isinstance(exc.__cause__, InvalidToken):
                raise exc.__cause__ from None
            raise

    async def _send(self, method: str, chat_id: int, call: Callable[[], Awaitable[Any]]) -> Sent:
        """A call that makes a message: what it made is remembered, and copies
        that lost answers left behind are looked for (see :mod:`delivery.orphans`)."""
        while (sweeping := self._sweeping.get(chat_id)) is not None:
            await sweeping.wait()  # no message may appear while ids are probed
        ticket = self._orphans.begin(chat_id)
        try:
            sent = await self._call(method, chat_id, call, sweep=False)
            if sent.ok and sent.message_id is not None:
                self._orphans.made(chat_id, sent.message_id, ticket)
                if chat_id > 0:
                    if len(self._newest) > NEWEST_KEPT:  # forgotten: "not sure", which is safe
                        self._newest.clear()
                    self._newest[chat_id] = max(sent.message_id, self._newest.get(chat_id, 0))
            elif sent.unsure and not (chat_id > 0 and self._shared_dms):
                self._orphans.doubtful(chat_id, ticket)
        finally:
            self._orphans.end(chat_id)
        await self._sweep_if_due(chat_id)
        return sent

    async def _sweep_if_due(self, chat_id: int) -> None:
        """Look for copies, if a doubtful send left any to look for (after any
        call to the chat: the last send's sweep may have been cut short)."""
        if chat_id in self._sweeping:
            return
        sweep = self._orphans.due(chat_id)
        if sweep is None:
            return
        done = self._sweeping[chat_id] = asyncio.Event()
        try:
            await self._sweep(chat_id, sweep)
        finally:
            del self._sweeping[chat_id]
            done.set()
        if self._orphans.owed(chat_id) and chat_id not in self._resweeps:
            self._resweeps.add(chat_id)
            self._background.spawn(self._resweep(chat_id), f"resweep-{chat_id}")

    async def _resweep(self, chat_id: int) -> None:
        """Finish a sweep that was cut short, with growing pauses, even when
        nothing else is ever sent to the chat."""
        try:
            for pause in itertools.chain(RESWEEP_PAUSES, itertools.repeat(RESWEEP_PAUSES[-1])):
                await self._background.wait(self._clock.sleep(pause))
                if not self._orphans.owed(chat_id):
                    return  # another call's sweep finished it
                await self._sweep_if_due(chat_id)
                if not self._orphans.owed(chat_id):
                    return
        finally:
            self._resweeps.discard(chat_id)

    def hand_over(self, chat_id: int) -> None:
        """Another process sends to the chat from now on: look for no copies
        there (its messages are not this one's to know)."""
        self._orphans.abandon(chat_id)
        self._abandoned[chat_id] = self._abandoned.get(chat_id, 0) + 1
        self._newest.pop(chat_id, None)

    async def _sweep(self, chat_id: int, sweep: Sweep) -> None:
        handed = self._abandoned.get(chat_id, 0)
        for probed, message_id in enumerate(sweep.ids()):
            if self._abandoned.get(chat_id, 0) != handed:
                return
            if probed == MAX_PROBES:  # on with the rest in a while
                self._orphans.cut_short(chat_id, message_id - 1, sweep)
                return
            found = await self._probe(chat_id, message_id)
            if found is _Probe.OURS:
                log.info(
                    "deleting message %s in %s: a send never answered made it", message_id, chat_id
                )
                deleted = await self._call(
                    "deleteMessage",
                    chat_id,
                    functools.partial(self.bot.delete_message, chat_id, message_id),
                    message_id,
                    sweep=False,
                )
                if deleted.delivery is Delivery.RETRY:  # the copy stays to be found again
                    self._orphans.cut_short(chat_id, message_id - 1, sweep)
                    return
                self._orphans.made(chat_id, message_id)  # gone: later sweeps skip its id
            elif found is _Probe.NOTHING and sweep.before is None:
                self._orphans.empty_at(chat_id, message_id, sweep)
                return
            elif found is _Probe.UNKNOWN:
                self._orphans.cut_short(chat_id, message_id - 1, sweep)
                return
            elif found is _Probe.UNREACHABLE:
                return

    async def _probe(self, chat_id: int, message_id: int) -> _Probe:
        """Whose message has this id: an edit of its reply markup tells, as
        Telegram lets a bot edit only its own messages."""
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id)
        except BadRequest as exc:
            text = exc.message.lower()
            if "not modified" in text:
                return _Probe.OURS
            if "not found" in text:
                return _Probe.NOTHING
            if "can't be edited" in text:
                return _Probe.NOT_OURS
            log.warning("probing message %s in %s refused: %s", message_id, chat_id, exc.message)
            return _Probe.UNREACHABLE
        except (Forbidden, ChatMigrated):
            return _Probe.UNREACHABLE
        except TelegramError as exc:
            log.info("probing message %s in %s failed: %s", message_id, chat_id, exc)
            return _Probe.UNKNOWN
        return _Probe.OURS

    async def _call(
        self,
        method: str,
        chat_id: int,
        call: Callable[[], Awaitable[Any]],
        message_id: int | None = None,
        *,
        sweep: bool = True,
    ) -> Sent:
        sent = await self._attempt(method, chat_id, call, message_id)
        if sweep:
            await self._sweep_if_due(chat_id)
        return sent

    async def _attempt(
        self,
        method: str,
        chat_id: int,
        call: Callable[[], Awaitable[Any]],
        message_id: int | None,
    ) -> Sent:
        try:
            result = await call()
        except ChatMigrated as exc:
            log.info("chat %s migrated to %s", chat_id, exc.new_chat_id)
            return Sent(Delivery.MIGRATED, migrated_to=exc.new_chat_id)
        except Forbidden:
            return Sent(Delivery.FORBIDDEN)
        except RetryAfter as exc:
            wait = exc.retry_after
            seconds = wait if isinstance(wait, int | float) else wait.total_seconds()
            log.info("%s to %s: flood wait of %s s", method, chat_id, seconds)
            return Sent(Delivery.RETRY, retry_after=float(seconds))
        except BadRequest as exc:
            text = exc.message.lower()
            if "not modified" in text:
                return Sent(Delivery.OK, message_id)
            if any(reason in text for reason in _GONE):
                return Sent(Delivery.GONE)
            log.error("%s to %s refused: %s", method, chat_id, exc.message)
            return Sent(Delivery.FAILED)
        except InvalidToken as exc:
            # Logged with the error itself: the start-up watch (bot.logs) stops
            # the bot with one line, and keeps this record out of the output.
            log.warning("%s to %s: %s", method, chat_id, exc)
            return Sent(Delivery.FAILED)
        except NetworkError as exc:
            log.warning("%s to %s failed: %s", method, chat_id, exc)
            return Sent(Delivery.RETRY, unsure=True)
        except TelegramError as exc:
            log.warning("%s to %s failed: %s", method, chat_id, exc)
            return Sent(Delivery.RETRY)
        if isinstance(result, Message):
            return Sent(Delivery.OK, result.message_id)
        if isinstance(result, dict) and isinstance(result.get("message_id"), int):
            return Sent(Delivery.OK, result["message_id"])
        return Sent(Delivery.OK, message_id)

"""The Bot API methods the fake implements, as functions of (world, params) -> result.

Each method either returns the ``result`` of a successful answer or raises ``ApiError`` with
Telegram's own error text. getUpdates is not here: long polling needs the server's loop.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from .errors import NOT_MODIFIED, QUERY_TOO_OLD, ApiError, bad_request
from .formatting import parse_html, trim
from .keyboard import Button, is_inline_keyboard, parse_reply_markup
from .models import FakeChat, Photo, SentMessage
from .params import Params, Upload
from .world import DEFAULT_UPDATE_TYPES, MessageRecord, TelegramWorld, member_json

JsonDict = dict[str, Any]
Handler = Callable[["BotApi", Params], Any]

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_ANSWER_LENGTH = 200
DEFAULT_WEBHOOK_CONNECTIONS = 40
MAX_WEBHOOK_CONNECTIONS = 100
_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
_ATTACH = "attach://"
_OTHER_MEDIA = frozenset({"video", "animation", "audio", "document", "live_photo"})
_REGISTRY: dict[str, tuple[str, Handler]] = {}


class Formatted(NamedTuple):
    """A text or caption as Telegram stores it, and as the bot sent it."""

    plain: str  # what the user sees, trimmed
    source: str  # the parameter as sent
    parse_mode: str | None
    entities: list[JsonDict]


def formatted(source: str, parse_mode: str | None, entities: object) -> Formatted:
    """Parse a text or caption (HTML parse_mode, or explicit entities) and trim it."""
    mode = (parse_mode or "").lower()
    if mode in ("", "none"):
        plain, found = source, list(entities) if isinstance(entities, list) else []
    elif mode == "html":
        plain, found = parse_html(source)
    elif mode in ("markdown", "markdownv2"):
        plain, found = source, []  # not parsed: the bot uses HTML
    else:
        raise bad_request("unsupported parse_mode")
    plain, found = trim(plain, found)
    return Formatted(plain, source, parse_mode or None, found)


def method(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _REGISTRY[name.lower()] = (name, handler)
        return handler

    return register


def canonical_name(name: str) -> str | None:
    """The Bot API spelling of a method name given in any case, or None if unknown."""
    if name.lower() == "getupdates":
        return "getUpdates"
    entry = _REGISTRY.get(name.lower())
    return entry[0] if entry else None


class BotApi:
    """Executes one Bot API method against the world."""

    def __init__(self, world: TelegramWorld) -> None:
        self.world = world

    def call(self, name: str, params: Params) -> Any:
        entry = _REGISTRY.get(name.lower())
        if entry is None:
            raise ApiError(404, "Not Found")
        return entry[1](self, params)

    # ----------------------------------------------------------------- shared pieces

    def render(self, p: Params) -> Formatted:
        """text, parse_mode and entities of a text message, with Telegram's checks.

        The plain text is trimmed of surrounding whitespace, as Telegram stores it.
        """
        text = formatted(p.string("text"), p.opt_string("parse_mode"), p.nested("entities"))
        if not text.plain:
            raise bad_request("message text is empty")
        if len(text.plain) > MAX_TEXT_LENGTH:
            raise bad_request("message is too long")
        return text

    def caption(self, p: Params) -> Formatted:
        """caption, parse_mode and caption_entities of sendPhoto or editMessageCaption.

        The length is checked apart (``_check_caption``): Telegram does it after finding the
        chat and the message.
        """
        return formatted(
            p.opt_string("caption") or "", p.opt_string("parse_mode"), p.nested("caption_entities")
        )

    def photo_arg(self, p: Params, value: str | None, part: str | None) -> Upload | str | None:
        """A photo parameter: a file uploaded with the request, or a file_id (a string).

        ``value`` is the string given: "attach://NAME" names a multipart part, anything else
        is a file_id. Without a string the upload is the part named ``part``. None when the
        request carries neither.
        """
        if value and value.startswith(_ATTACH):
            part, value = value.removeprefix(_ATTACH), None
        if value:
            return value
        return p.file(part) if part else None

    def sent_photo(self, file_id: str) -> Photo:
        """The photo the bot sent with this file_id (of any of its sizes)."""
        if file_id.startswith(("http://", "https://")):
            raise bad_request("photo URLs are not supported by the fake server")
        photo = self.world.photo_by_file_id(file_id)
        if photo is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return photo

    def store(self, given: Upload | str) -> Photo:
        """The photo a message will show: an upload is checked and kept under new file_ids."""
        if isinstance(given, Upload):
            return self.world.store_photo(given.data)
        return self.sent_photo(given)

    def markup(self, p: Params) -> tuple[JsonDict | None, list[list[Button]]]:
        raw = p.nested("reply_markup", "reply keyboard markup JSON object")
        inline, buttons = parse_reply_markup(raw)
        if inline is None and isinstance(raw, dict) and not is_inline_keyboard(raw):
            return raw, []
        return inline, buttons

    def inline_markup(self, p: Params) -> tuple[JsonDict | None, list[list[Button]]]:
        """reply_markup of an edit: only an inline keyboard; without one the keyboard goes."""
        markup, buttons = self.markup(p)
        if markup is not None and not buttons:
            raise bad_request("inline keyboard expected")
        return markup, buttons

    def own_message(self, chat: FakeChat, p: Params, *, action: str) -> SentMessage:
        if "inline_message_id" in p:
            raise bad_request("inline messages are not supported by the fake server")
        record = self.world.message(chat.id, p.integer("message_id"))
        if record is None or record.deleted:
            raise bad_request(f"message to {action} not found")
        if record.sent is None:
            raise bad_request(f"message can't be {action}ed")
        return record.sent

    def thread(self, chat: FakeChat, p: Params, replied: MessageRecord | None) -> int | None:
        thread_id = p.opt_integer("message_thread_id")
        if not chat.is_forum:
            return None
        if thread_id is None and replied is not None:
            return replied.thread_id
        if thread_id is not None and thread_id not in chat.topics:
            raise bad_request("message thread not found")
        return thread_id

    def replied(self, chat: FakeChat, p: Params) -> MessageRecord | None:
        reply_to = p.opt_integer("reply_to_message_id")
        allow = p.flag("allow_sending_without_reply")
        parameters = p.nested("reply_parameters")
        if isinstance(parameters, dict):
            reply_to = parameters.get("message_id")
            allow = bool(parameters.get("allow_sending_without_reply"))
            other = parameters.get("chat_id")
            if other is not None and other != chat.id:
                raise bad_request("replies to other chats are not supported by the fake server")
        if not isinstance(reply_to, int):
            return None
        record = self.world.message(chat.id, reply_to)
        if record is None or record.deleted:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        return record

    def chat_for_members(self, p: Params) -> FakeChat:
        return self.world.resolve_chat(p.chat())


# --------------------------------------------------------------------- identity & polling


@method("getMe")
def get_me(api: BotApi, p: Params) -> JsonDict:
    return {
        **api.world.bot.to_api(),
        "can_join_groups": True,
        "can_read_all_group_messages": not api.world.privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


@method("setWebhook")
def set_webhook(api: BotApi, p: Params) -> bool:
    """Recorded; the server posts the updates to it when it delivers webhooks
    (``FakeTelegram(deliver_webhooks=True)``), else a test posts them itself."""
    url = p.string("url")
    if url and not url.startswith(("https://", "http://127.0.0.1")):
        raise bad_request("bad webhook: HTTPS url must be provided for webhook")
    connections = p.opt_integer("max_connections") or DEFAULT_WEBHOOK_CONNECTIONS
    if not 1 <= connections <= MAX_WEBHOOK_CONNECTIONS:
        raise bad_request("bad webhook: max_connections must be between 1 and 100")
    api.world.webhook = {"url": url, "secret_token": p.opt_string("secret_token") or ""}
    api.world.webhook_connections = connections
    set_allowed_updates(api.world, p.nested("allowed_updates", "allowed updates"))
    if p.flag("drop_pending_updates"):
        api.world.drop_pending_updates()
    return True


@method("deleteWebhook")
def delete_webhook(api: BotApi, p: Params) -> bool:
    api.world.webhook = None
    if p.flag("drop_pending_updates"):
        api.world.drop_pending_updates()
    return True


@method("getWebhookInfo")
def get_webhook_info(api: BotApi, p: Params) -> JsonDict:
    pending = len(api.world.pending_updates)
    url = api.world.webhook["url"] if api.world.webhook else ""
    return {"url": url, "has_custom_certificate": False, "pending_update_count": pending}


@method("close")
def close(api: BotApi, p: Params) -> bool:
    return True


@method("logOut")
def log_out(api: BotApi, p: Params) -> bool:
    return True


# --------------------------------------------------------------------- messages


@method("sendMessage")
def send_message(api: BotApi, p: Params) -> JsonDict:
    world = api.world
    chat = world.writable_chat(p.chat())
    ephemeral = p.nested("ephemeral_message_parameters")
    if ephemeral is not None:
        # Imported here: that module registers methods of this one.
        from .ephemeral import send_ephemeral

        return send_ephemeral(api, p, chat, ephemeral)
    plain, source, parse_mode, entities = api.render(p)
    markup, buttons = api.markup(p)
    replied = api.replied(chat, p)
    thread_id = api.thread(chat, p, replied)
    preview = p.nested("link_preview_options")
    preview_off = p.flag("disable_web_page_preview") or (
        isinstance(preview, dict) and bool(preview.get("is_disabled"))
    )
    sent = SentMessage(
        chat_id=chat.id,
        message_id=chat.next_message_id(),
        text=plain,
        html=source,
        parse_mode=parse_mode,
        entities=entities,
        buttons=buttons,
        reply_markup=markup,
        thread_id=thread_id,
        reply_to_message_id=replied.message_id if replied else None,
        date=world.date(),
        sent_at=time.monotonic(),
        disable_notification=p.flag("disable_notification"),
        link_preview_disabled=preview_off,
        history=[plain],
    )
    return world.message_json(world.store_bot_message(sent))


@method("sendPhoto")
def send_photo(api: BotApi, p: Params) -> JsonDict:
    world = api.world
    chat = world.writable_chat(p.chat())
    given = api.photo_arg(p, p.opt_string("photo"), "photo")
    if given is None:
        raise bad_request("there is no photo in the request")
    caption = api.caption(p)
    markup, buttons = api.markup(p)
    replied = api.replied(chat, p)
    thread_id = api.thread(chat, p, replied)
    _check_caption(caption)
    photo = api.store(given)
    sent = SentMessage(
        chat_id=chat.id,
        message_id=chat.next_message_id(),
        text="",
        html="",
        parse_mode=None,
        entities=[],
        buttons=buttons,
        reply_markup=markup,
        thread_id=thread_id,
        reply_to_message_id=replied.message_id if replied else None,
        date=world.date(),
        sent_at=time.monotonic(),
        disable_notification=p.flag("disable_notification"),
        kind="photo",
        photo=photo,
        photo_history=[photo],
        caption_history=[caption.plain],
    )
    _set_caption(sent, caption)
    return world.message_json(world.store_bot_message(sent))


def _check_caption(caption: Formatted) -> None:
    if len(caption.plain) > MAX_CAPTION_LENGTH:
        raise bad_request("message caption is too long")


def _set_caption(sent: SentMessage, caption: Formatted) -> None:
    sent.caption, sent.caption_html = caption.plain, caption.source
    sent.caption_parse_mode, sent.caption_entities = caption.parse_mode, caption.entities


@method("editMessageText")
def edit_message_text(api: BotApi, p: Params) -> JsonDict:
    chat = api.world.resolve_chat(p.chat())
    sent = api.own_message(chat, p, action="edit")
    if sent.kind != "text":
        raise bad_request("there is no text in the message to edit")
    plain, source, parse_mode, entities = api.render(p)
    markup, buttons = api.inline_markup(p)
    # like Telegram: an edit without reply_markup removes the inline keyboard
    if plain == sent.text and entities == sent.entities and buttons == sent.buttons:
        raise bad_request(NOT_MODIFIED)
    sent.text, sent.html, sent.parse_mode, sent.entities = plain, source, parse_mode, entities
    sent.buttons, sent.reply_markup = buttons, markup
    sent.history.append(plain)
    _mark_edited(api, sent)
    return _current_json(api, sent)


@method("editMessageReplyMarkup")
def edit_message_reply_markup(api: BotApi, p: Params) -> JsonDict:
    chat = api.world.resolve_chat(p.chat())
    sent = api.own_message(chat, p, action="edit")
    markup, buttons = api.inline_markup(p)
    if buttons == sent.buttons:
        raise bad_request(NOT_MODIFIED)
    sent.buttons, sent.reply_markup = buttons, markup
    _mark_edited(api, sent)
    return _current_json(api, sent)


@method("editMessageCaption")
def edit_message_caption(api: BotApi, p: Params) -> JsonDict:
    chat = api.world.resolve_chat(p.chat())
    caption = api.caption(p)
    markup, buttons = api.inline_markup(p)
    sent = api.own_message(chat, p, action="edit")
    if sent.kind != "photo":
        raise bad_request("there is no caption in the message to edit")
    _check_caption(caption)
    if _same_caption(sent, caption) and buttons == sent.buttons:
        raise bad_request(NOT_MODIFIED)
    _set_caption(sent, caption)
    sent.caption_history.append(caption.plain)
    sent.buttons, sent.reply_markup = buttons, markup
    _mark_edited(api, sent)
    return _current_json(api, sent)


@method("editMessageMedia")
def edit_message_media(api: BotApi, p: Params) -> JsonDict:
    chat = api.world.resolve_chat(p.chat())
    markup, buttons = api.inline_markup(p)
    given, caption = _input_media(api, p)
    sent = api.own_message(chat, p, action="edit")
    if sent.kind != "photo" or sent.photo is None:
        raise bad_request("there is no media in the message to edit")
    _check_caption(caption)
    # the same file again is no change; a new upload always is (it gets new file_ids)
    same_photo = isinstance(given, str) and api.sent_photo(given) is sent.photo
    if same_photo and _same_caption(sent, caption) and buttons == sent.buttons:
        raise bad_request(NOT_MODIFIED)
    photo = api.store(given)
    sent.photo = photo
    sent.photo_history.append(photo)
    _set_caption(sent, caption)
    sent.caption_history.append(caption.plain)
    sent.buttons, sent.reply_markup = buttons, markup
    _mark_edited(api, sent)
    return _current_json(api, sent)


def _input_media(api: BotApi, p: Params) -> tuple[Upload | str, Formatted]:
    """The photo and caption of editMessageMedia's ``media`` (an InputMediaPhoto)."""
    media = p.raw.get("media")
    if media is None or media == "":
        raise bad_request('parameter "media" is required')
    if isinstance(media, str):
        try:
            media = json.loads(media)
        except ValueError as exc:
            raise bad_request("can't parse input media JSON object") from exc
    if not isinstance(media, dict):
        raise _bad_media("expected an Object")
    fields = {name: media.get(name) for name in ("caption", "parse_mode", "type", "media")}
    for name, value in fields.items():
        if value is not None and not isinstance(value, str):
            raise _bad_media(f'Field "{name}" must be of type String')
    try:
        caption = formatted(
            fields["caption"] or "", fields["parse_mode"], media.get("caption_entities")
        )
    except ApiError as error:  # "Bad Request: can't parse entities: ..."
        reason = error.description.removeprefix("Bad Request: ")
        raise _bad_media(reason[:1].upper() + reason[1:]) from error
    kind = fields["type"]
    if kind is None:
        raise _bad_media('Can\'t find field "type"')
    given = api.photo_arg(p, fields["media"], None)
    if given is None:
        raise _bad_media("media not found")
    if kind in _OTHER_MEDIA:
        raise bad_request(f'media of type "{kind}" is not supported by the fake server')
    if kind != "photo":
        raise _bad_media(f'type "{kind}" is unsupported')
    return given, caption


def _bad_media(reason: str) -> ApiError:
    return bad_request(f"can't parse InputMedia: {reason}")


def _same_caption(sent: SentMessage, caption: Formatted) -> bool:
    return caption.plain == sent.caption and caption.entities == sent.caption_entities


def _mark_edited(api: BotApi, sent: SentMessage) -> None:
    sent.edit_count += 1
    sent.edited_at = time.monotonic()
    sent.edit_date = api.world.date()


def _current_json(api: BotApi, sent: SentMessage) -> JsonDict:
    record = api.world.message(sent.chat_id, sent.message_id)
    assert record is not None
    return api.world.message_json(record)


def _delete(api: BotApi, chat: FakeChat, message_id: int) -> None:
    record = api.world.message(chat.id, message_id)
    if record is None or record.deleted:
        raise bad_request("message to delete not found")
    if record.sent is None and chat.type != "private" and not chat.bot_is_admin:
        raise bad_request("message can't be deleted")
    record.deleted = True
    if record.sent is not None:
        record.sent.deleted = True
        record.sent.deleted_at = time.monotonic()


@method("deleteMessage")
def delete_message(api: BotApi, p: Params) -> bool:
    chat = api.world.resolve_chat(p.chat())
    _delete(api, chat, p.integer("message_id"))
    return True


@method("deleteMessages")
def delete_messages(api: BotApi, p: Params) -> bool:
    chat = api.world.resolve_chat(p.chat())
    ids = p.nested("message_ids")
    if not isinstance(ids, list) or not ids:
        raise bad_request("message_ids is empty")
    deleted = 0
    for message_id in ids:
        try:
            _delete(api, chat, int(message_id))
            deleted += 1
        except ApiError:
            continue
    if not deleted:
        raise bad_request("message to delete not found")
    return True


@method("getFile")
def get_file(api: BotApi, p: Params) -> JsonDict:
    file_id = p.opt_string("file_id")
    if not file_id:
        raise bad_request("file_id not specified")
    stored = api.world.stored_file(file_id)
    if stored is None:
        raise bad_request("invalid file_id")
    return stored.file_json()


@method("sendChatAction")
def send_chat_action(api: BotApi, p: Params) -> bool:
    api.world.writable_chat(p.chat())
    p.string("action")
    return True


def _pin_rights(chat: FakeChat) -> None:
    if chat.type != "private" and not chat.bot_is_admin:
        raise bad_request("not enough rights to manage pinned messages in the chat")


@method("pinChatMessage")
def pin_chat_message(api: BotApi, p: Params) -> bool:
    chat = api.world.resolve_chat(p.chat())
    _pin_rights(chat)
    record = api.world.message(chat.id, p.integer("message_id"))
    if record is None or record.deleted:
        raise bad_request("message to pin not found")
    if record.sent is not None:
        record.sent.pinned = True
    return True


@method("unpinChatMessage")
def unpin_chat_message(api: BotApi, p: Params) -> bool:
    chat = api.world.resolve_chat(p.chat())
    _pin_rights(chat)
    message_id = p.opt_integer("message_id")
    for sent in api.world.bot_messages(chat.id):
        if message_id is None or sent.message_id == message_id:
            sent.pinned = False
    return True


@method("unpinAllChatMessages")
def unpin_all_chat_messages(api: BotApi, p: Params) -> bool:
    chat = api.world.resolve_chat(p.chat())
    _pin_rights(chat)
    for sent in api.world.bot_messages(chat.id):
        sent.pinned = False
    return True


# --------------------------------------------------------------------- callback queries


@method("answerCallbackQuery")
def answer_callback_query(api: BotApi, p: Params) -> bool:
    query = api.world.query(p.string("callback_query_id"))
    if query is None or query.answer is not None:
        raise bad_request(QUERY_TOO_OLD)
    text = p.opt_string("text")
    if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
        raise bad_request("MESSAGE_TOO_LONG")
    query.answer = {
        "text": text,
        "show_alert": p.flag("show_alert"),
        "url": p.opt_string("url"),
        "cache_time": p.opt_integer("cache_time") or 0,
    }
    query.answered_at = time.monotonic()
    return True


# --------------------------------------------------------------------- chats and members


@method("getChat")
def get_chat(api: BotApi, p: Params) -> JsonDict:
    chat = api.chat_for_members(p)
    return {
        **chat.to_api(),
        "accent_color_id": 0,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }


def _status(chat: FakeChat, user_id: int) -> str:
    if chat.type == "private":
        return "member" if user_id == chat.id else "left"
    if user_id == chat.creator_id:
        return "creator"
    if user_id in chat.admin_ids:
        return "administrator"
    return "member" if user_id in chat.member_ids else "left"


@method("getChatMember")
def get_chat_member(api: BotApi, p: Params) -> JsonDict:
    world = api.world
    chat = api.chat_for_members(p)
    user_id = p.integer("user_id")
    if user_id == world.bot.id:
        status = "administrator" if chat.bot_is_admin else "member"
        member = member_json(world.bot, status)
        if chat.bot_is_admin:
            member["can_manage_tags"] = chat.bot_can_manage_tags
        return member
    user = world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    member = member_json(user, _status(chat, user_id))
    if user_id in chat.member_tags:
        member["tag"] = chat.member_tags[user_id]
    return member


_TAG_LIMIT = 16


def _emoji(c: str) -> bool:
    """Symbols and pictographs: what a member tag may not hold."""
    return 0x2600 <= ord(c) <= 0x27BF or ord(c) >= 0x1F000


@method("setChatMemberTag")
def set_chat_member_tag(api: BotApi, p: Params) -> bool:
    """A regular member's tag (Bot API 9.5): the bot must be an administrator
    with ``can_manage_tags``; 0-16 characters, no emoji; empty removes it."""
    world = api.world
    chat = api.chat_for_members(p)
    if chat.type not in ("group", "supergroup"):
        raise bad_request("method is available only for groups and supergroups")
    if not (chat.bot_is_admin and chat.bot_can_manage_tags):
        raise bad_request("not enough rights to manage tags")
    user_id = p.integer("user_id")
    if world.users.get(user_id) is None or _status(chat, user_id) != "member":
        raise bad_request("user is not a regular member of the chat")
    tag = p.opt_string("tag") or ""
    if len(tag) > _TAG_LIMIT or any(_emoji(c) for c in tag):
        raise bad_request("TAG_INVALID")
    if tag:
        chat.member_tags[user_id] = tag
    else:
        chat.member_tags.pop(user_id, None)
    return True


@method("getChatAdministrators")
def get_chat_administrators(api: BotApi, p: Params) -> list[JsonDict]:
    world = api.world
    chat = api.chat_for_members(p)
    if chat.type == "private":
        raise bad_request("there are no administrators in the private chat")
    admins: list[JsonDict] = []
    if chat.creator_id is not None:
        admins.append(member_json(world.user(chat.creator_id), "creator"))
    for user_id in sorted(chat.admin_ids - {chat.creator_id}):
        admins.append(member_json(world.user(user_id), "administrator"))
    if chat.bot_is_admin:
        admins.append(member_json(world.bot, "administrator"))
    return admins


@method("getChatMemberCount")
def get_chat_member_count(api: BotApi, p: Params) -> int:
    chat = api.chat_for_members(p)
    if chat.type == "private":
        return 2
    return len(chat.member_ids | chat.admin_ids) + 1


@method("leaveChat")
def leave_chat(api: BotApi, p: Params) -> bool:
    chat = api.chat_for_members(p)
    if chat.type == "private":
        raise bad_request("chat member status can't be changed in private chats")
    chat.bot_status = "left"
    return True


# --------------------------------------------------------------------- bot settings


def _scope_key(p: Params) -> tuple[str, str]:
    scope = p.nested("scope", "bot command scope") or {"type": "default"}
    if not isinstance(scope, dict) or "type" not in scope:
        raise bad_request("can't parse BotCommandScope JSON object")
    return json.dumps(scope, sort_keys=True), p.opt_string("language_code") or ""


@method("setMyCommands")
def set_my_commands(api: BotApi, p: Params) -> bool:
    commands = p.nested("commands", "commands JSON array")
    if not isinstance(commands, list) or len(commands) > 100:
        raise bad_request("can't parse commands JSON array")
    clean: list[JsonDict] = []
    for item in commands:
        if not isinstance(item, dict):
            raise bad_request("can't parse BotCommand JSON object")
        name, description = item.get("command"), item.get("description")
        if not isinstance(name, str) or not _COMMAND_NAME.fullmatch(name.lower()):
            raise bad_request("BOT_COMMAND_INVALID")
        if not isinstance(description, str) or not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        clean.append({"command": name.lower(), "description": description})
    api.world.commands[_scope_key(p)] = clean
    return True


@method("getMyCommands")
def get_my_commands(api: BotApi, p: Params) -> list[JsonDict]:
    return list(api.world.commands.get(_scope_key(p), []))


@method("deleteMyCommands")
def delete_my_commands(api: BotApi, p: Params) -> bool:
    api.world.commands.pop(_scope_key(p), None)
    return True


def _text_setting(kind: str, limit: int) -> tuple[Handler, Handler]:
    def setter(api: BotApi, p: Params) -> bool:
        value = p.opt_string(kind) or ""
        if len(value) > limit:
            raise bad_request(f"{kind.upper()}_INVALID")
        key = (kind, p.opt_string("language_code") or "")
        if value:
            api.world.bot_texts[key] = value
        else:
            api.world.bot_texts.pop(key, None)
        return True

    def getter(api: BotApi, p: Params) -> JsonDict:
        key = (kind, p.opt_string("language_code") or "")
        fallback = api.world.bot.first_name if kind == "name" else ""
        return {kind: api.world.bot_texts.get(key, api.world.bot_texts.get((kind, ""), fallback))}

    return setter, getter


for _kind, _title, _limit in (
    ("description", "Description", 512),
    ("short_description", "ShortDescription", 120),
    ("name", "Name", 64),
):
    _set, _get = _text_setting(_kind, _limit)
    method(f"setMy{_title}")(_set)
    method(f"getMy{_title}")(_get)


@method("setChatMenuButton")
def set_chat_menu_button(api: BotApi, p: Params) -> bool:
    button = p.nested("menu_button", "menu button JSON object") or {"type": "default"}
    chat_id = p.opt_integer("chat_id")
    if chat_id is not None:
        api.world.resolve_chat(chat_id)
    api.world.menu_buttons[chat_id] = button
    return True


@method("getChatMenuButton")
def get_chat_menu_button(api: BotApi, p: Params) -> JsonDict:
    buttons = api.world.menu_buttons
    button = buttons.get(p.opt_integer("chat_id"), buttons.get(None, {"type": "commands"}))
    return {"type": "commands"} if button.get("type") == "default" else button


def set_allowed_updates(world: TelegramWorld, allowed: object) -> None:
    """getUpdates' allowed_updates: a list replaces the setting, [] restores the default."""
    if allowed is None:
        return
    if not isinstance(allowed, list) or not all(isinstance(kind, str) for kind in allowed):
        raise bad_request("can't parse allowed updates")
    world.allowed_updates = frozenset(allowed) if allowed else DEFAULT_UPDATE_TYPES

"""Ephemeral messages (Bot API 10.2): a message in a group that one member alone sees.

``sendMessage`` with ``ephemeral_message_parameters`` (``receiver_user_id``,
``callback_query_id``, ``replace_callback_query_message``) sends one; it is
edited and deleted with ``editEphemeralMessageText``,
``editEphemeralMessageReplyMarkup`` and ``deleteEphemeralMessage``, which name
it by chat, receiver and ``ephemeral_message_id``.  The rules this stand-in
keeps, as libraries that mirror the Bot API describe them (``docs/ephemeral.md``):

* only in a group, and only to a member of it;
* a bot that is no administrator of the group may send one only in answer to a
  press of that member in that chat less than :data:`ANSWER_SECONDS` old
  (``callback_query_id``); an administrator may send one any time;
* ``replace_callback_query_message`` must be False for a press on an ephemeral
  message (those are edited with the methods above);
* delivery is not guaranteed: to a member in ``world.offline`` it is lost (the
  call succeeds; he never sees it, and it cannot be edited), and a member's app
  may drop what it shows (``world.forget_ephemeral``): ephemeral messages are
  not kept in the chat's history;
* nobody but the receiver sees it: it is kept apart from the chat's messages.
"""

from __future__ import annotations

import time
from typing import Any

from .api import BotApi, method
from .errors import NOT_MODIFIED, QUERY_TOO_OLD, bad_request
from .models import FakeChat, SentMessage
from .params import Params

JsonDict = dict[str, Any]

ANSWER_SECONDS = 15.0
"""How old a press may be for a bot that is no administrator to answer it with
an ephemeral message."""


def send_ephemeral(api: BotApi, p: Params, chat: FakeChat, parameters: object) -> JsonDict:
    """``sendMessage`` with ``ephemeral_message_parameters``."""
    world = api.world
    if not isinstance(parameters, dict) or not isinstance(
        receiver := parameters.get("receiver_user_id"), int
    ):
        raise bad_request("can't parse ephemeral message parameters")
    if chat.type not in ("group", "supergroup"):
        raise bad_request("ephemeral messages can be sent only to groups")
    if receiver not in world.users or receiver not in chat.member_ids:
        raise bad_request("receiver user not found")
    query_id = parameters.get("callback_query_id")
    query = None if query_id is None else world.query(str(query_id))
    if query_id is not None:
        if (
            query is None
            or query.user_id != receiver
            or query.chat_id != chat.id
            or time.monotonic() - query.at > ANSWER_SECONDS
        ):
            raise bad_request(QUERY_TOO_OLD)
        if query.ephemeral and parameters.get("replace_callback_query_message"):
            raise bad_request("replace_callback_query_message must be False for ephemeral messages")
    elif not chat.bot_is_admin:
        raise bad_request("not enough rights to send ephemeral messages without a callback query")
    plain, source, parse_mode, entities = api.render(p)
    markup, buttons = api.markup(p)
    thread_id = api.thread(chat, p, None)
    sent = SentMessage(
        chat_id=chat.id,
        message_id=0,
        text=plain,
        html=source,
        parse_mode=parse_mode,
        entities=entities,
        buttons=buttons,
        reply_markup=markup,
        thread_id=thread_id,
        reply_to_message_id=None,
        date=world.date(),
        sent_at=time.monotonic(),
        disable_notification=p.flag("disable_notification"),
        history=[plain],
        receiver_id=receiver,
    )
    return world.ephemeral_json(world.store_ephemeral(sent))


def _own_ephemeral(api: BotApi, p: Params, *, action: str) -> SentMessage:
    chat = api.world.resolve_chat(p.chat())
    sent = api.world.ephemeral(chat.id, p.integer("ephemeral_message_id"))
    receiver = p.integer("receiver_user_id")
    if sent is None or sent.deleted or sent.lost or sent.receiver_id != receiver:
        raise bad_request(f"message to {action} not found")
    return sent


@method("editEphemeralMessageText")
def edit_ephemeral_message_text(api: BotApi, p: Params) -> bool:
    sent = _own_ephemeral(api, p, action="edit")
    plain, source, parse_mode, entities = api.render(p)
    markup, buttons = api.inline_markup(p)
    if plain == sent.text and entities == sent.entities and buttons == sent.buttons:
        raise bad_request(NOT_MODIFIED)
    sent.text, sent.html, sent.parse_mode, sent.entities = plain, source, parse_mode, entities
    sent.buttons, sent.reply_markup = buttons, markup
    sent.history.append(plain)
    sent.edit_count += 1
    sent.edited_at = time.monotonic()
    return True


@method("editEphemeralMessageReplyMarkup")
def edit_ephemeral_message_reply_markup(api: BotApi, p: Params) -> bool:
    sent = _own_ephemeral(api, p, action="edit")
    markup, buttons = api.inline_markup(p)
    if buttons == sent.buttons:
        raise bad_request(NOT_MODIFIED)
    sent.buttons, sent.reply_markup = buttons, markup
    sent.edit_count += 1
    sent.edited_at = time.monotonic()
    return True


@method("deleteEphemeralMessage")
def delete_ephemeral_message(api: BotApi, p: Params) -> bool:
    sent = _own_ephemeral(api, p, action="delete")
    sent.deleted = True
    sent.deleted_at = time.monotonic()
    return True

"""The simulated world's records: users, chats, messages the bot sent, API calls."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from .keyboard import Button

JsonDict = dict[str, Any]
ChatType = Literal["private", "group", "supergroup"]


@dataclass
class FakeUser:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "ru"
    started: bool = False  # pressed Start in the bot's DM
    blocked: bool = False  # blocked the bot
    is_bot: bool = False

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass
class FakeChat:
    id: int
    type: ChatType
    title: str | None = None
    username: str | None = None
    is_forum: bool = False
    user: FakeUser | None = None  # the other side of a private chat
    creator_id: int | None = None
    admin_ids: set[int] = field(default_factory=set)
    member_ids: set[int] = field(default_factory=set)
    bot_is_admin: bool = False
    bot_status: Literal["member", "left", "kicked"] = "member"
    migrated_to: int | None = None
    topics: dict[int, str] = field(default_factory=dict)  # forum thread id -> name
    last_message_id: int = 0

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "type": self.type}
        if self.user is not None:
            data.update(first_name=self.user.first_name)
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
            return data
        data["title"] = self.title or ""
        if self.username:
            data["username"] = self.username
        if self.is_forum:
            data["is_forum"] = True
        return data

    def next_message_id(self) -> int:
        self.last_message_id += 1
        return self.last_message_id


@dataclass
class SentMessage:
    """A message the bot sent, in its current state (a snapshot: ask the server again later).

    ``text`` is the plain text the user sees; ``html`` the text parameter exactly as the bot
    sent it (with tags when parse_mode was HTML). ``history`` holds every text the message has
    shown, oldest first, the current one last.
    """

    chat_id: int
    message_id: int
    text: str
    html: str
    parse_mode: str | None
    entities: list[JsonDict]
    buttons: list[list[Button]]
    reply_markup: JsonDict | None  # as sent (inline or reply keyboard), None when removed
    thread_id: int | None
    reply_to_message_id: int | None
    date: int
    sent_at: float  # time.monotonic() when the API accepted it
    disable_notification: bool = False
    link_preview_disabled: bool = False
    edit_count: int = 0
    history: list[str] = field(default_factory=list)
    edited_at: float | None = None
    edit_date: int | None = None
    deleted: bool = False
    deleted_at: float | None = None
    pinned: bool = False

    @property
    def rows(self) -> list[list[tuple[str, str]]]:
        """The inline keyboard as rows of (text, callback_data or url)."""
        return [[button.as_pair() for button in row] for row in self.buttons]

    @property
    def button_texts(self) -> list[str]:
        return [button.text for row in self.buttons for button in row]

    @property
    def callback_datas(self) -> list[str]:
        return [b.callback_data for row in self.buttons for b in row if b.callback_data]

    def find_buttons(self, text_contains: str) -> list[Button]:
        """Buttons whose text contains the fragment (case-insensitive); exact matches win."""
        flat = [button for row in self.buttons for button in row]
        exact = [b for b in flat if b.text == text_contains]
        if exact:
            return exact
        needle = text_contains.casefold()
        return [b for b in flat if needle in b.text.casefold()]

    def has_button(self, text_contains: str) -> bool:
        return bool(self.find_buttons(text_contains))

    def button(self, text_contains: str) -> Button:
        """The one button matching the fragment; LookupError lists the buttons otherwise."""
        found = self.find_buttons(text_contains)
        if len(found) != 1:
            what = "no button" if not found else f"{len(found)} buttons"
            raise LookupError(
                f"{what} matching {text_contains!r} in message {self.message_id} of chat "
                f"{self.chat_id}; buttons: {self.button_texts}"
            )
        return found[0]

    def callback_data(self, text_contains: str) -> str:
        """callback_data of the button whose text contains the fragment."""
        button = self.button(text_contains)
        if button.callback_data is None:
            raise LookupError(f"button {button.text!r} has no callback_data (url={button.url!r})")
        return button.callback_data

    def snapshot(self) -> SentMessage:
        return dataclasses.replace(
            self,
            entities=copy.deepcopy(self.entities),
            buttons=[list(row) for row in self.buttons],
            reply_markup=copy.deepcopy(self.reply_markup),
            history=list(self.history),
        )


@dataclass(frozen=True)
class ApiCall:
    """One request the bot made, recorded when the answer was sent."""

    method: str  # canonical spelling, e.g. "sendMessage"; the raw path for unknown methods
    params: JsonDict  # nested JSON decoded
    at: float  # time.monotonic() when the request arrived
    chat_id: int | str | None
    ok: bool
    error_code: int | None = None
    description: str | None = None
    result: Any = None
    duration: float = 0.0


@dataclass
class CallbackQueryRecord:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    at: float
    answer: JsonDict | None = None
    answered_at: float | None = None

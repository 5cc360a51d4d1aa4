"""The simulated world's records: users, chats, messages and photos the bot sent, API calls."""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from .keyboard import Button

JsonDict = dict[str, Any]
ChatType = Literal["private", "group", "supergroup"]
MessageKind = Literal["text", "photo"]


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
    member_tags: dict[int, str] = field(default_factory=dict)  # setChatMemberTag
    bot_can_manage_tags: bool = True
    """With ``bot_is_admin``: the bot has the right to set member tags."""
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


@dataclass(frozen=True)
class StoredFile:
    """One file on the fake's file server: a size of a photo the bot uploaded.

    Every size of a photo serves the bytes the bot uploaded (the fake neither scales nor
    converts to JPEG as Telegram does); ``width`` and ``height`` are the size's own.
    """

    file_id: str
    file_unique_id: str
    file_path: str  # under base_file_url + token, e.g. "photos/file_3.png"
    data: bytes = field(repr=False)
    mime_type: str
    width: int
    height: int

    @property
    def file_size(self) -> int:
        return len(self.data)

    def photo_size_json(self) -> JsonDict:
        """The PhotoSize object of this size."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": self.file_size,
            "width": self.width,
            "height": self.height,
        }

    def file_json(self) -> JsonDict:
        """The File object getFile answers."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": self.file_size,
            "file_path": self.file_path,
        }


@dataclass(frozen=True)
class Photo:
    """A picture the bot uploaded: its bytes, its size, and the PhotoSize list Telegram made.

    Sending or editing by the file_id of any of its sizes shows this same photo again.
    """

    data: bytes = field(repr=False)
    mime_type: str  # "image/png" or "image/jpeg", as uploaded
    width: int
    height: int
    sizes: tuple[StoredFile, ...]  # smallest first; the last one is the picture itself

    @property
    def file_id(self) -> str:
        """file_id of the largest size, the one bots usually keep."""
        return self.sizes[-1].file_id

    @property
    def file_unique_id(self) -> str:
        return self.sizes[-1].file_unique_id

    @property
    def file_ids(self) -> frozenset[str]:
        return frozenset(size.file_id for size in self.sizes)

    def to_api(self) -> list[JsonDict]:
        """Message.photo: the array of PhotoSize."""
        return [size.photo_size_json() for size in self.sizes]


@dataclass
class SentMessage:
    """A message the bot sent, in its current state (a snapshot: ask the server again later).

    ``kind`` is "text" (sendMessage) or "photo" (sendPhoto).

    For texts, ``text`` is the plain text the user sees; ``html`` the text parameter exactly as
    the bot sent it (with tags when parse_mode was HTML). ``history`` holds every text the
    message has shown, oldest first, the current one last.

    For photos, ``text``/``html`` are "" and ``history`` is empty; ``photo`` is the picture
    shown now (``photo_bytes``, ``width``, ``height`` for short), ``caption`` the plain caption
    ("" when none), ``caption_html`` the caption parameter as sent, ``caption_entities`` its
    entities; ``photo_history`` and ``caption_history`` hold every picture and caption shown.
    ``body`` is what the user reads either way: the text or the caption.
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
    kind: MessageKind = "text"
    photo: Photo | None = None
    caption: str = ""
    caption_html: str = ""
    caption_parse_mode: str | None = None
    caption_entities: list[JsonDict] = field(default_factory=list)
    photo_history: list[Photo] = field(default_factory=list)
    caption_history: list[str] = field(default_factory=list)
    receiver_id: int | None = None
    """An ephemeral message's one reader (None: a message of the chat, for all);
    ``message_id`` is then its ``ephemeral_message_id``."""
    lost: bool = False
    """An ephemeral message that never reached its reader (he was offline) or
    that his app has dropped: he does not see it, and it cannot be edited."""

    @property
    def body(self) -> str:
        """What the user reads: the text of a text message, the caption of a photo."""
        return self.caption if self.kind == "photo" else self.text

    @property
    def photo_bytes(self) -> bytes | None:
        return self.photo.data if self.photo is not None else None

    @property
    def width(self) -> int | None:
        return self.photo.width if self.photo is not None else None

    @property
    def height(self) -> int | None:
        return self.photo.height if self.photo is not None else None

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
            caption_entities=copy.deepcopy(self.caption_entities),
            photo_history=list(self.photo_history),
            caption_history=list(self.caption_history),
        )


@dataclass(frozen=True)
class ApiCall:
    """One request the bot made, recorded when the answer was sent."""

    method: str  # canonical spelling, e.g. "sendMessage"; the raw path for unknown methods
    params: JsonDict  # nested JSON decoded
    at: float  # time.monotonic() when the request arrived
    clock_at: float  # the server's ``stamp()`` when it arrived (the bot's clock, if told)
    chat_id: int | str | None
    ok: bool
    error_code: int | None = None
    description: str | None = None
    result: Any = None
    duration: float = 0.0
    fault: str | None = None
    """The storm's fault on this call (``faults.Fault`` value), if any: a "lost"
    call was applied though the bot never heard back, a "dropped" one was not."""


@dataclass(frozen=True)
class WebhookPost:
    """One post of an update to the bot's webhook, recorded when it ended."""

    update_id: int
    at: float  # time.monotonic() when it was sent
    status: int | None
    """The HTTP status answered; None when no answer came (the connection was
    refused or broken, or the post timed out)."""
    error: str | None = None


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
    ephemeral: bool = False
    """Pressed on an ephemeral message (``message_id`` is its ephemeral id)."""

"""reply_markup validation and the test-side view of inline keyboards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import bad_request

JsonDict = dict[str, Any]

MAX_CALLBACK_DATA_BYTES = 64
_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "web_app",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
    "disabled",
)
STYLES = frozenset({"danger", "success", "primary"})
"""InlineKeyboardButton.style (Bot API 10.x): red, green, blue."""
_URL_SCHEMES = ("http://", "https://", "tg://")


@dataclass(frozen=True)
class Button:
    """One inline button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    style: str | None = None
    """"danger", "success" or "primary"; None: the app's own."""
    disabled: bool = False
    """Shown, but does nothing when pressed (``disabled``: a DisabledButton)."""

    @property
    def data(self) -> str:
        """callback_data, or url for link buttons, or "" for other kinds."""
        return self.callback_data if self.callback_data is not None else self.url or ""

    def as_pair(self) -> tuple[str, str]:
        return (self.text, self.data)


def _button(raw: object) -> Button:
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    actions = [name for name in _ACTIONS if raw.get(name) is not None]
    if not actions:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    data = raw.get("callback_data")
    if data is not None and (
        not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES
    ):
        raise bad_request("BUTTON_DATA_INVALID")
    url = raw.get("url")
    if url is not None and (not isinstance(url, str) or not url.startswith(_URL_SCHEMES)):
        raise bad_request(f"inline keyboard button URL '{url}' is invalid: Wrong HTTP URL")
    style = raw.get("style")
    if style is not None and style not in STYLES:
        raise bad_request("BUTTON_STYLE_INVALID")
    disabled = raw.get("disabled")
    if disabled is not None and not isinstance(disabled, dict):
        raise bad_request(
            'can\'t parse inline keyboard button: Field "disabled" must be of type Object'
        )
    return Button(raw["text"], data, url, style, disabled is not None)


def parse_reply_markup(markup: object) -> tuple[JsonDict | None, list[list[Button]]]:
    """Validate reply_markup; return it (for the Message object) and its inline buttons.

    Only inline keyboards are echoed back in a Message, like the real API does; reply
    keyboards, ForceReply and ReplyKeyboardRemove are accepted and not shown.
    """
    if markup is None:
        return None, []
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if any(key in markup for key in ("keyboard", "remove_keyboard", "force_reply")):
            return None, []
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('can\'t parse inline keyboard: field "inline_keyboard" must be an Array')
    buttons = [[_button(raw) for raw in row] for row in rows]
    buttons = [row for row in buttons if row]
    if not buttons:
        return None, []
    return {"inline_keyboard": [[dict(raw) for raw in row] for row in rows if row]}, buttons


def is_inline_keyboard(markup: object) -> bool:
    return isinstance(markup, dict) and "inline_keyboard" in markup

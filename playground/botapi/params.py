"""Typed access to Bot API request parameters.

PTB posts ``application/x-www-form-urlencoded`` bodies (multipart when files are attached) in
which every non-string value is JSON-encoded: ``chat_id=42``, ``show_alert=true``,
``reply_markup={"inline_keyboard": ...}``; strings go raw. Other clients send JSON bodies with
real types or query strings. The getters below accept all of these, like the real server.
Files of a multipart body (parts with a filename) are kept apart, as ``Upload``s.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ApiError, bad_request

JsonDict = dict[str, Any]
ChatRef = int | str  # numeric id or "@username"

# parameters whose values are JSON objects or arrays (JSON-encoded strings in form bodies)
NESTED = frozenset(
    {
        "reply_markup",
        "entities",
        "caption_entities",
        "reply_parameters",
        "link_preview_options",
        "allowed_updates",
        "commands",
        "scope",
        "menu_button",
        "message_ids",
        "media",
    }
)
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", ""}


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request, as the client sent it."""

    filename: str
    content_type: str
    data: bytes

    def __repr__(self) -> str:
        return f"Upload({self.filename!r}, {self.content_type!r}, {len(self.data)} bytes)"


class Params:
    """The parameters of one request, decoded lazily per expected type."""

    def __init__(
        self, raw: Mapping[str, object], files: Mapping[str, Upload] | None = None
    ) -> None:
        self.raw: dict[str, object] = dict(raw)
        self.files: dict[str, Upload] = dict(files or {})

    def __contains__(self, name: str) -> bool:
        return self.raw.get(name) is not None or name in self.files

    def as_json(self) -> JsonDict:
        """Every parameter, nested objects decoded: what ``FakeTelegram.calls`` records.

        An uploaded file shows as ``"<file NAME>"``; its bytes are in ``files``.
        """
        decoded: JsonDict = {}
        for name, value in self.raw.items():
            decoded[name] = value
            if name in NESTED and isinstance(value, str):
                with contextlib.suppress(ValueError):
                    decoded[name] = json.loads(value)
        for name, upload in self.files.items():
            decoded.setdefault(name, f"<file {upload.filename}>")
        return decoded

    def file(self, name: str) -> Upload | None:
        """The file uploaded under this part name, if any."""
        return self.files.get(name)

    def _missing(self, name: str) -> ApiError:
        if name == "text":
            return bad_request("message text is empty")
        return bad_request(f"{name} is empty")

    def opt_integer(self, name: str) -> int | None:
        value = self.raw.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise bad_request(f'field "{name}" must be of type Integer')
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise bad_request(f'field "{name}" must be of type Integer')

    def integer(self, name: str) -> int:
        value = self.opt_integer(name)
        if value is None:
            raise self._missing(name)
        return value

    def opt_string(self, name: str) -> str | None:
        value = self.raw.get(name)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        raise bad_request(f'field "{name}" must be of type String')

    def string(self, name: str) -> str:
        value = self.opt_string(name)
        if value is None or value == "":
            raise self._missing(name)
        return value

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value != 0
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise bad_request(f'field "{name}" must be of type Boolean')

    def nested(self, name: str, what: str = "JSON object") -> Any:
        """A nested object or array, given inline (JSON body) or as a JSON string (forms)."""
        value = self.raw.get(name)
        if isinstance(value, str):
            if not value:
                return None
            try:
                return json.loads(value)
            except ValueError as exc:
                raise bad_request(f"can't parse {what}") from exc
        return value

    def chat(self, name: str = "chat_id") -> ChatRef:
        """A chat reference: an integer id, or "@username" for public chats."""
        value = self.raw.get(name)
        if isinstance(value, str) and value.strip().startswith("@"):
            return value.strip()
        try:
            return self.integer(name)
        except ApiError as exc:
            if value is None or value == "":
                raise
            raise bad_request("chat not found") from exc

    def opt_chat(self, name: str = "chat_id") -> ChatRef | None:
        return None if name not in self else self.chat(name)

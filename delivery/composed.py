"""What a message should show, ready to send, with a digest to tell a change."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from delivery.keyboards import Keyboard, markup_json
from screens.base import Picture

__all__ = ["Composed"]


@dataclass(frozen=True, slots=True)
class Composed:
    text: str
    markup: Keyboard | None = None
    picture: Picture | None = None
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        h = hashlib.blake2b(digest_size=12)
        h.update(self.text.encode())
        h.update(b"\x00" + (self.picture.key.encode() if self.picture else b""))
        if self.markup is not None:
            h.update(b"\x01" + markup_json(self.markup).encode())
        object.__setattr__(self, "digest", h.hexdigest())

    @property
    def kind(self) -> str:
        return "photo" if self.picture is not None else "text"

    @property
    def has_buttons(self) -> bool:
        return self.markup is not None

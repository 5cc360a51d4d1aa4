"""The one error services raise: a translatable refusal shown to the user."""

from __future__ import annotations

__all__ = ["ServiceError"]


class ServiceError(Exception):
    """``key`` is a translation key, ``params`` fill its placeholders."""

    def __init__(self, key: str, **params: str | int) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

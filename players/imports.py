"""Objects named by import path, so that plain data handed to a worker process
can name an engine or a computer without a registry."""

from __future__ import annotations

import importlib
from typing import TypeVar

__all__ = ["address", "resolve"]

T = TypeVar("T")


def address(module: str, name: str) -> str:
    """``"package.module:NAME"``."""
    return f"{module}:{name}"


def resolve(path: str, kind: type[T]) -> T:
    """The object at ``path`` (``"package.module:NAME"``), which must be a ``kind``."""
    module, _, name = path.partition(":")
    if not module or not name:
        raise ValueError(f"not an import path: {path!r}")
    found = getattr(importlib.import_module(module), name)
    if not isinstance(found, kind):
        raise TypeError(f"{path} is a {type(found).__name__}, not a {kind.__name__}")
    return found

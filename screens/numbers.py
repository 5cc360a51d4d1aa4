"""Scores as the sheets write them, in text and in pictures: a real minus sign
(−200), never a hyphen."""

from __future__ import annotations

__all__ = ["number", "signed"]


def number(n: int) -> str:
    """``150``, ``0``, ``−200``."""
    return str(n) if n >= 0 else f"−{-n}"


def signed(n: int) -> str:
    """A change of score: ``+150``, ``0``, ``−200``."""
    return f"+{n}" if n > 0 else number(n)

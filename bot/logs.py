"""Logging set-up that never lets the bot token out.

Bot API URLs contain the token, and a library may put a URL into an exception
message (python-telegram-bot puts the whole token into the message of the
``InvalidToken`` it raises when Telegram rejects it).  Two guards keep it in:

* a filter on every log handler blanks the token in each record, whoever logs it;
* ``sys.stdout`` and ``sys.stderr`` are wrapped so that whatever is written to
  them -- a traceback printed at exit, an "exception ignored" message, a warning
  -- is blanked too.

The secret is the part after the colon (the part before is the bot's public
user id), so it is blanked on its own as well: that covers a token whose colon
got URL-encoded.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO, cast

from telegram.error import InvalidToken

__all__ = [
    "RedactToken",
    "RedactingStream",
    "TokenRejectedWatch",
    "carries_invalid_token",
    "redact",
    "setup_logging",
]

MASK = "<token>"


def secrets_of(token: str) -> tuple[str, ...]:
    """What to blank for a token: the token, then its secret part."""
    _, _, secret = token.partition(":")
    return tuple(s for s in (token, secret) if s)


def redact(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, MASK)
    return text


class RedactToken(logging.Filter):
    def __init__(self, token: str) -> None:
        super().__init__()
        self._secrets = secrets_of(token)

    def _leaks(self, text: str) -> bool:
        return any(secret in text for secret in self._secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._leaks(message):
            record.msg = redact(message, self._secrets)
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if self._leaks(text):
                record.exc_info = None
                record.exc_text = None
                record.msg = f"{record.msg}\n{redact(text, self._secrets)}"
        if record.stack_info and self._leaks(record.stack_info):
            record.stack_info = redact(record.stack_info, self._secrets)
        return True


class RedactingStream:
    """A text stream that blanks the token in everything written through it."""

    def __init__(self, stream: TextIO, token: str) -> None:
        self._stream = stream
        self._secrets = secrets_of(token)

    def write(self, text: str) -> int:
        self._stream.write(redact(text, self._secrets))
        return len(text)

    def writelines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding...
        return getattr(self._stream, name)


class TokenRejectedWatch(logging.Handler):
    """Notices Telegram rejecting the token, whichever part of the bot logs it.

    When the token is revoked while the bot runs, python-telegram-bot's polling
    loop, the update error handler, or a send that failed log an ``InvalidToken``
    (as the record's exception or as one of its arguments); ``on_rejected`` is
    then called so that the bot can stop, and say so in one line.  It sees
    warnings whatever LOG_LEVEL is; the output leaves such records out.
    """

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.rejected = False
        self.on_rejected: Callable[[], None] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if not carries_invalid_token(record):
            return
        self.rejected = True
        if self.on_rejected is not None:
            self.on_rejected()


def carries_invalid_token(record: logging.LogRecord) -> bool:
    """The record is about Telegram rejecting the token (the bot says it in one line)."""
    error = record.exc_info[1] if record.exc_info else None
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, InvalidToken):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    args = record.args
    values = args.values() if isinstance(args, dict) else (args or ())
    return any(isinstance(value, InvalidToken) for value in values)


def guard_streams(token: str) -> None:
    """Blank the token in everything written to stdout and stderr."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, RedactingStream):
            setattr(sys, name, cast(TextIO, RedactingStream(stream, token)))


def setup_logging(level: str, token: str) -> TokenRejectedWatch:
    guard_streams(token)  # first: the log handler keeps the stream it finds
    root = logging.getLogger()
    watch = TokenRejectedWatch()
    root.addHandler(watch)  # before the output, whose filters change records
    output = logging.StreamHandler()
    output.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    output.setLevel(level)
    output.addFilter(lambda record: not carries_invalid_token(record))
    output.addFilter(RedactToken(token))
    root.addHandler(output)
    # Warnings reach the watch whatever the output shows.
    root.setLevel(min(logging.getLevelNamesMapping()[level], watch.level))
    # The job queue's scheduler announces every job it adds, runs and removes.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    return watch

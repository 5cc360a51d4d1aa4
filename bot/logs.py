"""Logging set-up that never lets the bot token out.

Bot API URLs contain the token, and a library may put a URL into an exception
message; the filter below blanks the token in every record, whoever logs it.
"""

from __future__ import annotations

import logging

__all__ = ["RedactToken", "setup_logging"]


class RedactToken(logging.Filter):
    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._token in message:
            record.msg = message.replace(self._token, "<token>")
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if self._token in text:
                record.exc_text = text.replace(self._token, "<token>")
                record.exc_info = None
                record.msg = f"{record.msg}\n{record.exc_text}"
                record.exc_text = None
        return True


def setup_logging(level: str, token: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact = RedactToken(token)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    # The HTTP client logs every request URL at INFO: keep it quiet as well.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("httpcore").setLevel(logging.WARNING)

from __future__ import annotations

import io
import logging

from bot.logs import RedactToken

TOKEN = "123456789:AAExampleTokenExampleTokenExample"


def logger_with_filter() -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactToken(TOKEN))
    logger = logging.getLogger("test.redact")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, stream


def test_the_token_is_blanked_in_messages_and_arguments() -> None:
    logger, stream = logger_with_filter()
    logger.info("GET https://api.telegram.org/bot%s/getMe", TOKEN)
    logger.info(f"plain https://api.telegram.org/bot{TOKEN}/getUpdates")
    text = stream.getvalue()
    assert TOKEN not in text
    assert text.count("<token>") == 2


def test_the_token_is_blanked_in_tracebacks() -> None:
    logger, stream = logger_with_filter()
    try:
        raise RuntimeError(f"failed https://api.telegram.org/bot{TOKEN}/sendMessage")
    except RuntimeError:
        logger.exception("request failed")
    text = stream.getvalue()
    assert TOKEN not in text
    assert "request failed" in text
    assert "RuntimeError" in text

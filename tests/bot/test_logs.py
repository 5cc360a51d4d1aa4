from __future__ import annotations

import io
import logging
import subprocess
import sys
import traceback
from pathlib import Path
from typing import TextIO, cast

from telegram.error import InvalidToken

from bot.logs import RedactingStream, RedactToken, TokenRejectedWatch, carries_invalid_token
from bot.runner import MAX_PAUSE, pause_before

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456789:AAExampleTokenExampleTokenExample"
SECRET = TOKEN.partition(":")[2]


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


def test_the_secret_part_is_blanked_even_with_the_colon_encoded() -> None:
    logger, stream = logger_with_filter()
    logger.warning("GET /bot%s/getMe", TOKEN.replace(":", "%3A"))
    assert SECRET not in stream.getvalue()
    assert "<token>" in stream.getvalue()


def test_the_streams_blank_the_token_in_whatever_is_written() -> None:
    sink = io.StringIO()
    stream = RedactingStream(sink, TOKEN)
    try:
        try:
            raise InvalidToken(f"The token `{TOKEN}` was rejected by the server.")
        except InvalidToken as exc:
            raise RuntimeError("while starting") from exc
    except RuntimeError:
        traceback.print_exc(file=cast(TextIO, stream))
    print(f"plain {TOKEN}", file=cast(TextIO, stream))
    text = sink.getvalue()
    assert "InvalidToken: The token `<token>` was rejected" in text
    assert "plain <token>" in text
    assert SECRET not in text


UNCAUGHT = """
import os, warnings
from bot.logs import setup_logging
token = os.environ["TOKEN"]
setup_logging("INFO", token)
print("stdout", token)
warnings.warn("warning " + token)
try:
    raise ValueError("cause " + token)
except ValueError as exc:
    raise RuntimeError("uncaught " + token) from exc
"""


def test_an_uncaught_traceback_at_exit_is_blanked_too() -> None:
    result = subprocess.run(  # noqa: S603 - runs the fixed script above
        [sys.executable, "-c", UNCAUGHT],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "", "TOKEN": TOKEN},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "RuntimeError: uncaught <token>" in result.stderr
    assert "ValueError: cause <token>" in result.stderr
    assert "warning <token>" in result.stderr
    assert result.stdout == "stdout <token>\n"
    assert SECRET not in result.stdout + result.stderr


def record(exc: BaseException | None = None, *args: object) -> logging.LogRecord:
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord("x", logging.ERROR, __file__, 1, "msg %s", args or None, exc_info)


def test_a_rejected_token_is_noticed_whoever_logs_it() -> None:
    calls: list[str] = []
    watch = TokenRejectedWatch()
    watch.on_rejected = lambda: calls.append("stop")
    for unrelated in (record(RuntimeError("unrelated")), record(None, "text")):
        watch.handle(unrelated)
        assert not carries_invalid_token(unrelated)
    assert calls == []
    try:
        try:
            raise InvalidToken("Unauthorized")
        except InvalidToken as exc:
            raise RuntimeError("while polling") from exc
    except RuntimeError as chained:
        as_cause = record(chained)
    as_argument = record(None, InvalidToken("Unauthorized"))
    for rejection in (as_cause, as_argument):
        assert carries_invalid_token(rejection)  # the output leaves it out
        watch.handle(rejection)
    assert watch.rejected
    assert calls == ["stop", "stop"]


def test_the_pause_between_attempts_grows_to_a_minute() -> None:
    assert [pause_before(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert pause_before(10_000) == MAX_PAUSE

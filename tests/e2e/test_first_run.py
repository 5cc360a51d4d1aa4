"""What an operator sees on the first run: ``python -m bot`` in a subprocess
against the fake Bot API, and everything it prints (stdout and stderr).

Each failure an operator can fix is exactly one line and exit code 2; the token
never appears: the tests compare the whole output with the one expected line,
so neither the token nor a traceback can hide anywhere in it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest

from i18n import t
from playground.botapi import FakeTelegram
from storage.url import sqlite_url
from tests.e2e.harness import spawn_bot, wait_exit

# Well-formed, but not the fake server's token: it answers 401 Unauthorized.
WRONG_TOKEN = "987654321:AAwrongTokenWrongTokenWrongToken42"
WRONG_SECRET = WRONG_TOKEN.partition(":")[2]

pytestmark = pytest.mark.slow  # each runs the bot in a process of its own


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def settings(server: FakeTelegram, db_path: Path, **extra: str) -> dict[str, str]:
    return {
        "BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "TELEGRAM_FILE_BASE_URL": server.base_file_url,
        "DATABASE_PATH": str(db_path),
        **extra,
    }


def webhook_settings(port: int) -> dict[str, str]:
    return {
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/koloda-hook",
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
    }


@contextmanager
def stopped_at_the_end(process: subprocess.Popen[bytes]) -> Iterator[None]:
    try:
        yield
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


async def run_to_exit(env: dict[str, str], workdir: Path) -> tuple[int, str]:
    """Run the bot until it exits by itself: its exit code and its whole output."""
    log = workdir / "bot.log"
    process = spawn_bot(env, workdir, log)
    with stopped_at_the_end(process):
        code = await wait_exit(process, 60)
    return code, log.read_text(encoding="utf-8")


def assert_token_absent(output: str, token: str) -> None:
    assert token not in output
    assert token.partition(":")[2] not in output


# ------------------------------------------------------------------ a rejected token


@pytest.mark.parametrize(
    ("language", "mode"),
    [(None, "polling"), ("en", "polling"), ("ka", "polling"), (None, "webhook")],
)
async def test_a_token_telegram_rejects_is_one_translated_line(
    server: FakeTelegram, db_path: Path, tmp_path: Path, language: str | None, mode: str
) -> None:
    env = settings(server, db_path, BOT_TOKEN=WRONG_TOKEN)
    if language is not None:
        env["DEFAULT_LANGUAGE"] = language
    if mode == "webhook":
        env |= webhook_settings(free_port())
    code, output = await run_to_exit(env, tmp_path)
    expected = f"koloda: {t(language or 'ru', 'startup.token_rejected')}\n"
    assert (code, output) == (2, expected)
    assert_token_absent(output, WRONG_TOKEN)
    # It did ask Telegram (and was refused), and left nothing on disk.
    assert [call.method for call in server.calls] == ["getMe"]
    assert not db_path.parent.exists()


async def test_the_russian_and_english_lines_say_what_the_issue_asks() -> None:
    assert (
        t("en", "startup.token_rejected") == "Telegram rejected BOT_TOKEN; check it in @BotFather"
    )
    assert "BOT_TOKEN" in t("ru", "startup.token_rejected")
    assert "@BotFather" in t("ru", "startup.token_rejected")


@pytest.mark.parametrize("level", ["WARNING", "CRITICAL"])
async def test_a_token_revoked_while_polling_stops_the_bot_with_the_same_line(
    server: FakeTelegram, db_path: Path, tmp_path: Path, level: str
) -> None:
    server.add_user(7, "Anna", started=True)
    log = tmp_path / "bot.log"
    process = spawn_bot(settings(server, db_path, LOG_LEVEL=level), tmp_path, log)
    token = server.token
    with stopped_at_the_end(process):
        await server.wait_for(lambda: server.active_polls, timeout=30)
        server.token = "111:revoked-revoked"  # every request of the bot now gets 401
        server.send(7, 7, "/help")  # wakes the long poll; the answer cannot be sent
        code = await wait_exit(process, 30)
    assert (code, log.read_text(encoding="utf-8")) == (
        2,
        f"koloda: {t('ru', 'startup.token_rejected')}\n",
    )
    assert_token_absent(log.read_text(encoding="utf-8"), token)


async def test_a_token_revoked_while_serving_a_webhook_stops_the_bot_with_the_same_line(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    server.add_user(7, "Anna", started=True)
    port = free_port()
    env = settings(server, db_path, LOG_LEVEL="WARNING", **webhook_settings(port))
    log = tmp_path / "bot.log"
    process = spawn_bot(env, tmp_path, log)
    token = server.token
    with stopped_at_the_end(process):
        hook = await server.wait_for(lambda: server.webhook, timeout=30)
        server.send(7, 7, "/help")
        (update,) = server.take_updates(10)
        server.token = "111:revoked-revoked"
        async with aiohttp.ClientSession() as http:
            for _ in range(100):  # the webhook server starts right after setWebhook
                try:
                    async with http.post(
                        hook["url"],
                        data=json.dumps(update),
                        headers={"Content-Type": "application/json"},
                    ) as answer:
                        assert answer.status == 200
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
        code = await wait_exit(process, 30)
    output = log.read_text(encoding="utf-8")
    assert (code, output) == (2, f"koloda: {t('ru', 'startup.token_rejected')}\n")
    assert_token_absent(output, token)


# ------------------------------------------------------------------ no network at start


async def test_without_telegram_the_bot_retries_until_it_comes(
    db_path: Path, tmp_path: Path
) -> None:
    port = free_port()  # nothing listens there yet
    fake = FakeTelegram(port=port)
    env = {
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{port}/bot",
        "DATABASE_PATH": str(db_path),
    }
    log = tmp_path / "bot.log"
    process = spawn_bot(env, tmp_path, log)
    with stopped_at_the_end(process):
        await fake.wait_for(
            lambda: "attempt 1 failed" in log.read_text(encoding="utf-8"), timeout=30
        )
        assert process.poll() is None
        async with fake:
            fake.add_user(7, "Anna", started=True)
            await fake.wait_for(lambda: fake.active_polls, timeout=30)
            fake.send(7, 7, "/help")
            reply = await fake.wait_for(lambda: fake.last_bot_message(7), timeout=20)
            assert "/newgame" in reply.text
            process.send_signal(signal.SIGTERM)
            assert await wait_exit(process, 20) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    failures = [line for line in lines if "cannot reach Telegram" in line]
    assert failures
    assert all(
        "WARNING bot.runner: cannot reach Telegram (aiohttp.ClientConnectorError" in line
        for line in failures
    )
    assert "Traceback" not in "\n".join(lines)
    assert_token_absent("\n".join(lines), fake.token)
    running = [line for line in lines if "running as" in line]
    assert len(running) == 1
    assert running[0].endswith(
        " INFO bot.runner: running as @koloda_test_bot — add it to a group: "
        "https://t.me/koloda_test_bot?startgroup=true"
    )
    assert not [line for line in lines if "apscheduler" in line]


async def test_a_connection_lost_while_polling_is_one_line_per_attempt(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    server.add_user(7, "Anna", started=True)
    log = tmp_path / "bot.log"
    process = spawn_bot(settings(server, db_path, LOG_LEVEL="WARNING"), tmp_path, log)
    with stopped_at_the_end(process):
        await server.wait_for(lambda: server.active_polls, timeout=30)
        await server.stop()  # the same port answers nothing for a while
        await asyncio.sleep(1.5)  # the library retries after 1 s, then 1.5 s...
        await server.start()
        server.send(7, 7, "/help")
        reply = await server.wait_for(lambda: server.last_bot_message(7), timeout=30)
        assert "/newgame" in reply.text
        process.send_signal(signal.SIGINT)
        assert await wait_exit(process, 20) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines
    assert all("WARNING bot.runner: getUpdates failed: aiohttp." in line for line in lines), lines


# ------------------------------------------------------------------ a database it cannot open


def unopenable(tmp_path: Path, case: str) -> Path:
    if case == "under a file":
        (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
        return tmp_path / "a-file" / "data" / "koloda.sqlite3"
    if case == "a folder":
        (tmp_path / "a-folder").mkdir()
        return tmp_path / "a-folder"
    if case == "not a database":
        (tmp_path / "notes.txt").write_text("shopping list " * 100, encoding="utf-8")
        return tmp_path / "notes.txt"
    assert case == "a read-only folder"
    (tmp_path / "locked").mkdir(mode=0o555)
    return tmp_path / "locked" / "data" / "koloda.sqlite3"


@pytest.mark.parametrize(
    ("case", "language"),
    [
        ("under a file", None),
        ("under a file", "en"),
        ("a folder", None),
        ("not a database", None),
        pytest.param(
            "a read-only folder",
            None,
            marks=pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere"),
        ),
    ],
)
async def test_a_database_path_that_cannot_be_opened_is_one_translated_line(
    server: FakeTelegram, tmp_path: Path, case: str, language: str | None
) -> None:
    path = unopenable(tmp_path, case)
    env = settings(server, path)
    if language is not None:
        env["DEFAULT_LANGUAGE"] = language
    code, output = await run_to_exit(env, tmp_path)
    text = t(language or "ru", "startup.database", path=sqlite_url(path), reason="")
    assert code == 2
    assert output.startswith(f"koloda: {text}"), output
    assert output.count("\n") == 1, output
    assert_token_absent(output, server.token)


async def test_a_database_server_out_of_reach_is_one_translated_line_without_its_password(
    server: FakeTelegram, tmp_path: Path
) -> None:
    """A PostgreSQL URL whose server is not there (its socket folder is empty)."""
    url = f"postgresql://koloda:sekret@/koloda?host={tmp_path}"
    env = settings(server, tmp_path / "unused.sqlite3", DATABASE_URL=url)
    code, output = await run_to_exit(env, tmp_path)
    shown = url.replace(":sekret@", ":***@")
    assert code == 2
    assert output.startswith(f"koloda: {t('ru', 'startup.database', path=shown, reason='')}")
    assert output.count("\n") == 1, output
    assert "sekret" not in output


# ------------------------------------------------------------------ webhook settings that fail


async def test_a_webhook_url_telegram_refuses_is_one_translated_line(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    url = "http://example.com/koloda-hook"  # Telegram wants HTTPS
    env = settings(server, db_path, LOG_LEVEL="WARNING", **webhook_settings(free_port()))
    code, output = await run_to_exit(env | {"WEBHOOK_URL": url}, tmp_path)
    text = t("ru", "startup.webhook_refused", url=url, reason="")
    reason = "Bad webhook: https url must be provided for webhook"  # as the fake says it
    assert (code, output) == (2, f"koloda: {text}{reason}\n")


async def test_a_webhook_port_in_use_is_one_translated_line(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        env = settings(server, db_path, LOG_LEVEL="WARNING", **webhook_settings(port))
        code, output = await run_to_exit(env, tmp_path)
    text = t("ru", "startup.webhook_listen", listen="127.0.0.1", port=port, reason="")
    assert (code, output) == (2, f"koloda: {text}Address already in use\n")

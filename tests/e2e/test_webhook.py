"""Webhook mode: ``python -m bot`` with WEBHOOK_URL serves Telegram's posts."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import aiohttp

from playground.botapi import FakeTelegram
from tests.e2e.harness import free_port, spawn_bot, wait_exit

SECRET = "s3cret-token_for-tests"


async def test_updates_posted_to_the_webhook_are_handled(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/koloda-hook"
    env = {
        "BOT_TOKEN": server.token,
        "TELEGRAM_API_BASE_URL": server.base_url,
        "DATABASE_PATH": str(db_path),
        "WEBHOOK_URL": url,
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_SECRET": SECRET,
        "LOG_LEVEL": "WARNING",
    }
    log = tmp_path / "bot.log"
    process = spawn_bot(env, tmp_path, log)
    try:
        server.add_user(7, "Anna")
        hook = await server.wait_for(lambda: server.webhook, timeout=30)
        assert hook == {"url": url, "secret_token": SECRET}
        server.send(7, 7, "/help")
        (update,) = server.take_updates(10)
        async with aiohttp.ClientSession() as http:
            for _ in range(100):  # the webhook server starts right after setWebhook
                try:
                    async with http.post(
                        url,
                        data=json.dumps(update),
                        headers={
                            "Content-Type": "application/json",
                            "X-Telegram-Bot-Api-Secret-Token": "wrong",
                        },
                    ) as refused:
                        assert refused.status == 403
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            async with http.post(
                url,
                data=json.dumps(update),
                headers={
                    "Content-Type": "application/json",
                    "X-Telegram-Bot-Api-Secret-Token": SECRET,
                },
            ) as accepted:
                assert accepted.status == 200
        reply = await server.wait_for(lambda: server.last_bot_message(7), timeout=20)
        assert "/newgame" in reply.text
    finally:
        process.send_signal(signal.SIGINT)
        await wait_exit(process, 20)
    assert "Traceback" not in log.read_text(encoding="utf-8")

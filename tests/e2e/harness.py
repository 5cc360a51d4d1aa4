"""Running the real bot against the fake Bot API and playing as users would."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import build_application
from bot.config import Config
from tests.fake_telegram import FakeTelegram, SentMessage

GROUP_ID = -1001
MOVE_DATA = re.compile(r"^[mu]:")


def bot_config(server: FakeTelegram, db_path: Path, **overrides: Any) -> Config:
    values: dict[str, Any] = {
        "token": server.token,
        "api_base_url": server.base_url,
        "file_base_url": server.base_file_url,
        "database_path": db_path,
        "group_edits_per_minute": 60,
        "overall_rate": 10_000.0,
    }
    values.update(overrides)
    return Config(**values)


@asynccontextmanager
async def running_bot(config: Config) -> AsyncIterator[Any]:
    """The bot as ``run_polling`` runs it, hooks included, in this event loop."""
    application = build_application(config)
    await application.initialize()
    try:
        assert application.post_init is not None
        await application.post_init(application)
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield application
        finally:
            await application.updater.stop()
            await application.stop()
            assert application.post_stop is not None
            await application.post_stop(application)
    finally:
        await application.shutdown()
        assert application.post_shutdown is not None
        await application.post_shutdown(application)


@dataclass
class Table:
    """A group with players, and helpers to act as them."""

    server: FakeTelegram
    group_id: int
    players: list[int]
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    def hand(self, user_id: int) -> SentMessage | None:
        """The user's current DM message with move buttons, if any."""
        for message in reversed(self.server.chat_messages(user_id)):
            if message.deleted:
                continue
            if any(MOVE_DATA.match(d) for d in message.callback_datas):
                return message
        return None

    def group_messages(self) -> list[SentMessage]:
        return self.server.chat_messages(self.group_id)

    def lobby(self) -> SentMessage:
        for message in reversed(self.group_messages()):
            if any(d.startswith("l:") for d in message.callback_datas):
                return message
        raise AssertionError("no lobby message in the group")

    async def command(self, user_id: int, text: str, chat_id: int | None = None) -> None:
        self.server.send(user_id, self.group_id if chat_id is None else chat_id, text)
        await self.server.wait_idle(quiet=0.05)

    async def press(self, user_id: int, message: SentMessage, data: str) -> dict[str, Any]:
        query = self.server.press(user_id, message.chat_id, message.message_id, data)
        answer = await self.server.answered(query)
        await self.server.wait_idle(quiet=0.05)
        return answer

    async def press_text(self, user_id: int, message: SentMessage, text: str) -> dict[str, Any]:
        return await self.press(user_id, message, message.callback_data(text))

    async def open_and_start(self, game: str = "durak", preset: str | None = None) -> None:
        for user_id in self.players:
            self.server.start_bot(user_id)
        await self.server.wait_idle(quiet=0.05)
        creator = self.players[0]
        await self.command(creator, f"/newgame {game} {preset or ''}".strip())
        for user_id in self.players[1:]:
            await self.press(user_id, self.lobby(), self.lobby().callback_data("🙋"))
        await self.press(creator, self.lobby(), self.lobby().callback_data("▶️"))

    async def play_random_move(self) -> bool:
        """One random legal button press by some player who can act."""
        options = [(u, m) for u in self.players if (m := self.hand(u)) is not None]
        if not options:
            return False
        user_id, message = self.rng.choice(options)
        datas = [d for d in message.callback_datas if MOVE_DATA.match(d)]
        answer = await self.press(user_id, message, self.rng.choice(datas))
        assert not answer.get("show_alert"), f"a legal button was refused: {answer}"
        return True

    async def play_to_the_end(self, max_moves: int = 2000) -> int:
        moves = 0
        while moves < max_moves:
            if not await self.play_random_move():
                return moves
            moves += 1
        raise AssertionError("the game did not end")


async def seat_players(server: FakeTelegram, names: list[str], group_id: int = GROUP_ID) -> Table:
    players = []
    for i, name in enumerate(names):
        user_id = 100 + i
        server.add_user(user_id, name)
        players.append(user_id)
    server.add_group(group_id, "Friends", supergroup=True, creator=players[0])
    return Table(server, group_id, players)

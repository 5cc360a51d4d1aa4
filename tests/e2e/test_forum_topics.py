"""In a forum, each topic keeps its own table and its messages stay in it."""

from __future__ import annotations

from pathlib import Path

from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, running_bot, settle

FORUM = -100777


async def test_each_forum_topic_has_its_own_table(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        for user_id, name in ((1, "Anna"), (2, "Boris")):
            server.add_user(user_id, name)
            server.start_bot(user_id)
        server.add_group(FORUM, "Card club", supergroup=True, forum=True, creator=1)
        cards = server.create_topic(FORUM, "Durak")
        hundred = server.create_topic(FORUM, "101")
        server.send(1, FORUM, "/newgame durak", thread_id=cards)
        await settle(server, app)
        server.send(2, FORUM, "/newgame 101", thread_id=hundred)
        await settle(server, app)

        durak_lobby = server.last_bot_message(FORUM, thread_id=cards)
        other_lobby = server.last_bot_message(FORUM, thread_id=hundred)
        assert durak_lobby is not None
        assert other_lobby is not None
        assert "Дурак" in durak_lobby.text
        assert "101" in other_lobby.text
        assert Probe(db_path).table(1)[0] == "lobby"
        assert Probe(db_path).table(2)[0] == "lobby"

        # /join in the durak topic seats Boris at the durak table only.
        server.send(2, FORUM, "/join", thread_id=cards)
        await settle(server, app)
        durak_lobby = server.bot_message(FORUM, durak_lobby.message_id)
        other_lobby = server.bot_message(FORUM, other_lobby.message_id)
        assert "Boris" in durak_lobby.text
        assert "Anna" not in other_lobby.text
        # A second table in the same topic is refused; the other topic still has its own.
        server.send(1, FORUM, "/newgame durak", thread_id=hundred)
        await settle(server, app)
        refusal = server.last_bot_message(FORUM, thread_id=hundred)
        assert refusal is not None
        assert "уже открыт стол" in refusal.text

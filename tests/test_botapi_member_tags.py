"""The stand-in Bot API's ``setChatMemberTag`` (Bot API 9.5), as the ratings'
season end uses it: only an administrator bot with ``can_manage_tags`` tags,
a regular member only, 0-16 characters without emoji; an empty tag removes
it, and ``getChatMember`` shows it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot, ChatMemberAdministrator, ChatMemberMember
from telegram.error import BadRequest

from playground.botapi import FakeTelegram

TOKEN = "123456:TEST-token"
GROUP, OWNER, ANNA = -1001, 1, 2


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN) as fake:
        fake.add_user(OWNER, "Olga")
        fake.add_user(ANNA, "Anna")
        fake.add_group(GROUP, "Friends", supergroup=True, creator=OWNER)
        fake.chats[GROUP].member_ids.add(ANNA)
        yield fake


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url, base_file_url=server.base_file_url) as b:
        yield b


async def test_a_member_tag_needs_the_right_and_a_regular_member(
    server: FakeTelegram, bot: Bot
) -> None:
    group = server.chats[GROUP]
    with pytest.raises(BadRequest, match="Not enough rights"):
        await bot.set_chat_member_tag(GROUP, ANNA, "Первое место")
    group.bot_is_admin = True
    me = await bot.get_chat_member(GROUP, bot.id)
    assert isinstance(me, ChatMemberAdministrator)
    assert me.can_manage_tags
    assert await bot.set_chat_member_tag(GROUP, ANNA, "Первое место")
    assert group.member_tags == {ANNA: "Первое место"}
    member = await bot.get_chat_member(GROUP, ANNA)
    assert isinstance(member, ChatMemberMember)
    assert member.tag == "Первое место"
    with pytest.raises(BadRequest, match="not a regular member"):
        await bot.set_chat_member_tag(GROUP, OWNER, "Хозяйка")
    with pytest.raises(BadRequest, match="Tag_invalid"):
        await bot.set_chat_member_tag(GROUP, ANNA, "Чемпион сезона 2027")  # 19 characters
    with pytest.raises(BadRequest, match="Tag_invalid"):
        await bot.set_chat_member_tag(GROUP, ANNA, "🏆 first")
    assert await bot.set_chat_member_tag(GROUP, ANNA, "")
    assert group.member_tags == {}
    group.bot_can_manage_tags = False
    me = await bot.get_chat_member(GROUP, bot.id)
    assert isinstance(me, ChatMemberAdministrator)
    assert not me.can_manage_tags

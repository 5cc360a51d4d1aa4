"""A group plays several games and reads its ratings: every result post says
what the game did to the players' ratings, ``/rating`` lists the chat's
season with the asker in it, ``/top`` the ratings across chats, ``/stats``
draws the rating history; at the month's end the season's standings and
champion are posted once (across a restart too) and the champion tagged."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from playground.botapi import FakeTelegram
from services.ratings import next_season_start
from tests.clock import FakeClock
from tests.e2e.harness import Probe, advance, bot_config, running_bot, seat_players

DAY = 86_400.0
CHANGE = re.compile(r"📈 Рейтинг: (\w+) 1000 → (\d+)\? \(([+−]\d+)\), (\w+) 1000 → (\d+)\?")


def texts(server: FakeTelegram, chat_id: int) -> list[str]:
    return [m.body for m in server.chat_messages(chat_id)]


def busiest_minute(stamps: list[float]) -> int:
    return max(sum(s <= t < s + 60 for t in stamps) for s in stamps)


async def test_rating_a_group_plays_several_games_and_reads_rating_top_and_stats(
    server: FakeTelegram, db_path: Path
) -> None:
    clock = FakeClock()
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path), clock) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        group = server.chats[table.group_id]
        group.creator_id = None  # the champion may be tagged: not the group's owner
        group.bot_is_admin = True
        anna, boris = table.players
        for _ in range(3):
            await table.open_and_start("durak")
            await table.play_to_the_end()
        results = [t for t in texts(server, table.group_id) if "🏁" in t and "📈" in t]
        assert len(results) == 3, "every result post has its rating line"
        first = CHANGE.search(results[0])
        assert first is not None, results[0]
        assert {first.group(2), first.group(5)} == {"1138", "927"}  # two newcomers, one game
        assert probe.query("SELECT COUNT(*) FROM rated_games WHERE skipped IS NULL") == [(3,)]

        await table.command(boris, "/rating")
        rating = server.last_bot_message(table.group_id)
        assert rating is not None
        assert "Рейтинг чата · сезон: январь 2027" in rating.text
        assert "Дурак · подкидной" in rating.text
        lines = [line for line in rating.text.splitlines() if re.match(r"[12]\. ", line)]
        assert sorted(line.split(" — ")[0][3:] for line in lines) == ["Anna", "Boris"]
        assert all(line.endswith("?") for line in lines), "provisional: fewer than 10 games"

        await table.command(anna, "/top дурак", chat_id=anna)
        top = server.last_bot_message(anna)
        assert top is not None
        assert "Рейтинг по всем чатам" in top.text
        assert "Anna" in top.text
        assert "Boris" in top.text

        await table.command(anna, "/stats")
        stats = server.last_bot_message(table.group_id)
        assert stats is not None
        assert stats.kind == "photo", "the rating history is drawn"
        assert "Дурак · подкидной:" in stats.body
        assert "пик" in stats.body

        # February: the January season ends, told once.
        await advance(server, app, 20 * DAY)
        ends = [t for t in texts(server, table.group_id) if "Сезон окончен: январь 2027!" in t]
        assert len(ends) == 1
        assert "🏆 Первое место · Дурак · подкидной:" in ends[0]
        champion = re.search(r"подкидной: (\w+) \(", ends[0])
        assert champion is not None
        champion_id = anna if champion.group(1) == "Anna" else boris
        assert group.member_tags == {champion_id: "Первое место"}
        await table.command(anna, "/rating")
        fresh = server.last_bot_message(table.group_id)
        assert fresh is not None
        assert "В этом сезоне в чате ещё нет рейтинговых партий." in fresh.text

    async with running_bot(bot_config(server, db_path), clock) as app:
        await advance(server, app, 60.0)
    assert sum("Сезон окончен: январь 2027!" in t for t in texts(server, table.group_id)) == 1


async def test_the_season_post_waits_for_room_in_the_groups_minute(
    server: FakeTelegram, db_path: Path
) -> None:
    """The month turns while the group's budget is spent (twenty replies to
    ``/rating`` asked for at once, going out a second apart): the season's
    post takes a slot of the group's minute like any message, never a 21st
    message in a minute nor two within a second."""
    clock = FakeClock()
    server.stamp = clock.now
    async with running_bot(bot_config(server, db_path, group_edits_per_minute=20), clock) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        await advance(server, app, next_season_start(clock.now()) - clock.now() - 5)
        for _ in range(20):
            server.send(table.players[0], table.group_id, "/rating")
        await advance(server, app, 120)
    sends = [
        c.clock_at
        for c in server.calls
        if c.chat_id == table.group_id and c.ok and c.method.startswith(("send", "edit"))
    ]
    said = [(c, str(c.params.get("text"))) for c in server.calls]
    posts = [c for c, text in said if "Сезон окончен: январь 2027!" in text]
    replies = [c for c, text in said if text.startswith("📈 <b>Рейтинг чата")]
    assert len(posts) == 1
    assert len(replies) == 20
    assert replies[0].clock_at < next_season_start(replies[0].clock_at) <= posts[0].clock_at
    assert posts[0].clock_at < replies[-1].clock_at, "the post came while the replies went"
    assert busiest_minute(sends) <= 20
    assert min(b - a for a, b in itertools.pairwise(sends)) >= 1.0

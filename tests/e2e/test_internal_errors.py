"""What people see when the bot fails inside (here: the database lost a
table under it): one translated line, in the chat and forum topic they wrote
in, and in a group within the group's message budget like every other
message the bot posts there."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from i18n import t
from playground.botapi import FakeTelegram
from tests.clock import FakeClock
from tests.e2e.harness import advance, bot_config, running_bot, settle

FORUM = -100777
ANNA = 1
BROKEN = t("ru", "error.internal")
GROUP_BUDGET = 20
"""Messages a minute the bot allows itself in one group (the default; the
harness's bots allow themselves more)."""


def lose_the_scores(db_path: Path) -> None:
    """The scores table disappears from under the running bot."""
    with closing(sqlite3.connect(db_path)) as db:
        db.execute("ALTER TABLE scores RENAME TO scores_lost")
        db.commit()


async def test_an_internal_error_is_one_line_where_it_was_asked_within_the_groups_budget(
    server: FakeTelegram, db_path: Path
) -> None:
    clock = FakeClock()
    server.stamp = clock.now
    config = bot_config(server, db_path, group_edits_per_minute=GROUP_BUDGET)
    async with running_bot(config, clock) as app:
        server.add_user(ANNA, "Anna")
        server.start_bot(ANNA)
        server.add_group(FORUM, "Card club", supergroup=True, forum=True, creator=ANNA)
        topic = server.create_topic(FORUM, "Durak")
        server.send(ANNA, FORUM, "/scores", thread_id=topic)
        await settle(server, app)
        lose_the_scores(db_path)

        # Thirty asks at once in the group: each is answered, in the topic,
        # never more than the group's budget in a minute.
        for _ in range(30):
            server.send(ANNA, FORUM, "/scores", thread_id=topic)
        await advance(server, app, 120)
        answers = [m for m in server.bot_messages(FORUM) if m.text == BROKEN]
        assert len(answers) == 30
        assert all(m.thread_id == topic for m in answers)
        sent = [c.clock_at for c in server.calls_to("sendMessage", FORUM)]
        assert max(sum(s <= u < s + 60 for u in sent) for s in sent) <= GROUP_BUDGET

        # In a private chat too.
        server.send(ANNA, ANNA, "/stats")
        await settle(server, app)
        last = server.last_bot_message(ANNA)
        assert last is not None
        assert last.text == BROKEN

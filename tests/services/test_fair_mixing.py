"""Deals nobody can choose (scheme v2 of services.fairness): the bot's seed is
committed when the table opens, before anybody joins; the players' presses and
words are mixed into it at the start; the check proves the commitment and the
mixing, and refuses a tampered seed, contribution or deal; games dealt the old
way still verify."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.catalog import CATALOG
from screens.common import lobby_text
from services import ServiceError, Snapshot
from services.fairness import (
    SCHEME_V1,
    SCHEME_V2,
    commitment,
    mixed_seed,
    press,
    seed_commitment,
    word,
)
from tests.clock import FakeClock
from tests.postgres import execute
from tests.services.world import GROUP, PEOPLE, World


@pytest.fixture
async def fair(database: str, clock: FakeClock) -> AsyncIterator[World]:
    async with World.open(database, clock, fixed_deals=False) as w:
        yield w


async def _mixed_table(world: World, *, start_press: str = "start-1") -> Snapshot:
    """Anna opens a durak table, Boris joins by a press, Vera by a press and
    with a word, and Anna starts it by a press."""
    lobby = world.services.lobby
    table_id = (await lobby.create(GROUP, 0, PEOPLE[0], "durak")).table.id
    await lobby.join(table_id, PEOPLE[1], "join-boris")
    await lobby.join(table_id, PEOPLE[2], "join-vera")
    await lobby.salt(table_id, PEOPLE[2], "  клюква   с сахаром ")
    return await lobby.start(table_id, PEOPLE[0], is_admin=False, press_id=start_press)


def _sql(world: World, statement: str, *params: object) -> None:
    execute(world.database, statement, params)


async def test_fair_the_bots_seed_is_committed_when_the_table_opens_before_any_join(
    fair: World,
) -> None:
    lobby = fair.services.lobby
    opened = await lobby.create(GROUP, 0, PEOPLE[0], "durak")
    table = opened.table
    assert table.scheme == SCHEME_V2
    assert table.server_seed is not None
    assert len(table.server_seed) == 64
    assert table.seed_commitment == seed_commitment(table.server_seed)
    assert table.contributions == ()
    assert table.seed is None  # nothing is dealt yet
    # The lobby message shows it before anybody else has pressed anything.
    shown = lobby_text("ru", opened, CATALOG.screens["durak"])
    assert f"🔒 Сид бота: {table.seed_commitment[:16]} · 0 вкладов игроков" in shown

    joined = await lobby.join(table.id, PEOPLE[1], "press-77")
    assert joined.table.contributions == (press("press-77"),)
    assert joined.table.seed_commitment == table.seed_commitment  # never drawn again
    salted = await lobby.salt(table.id, PEOPLE[1], "rowan")
    assert salted.table.contributions == (press("press-77"), word(PEOPLE[1].id, "rowan"))
    assert "2 вклада игроков" in lobby_text("ru", salted, CATALOG.screens["durak"])

    started = await lobby.start(table.id, PEOPLE[0], is_admin=False, press_id="press-78")
    dealt = started.table
    contributions = (press("press-77"), word(PEOPLE[1].id, "rowan"), press("press-78"))
    assert dealt.contributions == contributions
    assert dealt.seed == mixed_seed(table.server_seed, contributions)
    assert dealt.scheme == SCHEME_V2
    assert dealt.state is not None
    assert dealt.commitment == commitment("durak", dealt.seed, dealt.state, SCHEME_V2)


async def test_fair_the_mix_changes_with_any_contribution_and_not_with_their_order() -> None:
    server = "ab" * 32
    base = [press("1"), press("2"), word(1, "x")]
    seed = mixed_seed(server, base)
    assert 0 <= seed < 2**63
    assert mixed_seed(server, list(reversed(base))) == seed  # a canonical order
    assert mixed_seed(server, [*base, press("3")]) != seed
    assert mixed_seed(server, [press("1"), press("2"), word(1, "y")]) != seed
    assert mixed_seed(server, base[:2]) != seed
    assert mixed_seed("cd" * 32, base) != seed  # and with the bot's seed


async def test_fair_a_different_start_press_deals_different_cards(fair: World) -> None:
    one = (await _mixed_table(fair, start_press="a")).table
    await fair.services.moderation.cancel(one.id, PEOPLE[0], is_admin=False)
    two = (await _mixed_table(fair, start_press="b")).table
    assert one.server_seed != two.server_seed
    # The same bot seed with one press changed: another seed, other cards.
    assert one.server_seed is not None
    changed = (*one.contributions[:-1], press("b"))
    assert mixed_seed(one.server_seed, changed) != one.seed


async def test_fair_words_are_only_a_seated_players_and_only_in_the_lobby(fair: World) -> None:
    lobby = fair.services.lobby
    table_id = (await lobby.create(GROUP, 0, PEOPLE[0], "durak")).table.id
    with pytest.raises(ServiceError) as stranger:
        await lobby.salt(table_id, PEOPLE[3], "mine")
    assert stranger.value.key == "error.not_seated"
    with pytest.raises(ServiceError) as empty:
        await lobby.salt(table_id, PEOPLE[0], "   ")
    assert empty.value.key == "salt.usage"
    await lobby.join(table_id, PEOPLE[1])  # by /join: no press id, nothing mixed in
    await lobby.start(table_id, PEOPLE[0], is_admin=False)
    table = (await fair.snapshot(table_id)).table
    assert table.contributions == ()
    assert table.server_seed is not None
    assert table.seed == mixed_seed(table.server_seed, ())
    with pytest.raises(ServiceError) as late:
        await lobby.salt(table_id, PEOPLE[0], "late")
    assert late.value.key == "salt.dealt"  # not "no longer taking players"


async def test_fair_the_check_proves_the_commitment_and_the_mixing(fair: World) -> None:
    over = await fair.play_out((await _mixed_table(fair)).table.id, 3)
    table = over.table
    verdict = await fair.services.fairness.verify(GROUP, None)
    assert verdict.ok, verdict
    assert verdict.scheme == SCHEME_V2
    assert (verdict.server_seed, verdict.seed_commitment) == (
        table.server_seed,
        table.seed_commitment,
    )
    assert len(verdict.contributions) == 4
    assert verdict.moves == table.moves > 0


async def test_fair_a_tampered_bot_seed_contribution_or_deal_is_refused(fair: World) -> None:
    over = await fair.play_out((await _mixed_table(fair)).table.id, 3)
    table = over.table
    assert table.server_seed is not None
    fairness = fair.services.fairness

    # Another bot seed than the one committed to in the lobby.
    _sql(fair, "UPDATE tables SET server_seed = ? WHERE id = ?", "0" * 64, table.id)
    assert (await fairness.verify(GROUP, table.id)).problem == "seed_commitment"
    _sql(fair, "UPDATE tables SET server_seed = ? WHERE id = ?", table.server_seed, table.id)
    assert (await fairness.verify(GROUP, table.id)).ok

    # A contribution changed, or one dropped, after the fact.
    for forged in (
        [*table.contributions[:-1], press("chosen")],
        list(table.contributions[1:]),
    ):
        _sql(fair, "UPDATE tables SET contributions = ? WHERE id = ?", json.dumps(forged), table.id)
        assert (await fairness.verify(GROUP, table.id)).problem == "mix"
    original = json.dumps(list(table.contributions))
    _sql(fair, "UPDATE tables SET contributions = ? WHERE id = ?", original, table.id)
    assert (await fairness.verify(GROUP, table.id)).ok

    # The seed the deal came from replaced by one the bot liked better, with
    # the deal and its commitment made to fit it.
    other = (await fair.play_out((await _mixed_table(fair)).table.id, 7)).table
    assert other.seed is not None
    _sql(
        fair,
        "UPDATE tables SET seed = ?, deal = (SELECT deal FROM tables WHERE id = ?),"
        " commitment = ? WHERE id = ?",
        other.seed,
        other.id,
        other.commitment,
        table.id,
    )
    assert (await fairness.verify(GROUP, table.id)).problem == "mix"

    # A deal the mixed seed does not give, committed to honestly: still caught.
    third = (await fair.play_out((await _mixed_table(fair)).table.id, 9)).table
    async with fair.services.db.read() as tx:
        foreign = await tx.tables.deal(other.id)
    assert foreign is not None
    assert third.seed is not None
    forged_commitment = commitment("durak", third.seed, foreign, SCHEME_V2)
    _sql(
        fair,
        "UPDATE tables SET deal = ?, commitment = ? WHERE id = ?",
        json.dumps(foreign),
        forged_commitment,
        third.id,
    )
    assert (await fairness.verify(GROUP, third.id)).problem == "deal"


async def test_fair_games_dealt_the_old_way_still_verify(world: World, fair: World) -> None:
    # A fixed test seed deals the first scheme's way...
    old = await world.play_out((await world.table("durak", people=3)).table.id, 3)
    assert old.table.scheme == SCHEME_V1
    assert old.table.server_seed is None
    assert (await world.services.fairness.verify(GROUP, old.table.id)).ok
    # ...and so did every game before schemes were named (migration 0009).
    _sql(world, "UPDATE tables SET scheme = NULL WHERE id = ?", old.table.id)
    verdict = await world.services.fairness.verify(GROUP, old.table.id)
    assert verdict.ok
    assert verdict.scheme == SCHEME_V1
    # A lobby opened before the bot committed to its seed is dealt the old way.
    lobby = fair.services.lobby
    opened = (await lobby.create(GROUP, 0, PEOPLE[0], "durak")).table
    _sql(
        fair,
        "UPDATE tables SET scheme = NULL, server_seed = NULL, seed_commitment = NULL WHERE id = ?",
        opened.id,
    )
    await lobby.join(opened.id, PEOPLE[1], "press")
    started = (await lobby.start(opened.id, PEOPLE[0], is_admin=False, press_id="p")).table
    assert (started.scheme, started.contributions) == (SCHEME_V1, ())
    over = await fair.play_out((await fair.snapshot(opened.id)).table.id, 3)
    assert (await fair.services.fairness.verify(GROUP, over.table.id)).ok

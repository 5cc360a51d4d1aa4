"""One registration: High card, a game that lives only in this package, joins
the house by one call (``CATALOG.adding(LISTING)``) and then plays through the
real bot against the stand-in Bot API: the lobby, a computer at every level
(the hard one searching in a worker process that finds the engine and the
computer by import path), a turn timer that runs out, its table message and
hands, ``/verify``, the conformance suite and the secrecy checks.  Its texts
are a domain of its own (``locales/``); nothing outside this package knows it."""

from __future__ import annotations

import multiprocessing
import random
import re
from pathlib import Path

import pytest

from bot.catalog import CATALOG, Catalog
from i18n import Domain, add_domain, catalog_keys, t, tn
from playground.botapi import FakeTelegram
from screens.common import names_of
from screens.replay import replay_frames
from services import ServiceError
from tests.clock import FakeClock
from tests.e2e.harness import Probe, Table, advance, bot_config, running_bot, seat_players
from tests.e2e.test_seats import add_computers
from tests.e2e.test_secrecy import play_watched
from tests.engines.test_conformance import suite
from tests.i18n.test_catalogs import fields
from tests.one_registration import LISTING, SPEC, TEXTS
from tests.one_registration.actions import Play
from tests.services.test_duplicate import check_duplicate_of_every_game
from tests.services.world import GROUP, PEOPLE, World

LISTED = CATALOG.adding(LISTING)
"""The one registration."""

globals().update(suite([SPEC]))  # the conformance suite, on this game

TESTS = Path(__file__).parent
LEVEL = "Уровень 🤖"
LEVEL_NAMES = {"hard": "сильный", "normal": "средний", "easy": "лёгкий"}


def test_the_catalog_lists_the_game_with_everything_it_brings() -> None:
    assert LISTED.specs["highcard"] is SPEC
    assert LISTED.computers["highcard"].address == "tests.one_registration.computer:COMPUTER"
    assert "highcard" not in CATALOG.specs, "the house's own catalog is left alone"


def test_its_texts_are_its_own_domain_and_read_english_where_it_lacks_a_language() -> None:
    assert t("ru", "game.highcard") == "Старшая карта"
    assert t("en", "game.highcard") == "High card"
    assert TEXTS.languages() == ("ru", "en")
    assert t("uk", "game.highcard") == t("ka", "game.highcard") == "High card"
    assert tn("uk", "highcard.points", 2) == "2 points"
    assert tn("ru", "highcard.points", 5) == "5 очков"
    assert t("uk", "game.durak") != t("en", "game.durak"), "the house's texts are unchanged"


def test_its_catalogs_agree_and_its_screens_use_only_their_keys() -> None:
    russian, english = catalog_keys("ru", TEXTS), catalog_keys("en", TEXTS)
    assert set(russian) == set(english)
    for key, text in russian.items():
        assert fields(text) == fields(english[key]), key
    assert len(russian["highcard.points"]) == 3
    assert len(english["highcard.points"]) == 2
    used = set(re.findall(r'"(highcard\.[a-z_]+)"', (TESTS / "screens.py").read_text()))
    assert used <= set(russian)


def test_a_domain_that_repeats_a_key_or_lacks_english_is_refused(tmp_path: Path) -> None:
    def texts(name: str, po: str, languages: tuple[str, ...] = ("ru", "en")) -> Domain:
        for lang in languages:
            path = tmp_path / name / lang / "LC_MESSAGES" / f"{name}.po"
            path.parent.mkdir(parents=True)
            path.write_text(po, encoding="utf-8")
        return Domain(name, tmp_path / name)

    with pytest.raises(ValueError, match="repeat keys of 'koloda'"):
        add_domain(texts("clash", 'msgid "game.durak"\nmsgstr "Durak"\n'))
    with pytest.raises(ValueError, match=r"lack \['en'\]"):
        add_domain(texts("russian", 'msgid "russian.only"\nmsgstr "Только"\n', ("ru",)))
    Catalog(LISTING)  # the same texts again: nothing happens
    copy = TEXTS.po("ru").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="repeat keys of 'highcard'"):
        add_domain(texts("copy", copy))


async def _lobby(server: FakeTelegram, app: object, names: list[str]) -> Table:
    """The game chosen from /newgame's buttons, a preset from the next ones."""
    table = seat_players(server, names, app)
    await table.start_bots()
    await table.command(table.players[0], "/newgame")
    offer = server.last_bot_message(table.group_id)
    assert offer is not None
    assert "Старшая карта" in offer.button_texts
    await table.press(table.players[0], offer, offer.callback_data("Старшая карта"))
    chooser = server.last_bot_message(table.group_id)
    assert chooser is not None
    assert "по три карты в руке" in chooser.text
    await table.press(table.players[0], chooser, chooser.callback_data("Быстрая"))
    assert "Старшая карта · Быстрая" in table.lobby().text
    return table


async def _set_level(table: Table, level: str) -> None:
    creator = table.players[0]
    await table.press(creator, table.lobby(), table.lobby().callback_data("⚙️"))
    for _ in range(3):
        label = next(b for b in table.lobby().button_texts if b.startswith(LEVEL))
        if label.endswith(LEVEL_NAMES[level]):
            break
        await table.press(creator, table.lobby(), table.lobby().callback_data(label))
    else:
        raise AssertionError(f"no level {level}")
    await table.press(creator, table.lobby(), table.lobby().callback_data("« Назад"))


async def test_people_open_the_table_from_the_lobby_play_it_out_and_verify_the_deal(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path, LISTED)
    async with running_bot(bot_config(server, db_path), catalog=LISTED) as app:
        table = await _lobby(server, app, ["Anna", "Boris", "Vera"])
        for user_id in table.players[1:]:
            await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table() == ("playing", 0)
        group = table.group_messages()[0].text
        assert "В колоде: 27" in group
        (mover,) = probe.public_view().to_move
        hand = table.hand(table.players[mover])
        assert hand is not None
        assert "Ваши карты:" in hand.text
        assert "Ваш ход: выберите карту." in hand.text
        assert len([d for d in hand.callback_datas if d.startswith("m:")]) == 3
        moves = await table.play_to_the_end(probe=probe)
        assert moves == 36
        assert probe.table() == ("finished", 36)
        result = next(m for m in table.group_messages() if "🏁 Игра окончена" in m.text)
        assert "Победа:" in result.text
        await table.command(table.players[1], "/verify")
        proof = server.last_bot_message(table.group_id)
        assert proof is not None
        assert "✅ Стол 1: сдача честная" in proof.text
        await table.command(table.players[0], "/rules highcard")
        rules = server.last_bot_message(table.group_id)
        assert rules is not None
        assert "взятка достаётся старшей карте" in rules.text
        await table.command(table.players[0], "/help")
        help_text = server.last_bot_message(table.group_id)
        assert help_text is not None
        assert "Старшая карта" in help_text.text
        await table.command(table.players[0], "/scores")
        scores = server.last_bot_message(table.group_id)
        assert scores is not None
        assert "Старшая карта\nПока не в зачёте (меньше 3 партий): " in scores.text
        assert all(f"{name} (1)" in scores.text for name in ("Anna", "Boris", "Vera"))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
async def test_a_person_plays_computers_at_every_level(
    server: FakeTelegram, db_path: Path, level: str, caplog: pytest.LogCaptureFixture
) -> None:
    probe = Probe(db_path, LISTED)
    async with running_bot(bot_config(server, db_path), catalog=LISTED) as app:
        table = seat_players(server, ["Anna"], app)
        await table.open("highcard", "classic")
        await add_computers(table, 2)
        await _set_level(table, level)
        assert probe.query("SELECT computer_level FROM tables") == [(level,)]
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        await table.play_to_the_end(probe=probe)
        assert probe.table()[0] == "finished"
        actors = {actor for _, _, actor, _ in probe.moves()}
        assert actors == {"player", "computer"}
        workers = [p for p in multiprocessing.active_children() if p.name.startswith("Spawn")]
        assert bool(workers) is (level != "easy"), "the search ran in a worker process"
    assert "a search at table" not in caplog.text
    assert "failed" not in caplog.text


async def test_a_turn_timer_that_runs_out_plays_the_lowest_card(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path, LISTED)
    async with running_bot(bot_config(server, db_path), FakeClock(), catalog=LISTED) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("highcard", timer=True)
        game = probe.game()
        assert game is not None
        (mover,) = game.to_move()
        lowest = min(game.view(mover).hand)
        await advance(server, app, 61)
        ((_, _, actor, seat),) = probe.moves()[:1]
        assert (actor, seat) == ("timer", mover)
        after = probe.game()
        assert after is not None
        assert after.public_view().trick[0].card == lowest


@pytest.mark.slow
async def test_nothing_hidden_leaks_and_nobody_moves_for_another(
    server: FakeTelegram, db_path: Path
) -> None:
    await play_watched(server, db_path, "highcard", None, LISTED)


def test_the_heuristic_takes_the_trick_cheaply_when_it_plays_last() -> None:
    heuristic = LISTING.computer.heuristic
    rng = random.Random(0)
    game = SPEC.game.new(SPEC.preset("quick"), 2, random.Random(4))
    (leader,) = game.to_move()
    view = game.view(leader)
    lead = heuristic.choose(game.rules, view, game.legal_actions(leader), rng)
    assert lead == Play(max(view.hand)), "it leads its highest card"
    game.apply(leader, lead)
    (last,) = game.to_move()
    view = game.view(last)
    chosen = heuristic.choose(game.rules, view, game.legal_actions(last), rng)
    taking = [card for card in view.hand if card.rank > view.trick[0].card.rank]
    assert chosen == Play(min(taking) if taking else min(view.hand))


async def test_it_gets_replays_without_a_line_of_replay_code(tmp_path: Path) -> None:
    """Replays are painted from the registration alone (its screens), so a
    game that exists only here replays every move, and none while it runs."""
    screens = LISTED.screens["highcard"]
    async with World.open(tmp_path / "koloda.sqlite3", FakeClock(), LISTED) as world:
        people = SPEC.seat_range(SPEC.preset()).start
        snapshot = await world.table("highcard", people=people)
        with pytest.raises(ServiceError) as early:
            await world.services.replays.of(snapshot.table.id)
        assert early.value.key == "replay.in_play"
        over = (await world.play_out(snapshot.table.id, 5)).table
        history = await world.services.replays.find(GROUP, PEOPLE[0].id, None)
        frames = list(replay_frames("ru", history, screens))
    assert len(frames) == over.moves + 1
    assert all(f"Ход {n} из {over.moves}: " in frame for n, frame in enumerate(frames) if n)
    final = SPEC.game.load(over.state or {})
    names = names_of("ru", over)
    assert screens.table("ru", final.public_view(), names, live=False).text in frames[-1]
    views = [final.view(seat) for seat in range(people)]
    for seat in range(people):
        held = screens.held("ru", views, seat) or "нет карт"
        assert f"<b>{names[seat]}</b>: {held}" in frames[-1]
    assert "Ваши карты" not in "".join(frames)
    assert "Старшая карта" in frames[0]


async def test_it_gets_duplicates_without_a_line_of_duplicate_code(tmp_path: Path) -> None:
    """The same deal with the seats turned, its replay by place and its proof,
    for a game the duplicate service has never heard of."""
    async with World.open(tmp_path / "koloda.sqlite3", FakeClock(), LISTED) as world:
        await check_duplicate_of_every_game(world, LISTED, "highcard")

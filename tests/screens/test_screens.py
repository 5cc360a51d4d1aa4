"""Screens painted from fixed snapshots: what the group and each player see."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any

import pytest

from bot.catalog import CATALOG
from delivery.hand_messages import compose_hand
from delivery.table_messages import compose_group
from games.core import Event, Place, RulesError, perform
from games.daytona import PRESETS as DAYTONA_PRESETS
from games.daytona import Daytona
from games.durak import PRESETS as DURAK_PRESETS
from games.durak import Durak, DurakRules, FirstAttack
from games.durak.actions import Take
from games.durak.rules import Trump
from games.hundred_one import PRESETS, HundredOne
from games.hundred_one.engine import Phase as HundredOnePhase
from games.hundred_one.rules import AceMode, DrawMode
from players.analysis import Assessment
from screens import common
from screens.base import GameScreens, Key
from screens.durak import DurakScreens
from screens.faces import face, faces
from services import Analysis, LoggedEvent, Mistake, Snapshot
from services.lobby import TURN_SECONDS
from storage import Actor, DeadlineRow, OnAbsence, ScoreRow, Status
from tests.e2e.harness import faces_in
from tests.screens.snapshots import NOW, seat, snapshot

MAX_LABEL = 24


def group(snap: Snapshot) -> str:
    screens: GameScreens[Any, Any] = CATALOG.screens[snap.table.game]
    composed = compose_group(snap, "ru", screens, now=NOW)
    return composed.text


def durak_snapshot(**kwargs: Any) -> tuple[Durak, Snapshot]:
    game = Durak.deal(
        DurakRules(),
        2,
        "6s 7s 8s 9s Ts Js 6c 7c 8c 9c Tc Jc Qs Ks As Qc Kc Ac 6d 7d 8d 9d Td Jd Qd Kd Ad "
        "6h 7h 8h 9h Th Jh Qh Kh Ah",
    )
    seats = (seat(0, "Anna"), seat(1, None, computer=2))
    return game, snapshot(game, seats, **kwargs)


def test_the_group_sees_the_table_but_no_hand() -> None:
    game, snap = durak_snapshot()
    text = group(snap)
    assert "Дурак" in text
    assert "🤖 Маэстро" in text  # a computer is named and marked
    public = {c.code for z in game.zones() if z.visible_to is None for c in z.cards}
    assert faces_in(text) <= public


def test_the_group_shows_whose_turn_with_the_time_left_and_who_moved_for_whom() -> None:
    game, _ = durak_snapshot()
    (mover,) = game.waits()
    deadline = DeadlineRow(5, mover, NOW + 45, NOW + 25, False)
    recent = (
        LoggedEvent(6, 0, Actor.TIMER, Event("take", 0)),
        LoggedEvent(7, 1, Actor.COMPUTER, Event("take", 1)),
    )
    seats = (seat(0, "Anna", absent=True), seat(1, "Boris"))
    text = group(snapshot(game, seats, deadlines=(deadline,), recent=recent))
    name = ["Anna", "Boris"][mover]
    assert f"⏳ {name}" in text
    assert "45 с" in text
    assert "⏰ " in text
    assert "🤖 " in text


def test_the_group_shows_no_countdown_for_a_seat_a_computer_plays() -> None:
    game, _ = durak_snapshot()
    (mover,) = game.waits()
    names = ["Anna", "Boris"]
    seats = tuple(seat(n, name, absent=n == mover) for n, name in enumerate(names))
    text = group(snapshot(game, seats))  # an away seat has no deadline
    assert f"⏳ {names[mover]} 💤" in text
    assert " — " not in text.split("⏳", 1)[1]


def test_a_hand_shows_the_seats_own_cards_and_a_button_per_move() -> None:
    game, snap = durak_snapshot()
    (mover,) = game.waits()
    screens = CATALOG.screens["durak"]
    composed, acting = compose_hand(snap, mover, "ru", screens, now=NOW)
    assert acting
    own = {c.code for c in game.hand(mover)}
    trump = snap.public.trump_card.code
    assert faces_in(composed.text) == own | {trump}
    assert composed.markup is not None
    datas = [b.data for row in composed.markup for b in row]
    assert all(isinstance(d, str) and d.startswith("m:5:7:") for d in datas)
    other, acting = compose_hand(snap, 1 - mover, "ru", screens, now=NOW)
    assert not acting
    assert faces_in(other.text) == {c.code for c in game.hand(1 - mover)} | {trump}
    assert other.markup is None


def test_an_absent_players_hand_says_a_computer_stands_in_and_offers_a_way_back() -> None:
    game, _ = durak_snapshot()
    seats = (seat(0, "Anna", absent=True), seat(1, "Boris", absent=True))
    snap = snapshot(game, seats)
    composed, _ = compose_hand(snap, 0, "ru", CATALOG.screens["durak"], now=NOW)
    assert "компьютер" in composed.text
    assert composed.markup is not None
    labels = [b.label for row in composed.markup for b in row]
    assert "🙋 Я здесь" in labels


def test_101s_next_round_is_a_group_button_and_a_button_in_each_players_dm() -> None:
    game = HundredOne.new(PRESETS["classic"], 2, random.Random(4))
    rng = random.Random(2)
    while game.public_view().phase is not HundredOnePhase.ROUND_OVER:
        (mover,) = game.to_move()
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    snap = snapshot(game, (seat(0, "Anna"), seat(1, "Boris")))
    screens = CATALOG.screens["101"]
    composed = compose_group(snap, "ru", screens, now=NOW)
    assert composed.markup is not None
    labels = [b.label for row in composed.markup for b in row]
    assert "▶️ Следующий кон" in labels
    for player in (0, 1):
        hand, acting = compose_hand(snap, player, "ru", screens, now=NOW)
        assert not acting  # nobody is hurried past the score sheet
        assert hand.markup is not None
        assert [(b.label, b.data) for row in hand.markup for b in row] == [
            ("▶️ Следующий кон", "m:5:7:n")
        ]
        assert "Кон окончен. Следующий — кнопкой ниже" in hand.text


@pytest.mark.parametrize("key", sorted(CATALOG.specs))
def test_every_game_has_its_screens_and_a_computer_player(key: str) -> None:
    listing = next(entry for entry in CATALOG.listings if entry.spec.key == key)
    spec = listing.spec
    rules = spec.preset()
    seats = spec.seat_range(rules).start
    game = spec.game.new(rules, seats, random.Random(1))
    snap = snapshot(game, tuple(seat(n, f"P{n}") for n in range(seats)))
    assert group(snap)
    for n in range(seats):
        composed, _ = compose_hand(snap, n, "en", listing.screens, now=NOW)
        assert composed.text
        legal = snap.legal(n)
        if legal:
            choice = listing.computer.heuristic.choose(rules, snap.view(n), legal, random.Random(n))
            assert choice in legal
        for action in legal:
            if action.place is Place.TABLE:
                assert listing.screens.table_key("en", action, snap.public)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_lobby_buttons_fit_a_phone(lang: str) -> None:
    """Every option button, at every value it can take, is at most 24 characters."""
    too_long = []
    for spec in CATALOG.specs.values():
        for preset in spec.presets.values():
            for name, choices in spec.rules.options():
                for value in choices:
                    try:
                        rules = preset.replace(**{name: value})
                    except RulesError:
                        continue
                    label = common.option_label(lang, spec, rules, name)
                    if len(label) > MAX_LABEL:
                        too_long.append(label)
    for seconds in TURN_SECONDS:
        too_long += [x for x in [common.turn_label(lang, seconds)] if len(x) > MAX_LABEL]
    for absence in OnAbsence:
        label = common.absence_label(lang, absence)
        too_long += [label] if len(label) > MAX_LABEL else []
    assert not too_long


def test_the_lobby_is_a_short_summary_and_hides_what_does_not_apply() -> None:
    spec = CATALOG.specs["101"]
    rules = spec.preset("classic")
    game = spec.game.new(rules, 2, random.Random(1))
    lobby = snapshot(game, (seat(0, "Anna"), seat(1, "Boris")), status=Status.LOBBY)
    lobby = Snapshot(lobby.table, spec, rules, None, (), ())
    screens = CATALOG.screens["101"]
    text = compose_group(lobby, "ru", screens, now=NOW).text
    assert "36 карт · по 5 · заказывает дама · до 101" in text
    assert len(text.splitlines()) < 12
    options = compose_group(lobby, "ru", screens, now=NOW, options_open=True)
    assert options.markup is not None
    labels = [b.label for row in options.markup for b in row]
    assert not any(label.startswith("7 и 8") for label in labels)  # only with 32 cards
    assert any(label.startswith("Колода") for label in labels)


def test_hand_buttons_follow_the_hand_with_trumps_last_and_marked() -> None:
    game, snap = durak_snapshot()
    (mover,) = game.waits()
    composed, _ = compose_hand(snap, mover, "ru", CATALOG.screens["durak"], now=NOW)
    assert composed.markup is not None
    singles = [b.label for row in composed.markup for b in row if " " not in b.label]
    hand = snap.view(mover).hand
    trump = snap.public.trump
    expected = [face(c.code) + ("★" if c.suit is trump else "") for c in hand]
    assert singles == [label for label in expected if label in singles]
    assert singles[-1].endswith("★")  # trumps come last, marked (buttons cannot be bold)


def test_a_defenders_beats_show_whole_two_to_a_row_in_the_order_of_the_hand() -> None:
    """ "10♦️★ → 10♥️" four to a row was cut to "10♦…" on a phone."""
    game = Durak.position(
        DURAK_PRESETS["podkidnoy"],
        ["Th 8c", "Jh Qh 8s 6d 7d Td 9s"],
        attacker=0,
        trump="d",
        stock=["6c"],
    )
    game.apply(0, Durak.decode_action("aTh"))
    screen = DurakScreens().hand(
        "en", game.view(1), game.legal_actions(1), ["Anna", "Boris"], None, live=True
    )
    beats = [[key.label for key in row] for row in screen.keys[:-1]]
    assert beats == [
        ["8♠️", "9♠️"],  # they cannot beat the ten: shown disabled, in the hand's order
        ["J♥️→10♥️", "Q♥️→10♥️"],
        ["6♦️★→10♥️", "7♦️★→10♥️"],
        ["10♦️★→10♥️"],
    ]
    assert all(key.disabled for key in screen.keys[0])
    assert not any(key.disabled for row in screen.keys[1:] for key in row)
    assert [key.action for key in screen.keys[-1]] == [Take().encode()]


def test_suits_are_drawn_as_emoji_so_hearts_and_diamonds_are_red() -> None:
    assert face("Th") == "10♥️"
    assert face("7s") == "7♠️"
    assert faces(["Qd", "Ac"]) == "Q♦️ A♣️"


def test_akulina_composes_a_lead_of_several_cards_of_one_suit() -> None:
    """A key per card toggles it into the lead (the screen's focus holds the
    cards chosen); one key plays them; no key per subset."""
    game = Durak.position(
        DURAK_PRESETS["akulina"],
        ["6s 9s Qs 7h", "8d 8h Th Jh Kc Ac"],
        attacker=0,
        trump_card="Ad",
        stock=["6c", "7c"],
    )
    screens = DurakScreens()
    view, actions = game.view(0), game.legal_actions(0)

    def keys(focus: str | None) -> list[Key]:
        screen = screens.hand("ru", view, actions, ["Anna", "Boris"], focus, live=True)
        return [key for row in screen.keys for key in row]

    main = keys(None)
    assert len(main) == 5  # four single cards and "several"
    several = next(k for k in main if k.focus == "s")
    chosen = keys(several.focus)
    assert [k.label for k in chosen][:-1] == ["6♠️", "9♠️", "Q♠️", "7♥️"]
    spade = next(k for k in chosen if k.label == "6♠️")
    after = keys(spade.focus)
    assert "7♥️" not in [k.label for k in after]  # one suit only
    nine = next(k for k in after if k.label == "9♠️")
    both = keys(nine.focus)
    lead = next(k for k in both if k.action is not None)
    assert lead.action == "a6s9s"
    assert sum(k.label.startswith("☑️") for k in both) == 2
    forged = keys("s6s7hXX")  # a forged focus only ever shows legal leads
    assert all(k.action is None or k.action in {a.encode() for a in actions} for k in forged)


def test_believe_covers_show_their_backs_and_the_attacker_gets_the_verdict_keys() -> None:
    game = Durak.position(
        DURAK_PRESETS["believe"], ["7s 7c Ah", "9s 6d Kh"], attacker=0, trump="h", stock=["6c"]
    )
    game.apply(0, Durak.decode_action("a7s7c"))
    game.apply(1, Durak.decode_action("f7s6d"))
    screens = DurakScreens()
    names = ["Anna", "Boris"]
    table = screens.table("ru", game.public_view(), names, live=True).text
    assert "7♠️ ← 🂠" in table
    assert "6♦️" not in table
    own = screens.hand("ru", game.view(1), game.legal_actions(1), names, None, live=True)
    assert "🂠6♦️" in own.text  # the defender sees what he put face down
    game.apply(1, Durak.decode_action("f7c9s"))
    attacker = screens.hand("ru", game.view(0), game.legal_actions(0), names, None, live=True)
    assert [k.action for row in attacker.keys for k in row] == ["y", "n"]
    assert "6♦️" not in attacker.text


def test_an_analysis_names_a_better_move_that_tells_nothing_by_its_key() -> None:
    """Passing while another player may still throw in makes no line of its
    own; the analysis names it by the key the player had."""
    game = Durak.position(
        DURAK_PRESETS["podkidnoy"], ["7s 7d 8c", "9s 6d 6c", "7c Kd Qd"], attacker=0, trump="h"
    )
    perform(game, 0, "a7s")
    perform(game, 1, "b7s9s")
    assert game.to_move() == {0, 2}
    better = perform(game.clone(), 0, "p")
    assert [e.kind for e in better] == ["pass"]
    mistake = Mistake(
        12,
        Assessment("t7d", "p", 0.2, 0.6, in_points=False, significant=True),
        perform(game.clone(), 0, "t7d"),
        better,
        Durak.decode_action("t7d"),
        Durak.decode_action("p"),
        game.view(0),
    )
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"), seat(2, "Vera"))).table
    analysis = Analysis(table, 0, 3, (mistake,), 0.5, 0.5, in_points=False)
    text = common.analysis_text("ru", analysis, CATALOG.specs["durak"], DurakScreens())
    assert "1. Ход 12: Вы подкидываете 7♦️. Лучше: «✅ Бито» — оценка места 20 → 60 из 100." in text
    text = common.analysis_text("en", analysis, CATALOG.specs["durak"], DurakScreens())
    assert "Better: “✅ Done”" in text


def _a7s_not_a8c(
    game: Durak, values: tuple[float, float] = (0.2, 0.6), *, in_points: bool = False
) -> Mistake:
    """Move 12 of an analysis: Anna led 7♠ where 8♣ was worth more."""
    played, better = Durak.decode_action("a7s"), Durak.decode_action("a8c")
    return Mistake(
        12,
        Assessment("a7s", "a8c", *values, in_points=in_points, significant=True),
        perform(game.clone(), 0, "a7s"),
        perform(game.clone(), 0, "a8c"),
        played,
        better,
        game.view(0),
    )


@pytest.mark.parametrize(
    ("lang", "shown"), [("ru", "Ход 12"), ("uk", "Хід 12"), ("en", "Move 12"), ("ka", "სვლა 12")]
)
def test_an_analysis_move_opens_the_replay_at_that_move(lang: str, shown: str) -> None:
    """ "Ход 82" alone sent the player pressing ▶ in /replay 82 times to see
    it: the move's number links to the replay opened at that move, and a
    line says so."""
    game = Durak.position(
        DURAK_PRESETS["podkidnoy"], ["7s 7d 8c", "9s 6d 6c"], attacker=0, trump="h"
    )
    mistake = _a7s_not_a8c(game)
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"))).table
    analysis = Analysis(table, 0, 3, (mistake,), 0.5, 0.5, in_points=False)

    def link(move: int) -> str:
        return f"https://t.me/koloda_bot?start=p{table.id}_{move}"

    spec, screens = CATALOG.specs["durak"], DurakScreens()
    text = common.analysis_text(lang, analysis, spec, screens, replay_link=link)
    assert f'1. <a href="{link(12)}">{shown}</a>: ' in text
    hint = text.splitlines()[-2]
    assert "/replay" in hint or "🎬" in hint, hint
    clean = replace(analysis, mistakes=())
    assert "href" not in common.analysis_text(lang, clean, spec, screens, replay_link=link)


def test_an_analysis_names_a_daytona_deuce_reading_by_its_key() -> None:
    """A deuce read as a 2 or as a joker was told by the group's line, in the
    third person, in the player's own DM: "Ход 60: Gleb: двойка как двойка.
    Лучше: Gleb: двойка как джокер"; it is named by the key he pressed."""
    spec, screens = CATALOG.specs["daytona"], CATALOG.screens["daytona"]
    rng = random.Random(3)
    game = spec.game.new(spec.preset(), 2, rng)
    for _ in range(2000):
        (mover,) = sorted(game.to_move())[:1]
        actions = game.legal_actions(mover)
        if mover == 0 and len(actions) == 2:
            break
        perform(game, mover, rng.choice(actions).encode())
    else:
        pytest.fail("no deuce drawn")
    two, joker = sorted(actions, key=lambda a: a.encode())
    mistake = Mistake(
        60,
        Assessment(two.encode(), joker.encode(), 0.4, 0.6, in_points=True, significant=True),
        perform(game.clone(), 0, two.encode()),
        perform(game.clone(), 0, joker.encode()),
        two,
        joker,
        game.view(0),
    )
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"))).table
    analysis = Analysis(table, 0, 1, (mistake,), 0.5, 0.5, in_points=True)
    lines = common.analysis_text("ru", analysis, spec, screens).splitlines()
    (line,) = (line for line in lines if line.startswith("1. "))
    assert "Anna" not in line, line
    assert "«2️⃣ Как двойку»" in line, line
    assert "«🃏 Как джокера»" in line, line


@pytest.mark.parametrize(
    ("lang", "chance", "place"),
    [
        ("ru", "шансы 20% → 60%", "оценка места 20 → 60 из 100"),
        ("uk", "шанси 20% → 60%", "оцінка місця 20 → 60 зі 100"),
        ("en", "chances 20% → 60%", "place score 20 → 60 out of 100"),
        ("ka", "შანსი 20% → 60%", "ადგილის შეფასება 20 → 60 100-დან"),
    ],
)
def test_an_analysis_calls_a_place_score_no_chance(lang: str, chance: str, place: str) -> None:
    """With two players a move's value is his chance of winning; with more it
    is his place on the luck line's scale (1st: 100, last: 0, 2nd of 4: 67),
    and "шансы 0% → 67%" told a player who was never the durak's favourite
    that he had had no chance at all."""
    hands = ["7s 7d 8c", "9s 6d 6c", "7c Kd Qd", "Ts Td Tc"]
    for seats, shown, not_shown in ((2, chance, place), (3, place, chance), (4, place, chance)):
        game = Durak.position(DURAK_PRESETS["podkidnoy"], hands[:seats], attacker=0, trump="h")
        mistake = _a7s_not_a8c(game)
        names = ("Anna", "Boris", "Vera", "Gleb")[:seats]
        table = snapshot(game, tuple(seat(i, name) for i, name in enumerate(names))).table
        analysis = Analysis(table, 0, 3, (mistake,), 0.5, 0.5, in_points=False)
        text = common.analysis_text(lang, analysis, CATALOG.specs["durak"], DurakScreens())
        assert shown in text, (seats, text)
        assert not_shown not in text, (seats, text)


def test_a_georgian_analysis_puts_its_points_in_the_instrumental() -> None:
    """ "საშუალოდ 4 ქულა-ით უკეთესი" hung the case ending on the noun with a
    hyphen, as only numerals take it: "better by 4 points" is "4 ქულით"."""
    game = Durak.position(
        DURAK_PRESETS["podkidnoy"], ["7s 7d 8c", "9s 6d 6c"], attacker=0, trump="h"
    )
    mistake = _a7s_not_a8c(game, (1.0, 5.2), in_points=True)
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"))).table
    analysis = Analysis(table, 0, 3, (mistake,), 0.5, 0.5, in_points=True)
    text = common.analysis_text("ka", analysis, CATALOG.specs["durak"], DurakScreens())
    assert "საშუალოდ 4 ქულით უკეთესი" in text, text
    assert "-ით" not in text


def test_an_analysis_names_a_believe_verdict_by_its_key() -> None:
    screens = DurakScreens()
    assert screens.move_name("ru", Event("believe", 1)) == "«👍 Верю»"
    assert screens.event("ru", Event("believe", 1), ["Anna", "Boris"], 1) == "Вы: «Верю!»"
    assert screens.move_name("ru", Event("attack", 1, ())) is None  # its line is a sentence


@pytest.mark.parametrize("game_key", ["joker", "101"])
def test_an_analysis_names_cards_played_by_the_cards_not_by_the_dms_you_colon_line(
    game_key: str,
) -> None:
    """A card play's DM line is "Вы: 7♠️", which read "Ход 5: Вы: 7♠️. Лучше:
    Вы: 9♠️" in the analysis: it names the cards alone."""
    spec = CATALOG.specs[game_key]
    screens = CATALOG.screens[game_key]
    rng = random.Random(5)
    game = spec.game.new(spec.preset(), 3, rng)
    for _ in range(200):
        (mover,) = sorted(game.to_move())[:1]
        plays = [a for a in game.legal_actions(mover) if "play" in type(a).__name__.lower()]
        if len(plays) >= 2 and mover == 0:
            break
        perform(game, mover, rng.choice(game.legal_actions(mover)).encode())
    else:
        pytest.fail("no choice of two cards to play")
    played, better = plays[0], plays[1]
    mistake = Mistake(
        5,
        Assessment(played.encode(), better.encode(), 0.2, 0.6, in_points=False, significant=True),
        perform(game.clone(), 0, played.encode()),
        perform(game.clone(), 0, better.encode()),
        played,
        better,
        game.view(0),
    )
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"), seat(2, "Vera"))).table
    analysis = Analysis(table, 0, 3, (mistake,), 0.5, 0.5, in_points=False)
    (line,) = (
        line
        for line in common.analysis_text("ru", analysis, spec, screens).splitlines()
        if line.startswith("1. ")
    )
    assert "Вы:" not in line
    assert re.match(r"1\. Ход 5: \S+.*\. Лучше: \S+.* — оценка места 20 → 60 из 100\.$", line), line


@pytest.mark.parametrize("lang", ["ru", "uk", "en", "ka"])
def test_the_luck_line_says_what_its_number_is(lang: str) -> None:
    """'ваше место набирает 8% при среднем 50%' told nobody what 8% was: the
    line says the computer played the deal for everybody 24 times, what his
    cards made on a scale of 100 and what the scale means, and whether his
    cards were better or worse than the table's."""
    game = Durak.new(DURAK_PRESETS["podkidnoy"], 2, random.Random(3))
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"))).table
    lucky = Analysis(table, 0, 3, (), 0.92, 0.5, in_points=False)
    unlucky = replace(lucky, luck=0.08)
    points = replace(lucky, in_points=True, luck=0.55)
    good, bad, even = (common.luck_text(lang, a) for a in (lucky, unlucky, points))
    for line in (good, bad, even):
        assert "24" in line
        assert "{" not in line
        assert "50." not in line  # the table's mean by place is always a half: not said
    if lang == "ru":
        assert good == (
            "🍀 Удача: компьютер 24 раза сыграл эту сдачу за всех. С вашими картами — 92 из 100"
            " (100 — всякий раз первое место, 0 — всякий раз последнее). Карты вам пришли"
            " лучше средних."
        )
        assert "8 из 100" in bad
        assert bad.endswith("Карты вам пришли хуже средних.")
        assert "(50 — вровень с остальными по очкам, больше — впереди них)" in even
        assert even.endswith("Карты вам пришли средние.")
    assert len({good, bad, even}) == 3


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "каждую раздачу вашей игры (12) — по 6 раз"),
        ("uk", "кожну роздачу вашої гри (12) — по 6 разів"),
        ("en", "each deal of your game (12) for everybody, 6 times each"),
        ("ka", "ყოველი დარიგება (12)"),
    ],
)
def test_the_luck_of_a_game_of_many_deals_says_it_is_every_deals(lang: str, said: str) -> None:
    """A Joker game's luck was measured on its first deal alone (one card
    each) and told as "сыграл эту сдачу": it is the mean over every deal of
    the game, and the line says so."""
    game = Durak.new(DURAK_PRESETS["podkidnoy"], 2, random.Random(3))
    table = snapshot(game, (seat(0, "Anna"), seat(1, "Boris"))).table
    analysis = Analysis(table, 0, 3, (), 0.61, 0.5, in_points=True, playouts=6, rounds=12)
    line = common.luck_text(lang, analysis)
    assert said in line, line
    assert "{" not in line
    one = common.luck_text(lang, replace(analysis, rounds=1, playouts=24))
    assert said not in one
    assert "24" in one


def test_101s_result_shows_the_last_round_with_true_minus_signs() -> None:
    """The last round has no sheet of its own: the result shows it, so that
    its points are not a jump; a total below zero has a minus sign, not a
    hyphen."""
    screens = CATALOG.screens["101"]
    rules = PRESETS["classic"].replace(queen_discard=True)
    game = HundredOne.new(rules, 2, random.Random(11))  # Boris ends on −3
    chooser = random.Random(11)
    while game.to_move():
        seat = min(game.to_move())
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
    view = game.public_view()
    outcome = game.outcome()
    assert outcome is not None
    assert view.last_round is not None
    text = screens.result("ru", outcome, view, ["Anna", "Boris"]).text
    assert f"📋 <b>Кон {view.round}</b>" in text
    assert not re.search(r"(?<![\w-])-\d", text)
    assert view.totals[1] == -3
    assert "Boris: 0 → −3" in text
    assert "1. Boris — −3 очка" in text


def test_a_lobby_line_of_options_starts_with_a_capital() -> None:
    """A summary is lower case, as its parts read within a line; on the
    lobby's line of its own it starts with a capital («Цель: 30 очков»)."""
    rules = DAYTONA_PRESETS["sprint"]
    playing = snapshot(Daytona.new(rules, 2, random.Random(1)), (seat(0, "Anna"), seat(1, "Boris")))
    table = replace(playing.table, status=Status.LOBBY, state=None, moves=0)
    lobby = Snapshot(table, CATALOG.specs["daytona"], rules, None, (), ())
    text = common.lobby_text("ru", lobby, CATALOG.screens["daytona"])
    assert "\nЦель: 30 очков · " in text
    # Georgian writes no capitals: Python's upper() would turn its first
    # letter into Mtavruli («Მიზანი»), a letter of another alphabet there.
    georgian = common.lobby_text("ka", lobby, CATALOG.screens["daytona"])
    assert "\nმიზანი: 30 ქულა · " in georgian
    assert not re.search("[\u1c90-\u1cbf]", georgian)


def test_rules_changed_by_hand_say_which_variant_they_are_based_on() -> None:
    """Only the deck changed in podkidnoy: the lobby names podkidnoy with its
    own settings (not a bare «свои настройки»), and says where to change them
    only while they may be changed (the lobby), never in a game's /rules."""
    rules = DURAK_PRESETS["perevodnoy"].replace(deck_size=52)
    spec, screens = CATALOG.specs["durak"], CATALOG.screens["durak"]
    assert spec.preset_name(rules) is None
    assert spec.based_on(rules) == "perevodnoy"
    assert spec.based_on(DURAK_PRESETS["refusal"]) == "refusal"
    playing = snapshot(Durak.new(rules, 2, random.Random(1)), (seat(0, "Anna"), seat(1, "Boris")))
    table = replace(playing.table, status=Status.LOBBY, state=None, moves=0)
    lobby = Snapshot(table, spec, rules, None, (), ())
    text = common.lobby_text("ru", lobby, screens)
    assert text.startswith("🃏 <b>Дурак</b> · переводной, свои настройки\n")
    assert "За основу взят вариант «переводной», правила изменены: каждое — в ⚙️" in text
    for status in (Status.PLAYING, Status.FINISHED):
        shown = replace(playing.table, status=status)
        told = common.rules_text("ru", spec, screens, rules, shown)
        assert "переводной, свои настройки" in told
        assert "За основу взят вариант «переводной», правила изменены — все они ниже." in told
        assert "⚙️" not in told, "nothing can be changed once the game is dealt"
    in_lobby = common.rules_text("ru", spec, screens, rules, table)
    assert "каждое — в ⚙️ Настройках" in in_lobby


def test_option_labels_say_what_they_do_without_the_rules_page() -> None:
    """'Реванш: под дурака', 'Can't play: draw on' beside 'draw one', 'Minus
    ceiling → 0' and 'Ace: English' needed the rules page to be understood."""
    durak, hundred = CATALOG.specs["durak"], CATALOG.specs["101"]
    under = DURAK_PRESETS["podkidnoy"].replace(later_first_attack=FirstAttack.UNDER_LOSER)
    assert common.option_label("ru", durak, under, "later_first_attack") == "Реванш: ход под дурака"
    lowest = DURAK_PRESETS["podkidnoy"]
    assert common.option_label("ru", durak, lowest, "later_first_attack") == (
        "Реванш: младший козырь"
    )
    assert common.option_label("en", durak, under, "later_first_attack") == "Rematch: attack loser"
    classic = PRESETS["classic"]
    labels = {
        common.option_label("en", hundred, classic.replace(**{name: value}), name)
        for name, value in (
            ("draw", DrawMode.UNTIL),
            ("draw", DrawMode.ONE),
            ("ace", AceMode.ENGLISH),
        )
    }
    assert labels == {
        "Can't play: draw to fit",
        "Can't play: draw one",
        "Ace: 2nd card + order",
    }
    assert common.option_label("en", hundred, classic, "minus_reset").endswith("Exact −ceiling → 0")


@pytest.mark.parametrize("preset", ["podkidnoy", "blind"])
def test_the_group_sees_the_cards_a_player_picked_up_but_not_in_blind_durak(
    preset: str,
) -> None:
    """Everybody saw him pick them up, and the computers remember them: the
    table says them beside his count, until he plays them.  In blind durak
    he may not see his own cards, and he reads the group."""
    rng = random.Random(1)
    game = Durak.new(DURAK_PRESETS[preset], 3, rng)
    while not any(game.public_view().known):
        mover = min(game.to_move())
        game.apply(mover, rng.choice(game.legal_actions(mover)))
    view = game.public_view()
    (taker,) = (s for s in range(3) if view.known[s])
    people = tuple(seat(n, name) for n, name in enumerate(["Anna", "Boris", "Vera"]))
    text = group(snapshot(game, people))
    (line,) = (row for row in text.splitlines() if ["Anna", "Boris", "Vera"][taker] in row)
    shown = faces(c.code for c in view.known[taker])
    if preset == "blind":
        assert "известны" not in text
        assert not faces_in(line)
    else:
        assert line.endswith(f" · известны: {shown}")


@pytest.mark.parametrize("lang", ["ru", "en", "uk", "ka"])
def test_stats_counts_the_places_between_winning_and_losing(lang: str) -> None:
    """Second of three at 101 is neither a win nor a loss: /stats says so, so
    that its figures add up to the games played; a row with no such game
    keeps its four figures."""
    between = ScoreRow(1, "Аня", "101", True, played=3, wins=1, losses=0, draws=0)
    durak = ScoreRow(1, "Аня", "durak", False, played=2, wins=1, losses=1, draws=0)
    lines = common.stats_text(lang, "Аня", [between, durak], CATALOG.specs).splitlines()
    assert re.findall(r"\d+", lines[1]) == ["101", "3", "1", "0", "0", "2"]
    assert re.findall(r"\d+", lines[2]) == ["2", "1", "1", "0"]


def test_a_spade_shown_without_a_stock_is_named_while_the_dealer_names_the_trump() -> None:
    """Diamonds durak among six has no stock: the spade shown is the
    dealer's last card, which everybody saw, so the table names it."""
    rules = replace(DURAK_PRESETS["diamonds"], trump=Trump.SPADE_NAMED)
    game = Durak.new(rules, 6, random.Random(0))
    view = game.public_view()
    assert view.stock == 0
    assert view.trump_card is None
    (shown,) = view.known[view.dealer]
    people = tuple(seat(n, name) for n, name in enumerate("ABCDEF"))
    text = group(snapshot(game, people))
    assert f"Открыта пика {face(shown.code)}: козырь назначает сдающий" in text


def test_a_refusal_is_told_to_both_the_attacker_out_of_cards_and_the_defender() -> None:
    """Perevodnoy with refusal, two players left: Anna leads her last card.
    She is not out yet (Boris may send it back), and Boris is told that he may
    refuse, and what it does; the refusal's line names no card count it
    cannot agree with."""
    game = Durak.position(
        DURAK_PRESETS["refusal"], ["7s", "7h 9d Ac"], attacker=0, trump="c", stock=[]
    )
    perform(game, 0, "a7s")
    snap = snapshot(game, (seat(0, "Аня"), seat(1, "Борис")))
    attacker, _ = compose_hand(snap, 0, "ru", CATALOG.screens["durak"], now=NOW)
    assert "Вы вышли из игры" not in attacker.text
    assert "Борис может отказать: тогда карты вернутся к вам" in attacker.text
    names = ["Аня", "Борис"]
    screens = DurakScreens()
    defender = screens.hand("ru", game.view(1), game.legal_actions(1), names, None, live=True)
    assert "Отбейтесь или откажите: ↪ — и карты хода заберёт Аня" in defender.text
    assert "↪ 7♥️" in [key.label for row in defender.keys for key in row]
    group = screens.table("ru", game.public_view(), names, live=True).text
    assert "Отбивается: Борис — или отказывает, и тогда карты хода заберёт Аня." in group
    # Boris without a card to beat 7♠ with may refuse or take, not beat.
    bare = Durak.position(
        DURAK_PRESETS["refusal"], ["7s", "7h 9d Ah"], attacker=0, trump="c", stock=[]
    )
    perform(bare, 0, "a7s")
    cannot = screens.hand("ru", bare.view(1), bare.legal_actions(1), names, None, live=True)
    assert "Нечем бить 7♠️ — откажите (↪), и карты хода заберёт Аня, или берите." in cannot.text
    refused = perform(game, 1, "x7h")
    lines = [screens.event("ru", e, names) for e in refused]
    assert lines[0] == "Борис отказывает (↪ 7♥️): карты хода уходят назад, их забирает Аня"

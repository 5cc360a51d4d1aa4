"""Every line of a DM is written to its reader: the second person for his own
moves and his own role, the third person for the others, in Russian and in
English; and the 🤖 / ⏰ marks sit on the mover's own action only, in the group
and in the DMs alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.catalog import CATALOG
from delivery.hand_messages import compose_hand
from delivery.table_messages import compose_group
from games.cards import Card
from games.core import Event
from games.durak import PRESETS as DURAK
from games.durak import Durak
from games.hundred_one import PRESETS as HUNDRED_ONE
from games.hundred_one import HundredOne
from games.hundred_one.engine import Phase as HundredOnePhase
from i18n import t
from players import DurakHeuristic
from screens.durak import DurakScreens
from screens.faces import face
from screens.hundred_one import HundredOneScreens
from screens.joker import JokerScreens
from services import LoggedEvent, Snapshot
from storage import Actor, SeatRow, Status
from tests.screens.snapshots import NOW, seat, snapshot

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
DURAK_SCREENS = DurakScreens()


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes.split())


def people(n: int) -> tuple[SeatRow, ...]:
    return tuple(seat(i, NAMES[i]) for i in range(n))


def played(game: Any, moves: list[tuple[int, str]]) -> tuple[int, tuple[LoggedEvent, ...]]:
    """Apply ``moves`` (seat, action code); the move count and the log's last events."""
    recent: list[LoggedEvent] = []
    for n, (mover, code) in enumerate(moves, 1):
        events = game.apply(mover, game.decode_action(code))
        recent += [LoggedEvent(n, mover, Actor.PLAYER, e) for e in events]
    return len(moves), tuple(recent[-6:])


def dm(snap: Snapshot, reader: int, lang: str = "ru") -> tuple[str, list[str]]:
    """A seat's DM: its text and the labels of its buttons that do something
    (not the cards shown disabled, which cannot be played now)."""
    composed, _ = compose_hand(snap, reader, lang, CATALOG.screens[snap.table.game], now=NOW)
    labels = [b.label for row in composed.markup or () for b in row if not b.disabled]
    return composed.text, labels


# --- Durak: each role reads his own situation ------------------------------------


@pytest.mark.parametrize("preset", ["podkidnoy", "teams"])
def test_a_player_out_of_cards_reads_one_unchanging_screen_until_the_end(preset: str) -> None:
    """Out of cards while the others play on, a player has nothing to do: his
    DM says so and never changes (no turns, no others' moves) until the
    game's end tells him how it ended."""
    rng = random.Random(3)
    game = Durak.new(DURAK[preset], 4, rng)
    heuristic = DurakHeuristic()
    log: list[LoggedEvent] = []
    out: int | None = None
    shown: set[str] = set()
    moves = after = 0
    while game.outcome() is None:
        mover = min(game.to_move())
        legal = game.legal_actions(mover)
        chosen = heuristic.choose(game.rules, game.view(mover), legal, rng)
        (action,) = (a for a in legal if a == chosen)
        log += [LoggedEvent(moves + 1, mover, Actor.PLAYER, e) for e in game.apply(mover, action)]
        moves += 1
        gone = [s for s in range(4) if s not in game.public_view().active]
        if out is None and gone:
            out = gone[0]
        if out is None or game.outcome() is not None:
            continue
        after += 1
        snap = snapshot(game, people(4), recent=tuple(log[-6:]), moves=moves)
        shown.add(dm(snap, out)[0])
    assert out is not None
    assert after > 10  # the others played on for a while
    assert len(shown) == 1, shown
    (text,) = shown
    assert "Вы вышли из игры — ждите конца партии." in text
    assert "Ход:" not in text
    final = snapshot(game, people(4), moves=moves, status=Status.FINISHED)
    assert dm(final, out)[0] != text


def two_player_bout(lang_moves: list[tuple[int, str]]) -> Snapshot:
    game = Durak.position(
        DURAK["podkidnoy"], ["7s 7c Ah 8d", "9s 6d Kh Ks"], attacker=0, trump="h", stock=["6c"]
    )
    moves, recent = played(game, lang_moves)
    return snapshot(game, people(2), recent=recent, moves=moves)


@pytest.mark.parametrize(
    ("lang", "attacker_sees", "defender_sees", "defender_role"),
    [
        ("ru", "Вы ходите: 7♠️", "Anna ходит на вас: 7♠️", "Отбивайтесь!"),
        ("en", "You attack: 7♠️", "Anna attacks you: 7♠️", "Defend!"),
    ],
)
def test_the_attacker_reads_his_own_lead_and_the_defender_that_it_is_against_him(
    lang: str, attacker_sees: str, defender_sees: str, defender_role: str
) -> None:
    snap = two_player_bout([(0, "a7s")])
    text, _ = dm(snap, 1, lang)
    assert defender_sees in text
    assert defender_role in text
    assert "Anna ходит: " not in text
    assert "Anna attacks: " not in text
    text, labels = dm(snap, 0, lang)  # he may throw in his other seven meanwhile
    assert attacker_sees in text
    assert "Anna" not in text
    assert labels == ["+7♣️"]


@pytest.mark.parametrize(
    ("lang", "defender_sees", "thrower_sees", "group_sees", "wrong"),
    [
        (
            "ru",
            "Вы всё отбили — ждём, подкинут ли ещё.",
            "Boris бьёт 7♠️ картой 9♠️",
            "Отбивается: Boris — подкидывайте или «Бито»",
            "подкидывайте",
        ),
        (
            "en",
            "You have beaten everything — waiting for throw-ins.",
            "Boris beats 7♠️ with 9♠️",
            "Defending: Boris — throw in or say done",
            "throw in or say done",
        ),
    ],
)
def test_a_defender_who_beat_everything_is_not_told_to_throw_in(
    lang: str, defender_sees: str, thrower_sees: str, group_sees: str, wrong: str
) -> None:
    snap = two_player_bout([(0, "a7s"), (1, "b7s9s")])
    text, labels = dm(snap, 1, lang)
    assert defender_sees in text
    assert wrong not in text
    assert "Boris" not in text  # nobody is named to himself
    assert labels == []
    text, labels = dm(snap, 0, lang)  # the attacker may throw in the other seven
    assert thrower_sees in text
    assert labels[-1] == ("✅ Бито" if lang == "ru" else "✅ Done")
    group = compose_group(snap, lang, DURAK_SCREENS, now=NOW).text
    assert group_sees in group


@pytest.mark.parametrize(
    ("lang", "taker_sees", "thrower_sees", "wrong"),
    [
        ("ru", "Вы берёте — вам могут подкинуть.", "Boris берёт — можно подкинуть.", "Boris"),
        ("en", "You take — others may still throw in.", "Boris takes — you may throw in.", "Boris"),
    ],
)
def test_the_taker_reads_that_he_takes_and_the_thrower_that_he_may_throw_in(
    lang: str, taker_sees: str, thrower_sees: str, wrong: str
) -> None:
    snap = two_player_bout([(0, "a7s"), (1, "k")])
    text, labels = dm(snap, 1, lang)
    assert taker_sees in text
    assert ("Вы берёте" if lang == "ru" else "You take") in text  # his own move
    assert wrong not in text
    assert "можно подкинуть" not in text
    assert "you may throw in" not in text
    assert labels == []
    text, labels = dm(snap, 0, lang)
    assert thrower_sees in text
    assert labels[-1] == ("✋ Забирай" if lang == "ru" else "✋ Let them take")  # the taker takes


@pytest.mark.parametrize(
    ("lang", "prompt", "wrong"),
    [
        ("ru", "Ваш ход вслепую: выберите карту по номеру. Отбивается: Boris.", "подкинуть"),
        ("en", "Your attack, blind: pick a card by its number. Defending: Boris.", "throw in"),
    ],
)
def test_a_blind_leader_is_asked_to_lead_without_a_pass_button(
    lang: str, prompt: str, wrong: str
) -> None:
    game = Durak.position(
        DURAK["blind"], ["7s 7c Ah 8d", "9s 6d Kh Ks"], attacker=0, trump="h", stock=["6c"]
    )
    text, labels = dm(snapshot(game, people(2)), 0, lang)
    assert prompt in text
    assert wrong not in text
    assert labels == ["🂠1", "🂠2", "🂠3", "🂠4"]


def test_a_blind_throwers_pass_says_what_it_does() -> None:
    game = Durak.position(
        DURAK["blind"], ["7s 7c Ah 8d", "9s 6d Kh Ks"], attacker=0, trump="h", stock=["6c"]
    )
    game.apply(0, game.decode_action("L0"))  # 7c, the lowest non-trump, is played blind
    game.apply(1, game.decode_action("k"))
    _, labels = dm(snapshot(game, people(2)), 0, "ru")
    assert labels[-1] == "✋ Забирай"


def teams_game() -> Durak:
    return Durak.position(
        DURAK["teams"],
        ["7s 8s", "9s 6d", "", "Ks Qd"],
        attacker=0,
        trump="h",
        out_order=[[2]],
    )


@pytest.mark.parametrize(
    ("lang", "partner", "played_for", "plays_for_me"),
    [
        (
            "ru",
            "🤝 Ваш партнёр: Vera",
            "🤝 Ваш партнёр: Vera · вы ходите и за партнёра (Vera)",
            "🤝 Ваш партнёр: Anna · за вас ходит Anna",
        ),
        (
            "en",
            "🤝 Your partner: Vera",
            "🤝 Your partner: Vera · you also play for Vera",
            "🤝 Your partner: Anna · Anna plays your place",
        ),
    ],
)
def test_in_teams_the_dm_names_the_partner_and_who_plays_whose_place(
    lang: str, partner: str, played_for: str, plays_for_me: str
) -> None:
    game = teams_game()
    snap = snapshot(game, people(4))
    assert dm(snap, 0, lang)[0].count(played_for) == 1
    assert dm(snap, 2, lang)[0].count(plays_for_me) == 1
    assert ("🤝 Ваш партнёр: Gleb" if lang == "ru" else "🤝 Your partner: Gleb") in dm(
        snap, 1, lang
    )[0]
    assert partner.split(":")[0] in dm(snap, 3, lang)[0]


@pytest.mark.parametrize(
    ("lang", "others", "controller", "partner"),
    [
        (
            "ru",
            "Anna ходит и за партнёра (Vera)",
            "Вы ходите и за партнёра (Vera)",
            "За вас теперь ходит партнёр: Anna",
        ),
        (
            "en",
            "Anna now also plays for partner Vera",
            "You now also play for your partner Vera",
            "Your partner Anna now plays your place",
        ),
    ],
)
def test_a_hand_over_names_both_without_declining_a_name(
    lang: str, others: str, controller: str, partner: str
) -> None:
    event = Event("hand_over", 0, target=2)
    assert DURAK_SCREENS.event(lang, event, NAMES) == others
    assert DURAK_SCREENS.event(lang, event, NAMES, viewer=1) == others
    assert DURAK_SCREENS.event(lang, event, NAMES, viewer=0) == controller
    assert DURAK_SCREENS.event(lang, event, NAMES, viewer=2) == partner
    assert "игрока" not in others


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_transfers_and_refusals_are_told_to_whom_they_turn(lang: str) -> None:
    transfer = Event("transfer", 1, cards("7h"), target=2)
    refuse = Event("refuse", 1, cards("7h 7d"), target=0)
    lines = {
        "ru": [
            "Boris переводит 7♥️ → 🛡 Vera",
            "Вы переводите 7♥️ → 🛡 Vera",
            "Boris переводит 7♥️ на вас",
            "Boris отказывает (↪ 7♥️ 7♦️): карты хода уходят назад, их забирает Anna",
            "Вы отказываете (↪ 7♥️ 7♦️): карты хода уходят назад, их забирает Anna",
            "Boris отказывает (↪ 7♥️ 7♦️): карты хода уходят назад — их забираете вы",
        ],
        "en": [
            "Boris transfers 7♥️ → 🛡 Vera",
            "You transfer 7♥️ → 🛡 Vera",
            "Boris transfers 7♥️ to you",
            "Boris refuses (↪ 7♥️ 7♦️): the bout's cards go back, and Anna takes them",
            "You refuse (↪ 7♥️ 7♦️): the bout's cards go back, and Anna takes them",
            "Boris refuses (↪ 7♥️ 7♦️): the bout's cards go back — you take them",
        ],
    }[lang]
    got = [
        DURAK_SCREENS.event(lang, transfer, NAMES, viewer=3),
        DURAK_SCREENS.event(lang, transfer, NAMES, viewer=1),
        DURAK_SCREENS.event(lang, transfer, NAMES, viewer=2),
        DURAK_SCREENS.event(lang, refuse, NAMES, viewer=3),
        DURAK_SCREENS.event(lang, refuse, NAMES, viewer=1),
        DURAK_SCREENS.event(lang, refuse, NAMES, viewer=0),
    ]
    assert got == lines


def believe_position() -> Durak:
    """Believe / don't believe among three: Anna (7♠ 7♣ A♥) leads to Boris
    (9♠ 6♦ K♥); Vera waits; hearts are trumps."""
    return Durak.position(
        DURAK["believe"],
        ["7s 7c Ah", "9s 6d Kh", "8c 9c Tc"],
        attacker=0,
        trump="h",
        stock=["6c", "Jc", "Qc", "Kc", "Ac", "6s"],
    )


def believe_verdict(verdict: str, cover: str) -> Snapshot:
    """Believe / don't believe: Anna leads 7♠, Boris covers it face down with
    ``cover``, Anna gives her ``verdict`` (y / n); Vera waits."""
    game = believe_position()
    moves, recent = played(game, [(0, "a7s"), (1, f"f7s{cover}"), (0, verdict)])
    return snapshot(game, people(3), recent=recent, moves=moves)


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "ru",
            [
                "Anna: «Не верю!»",
                "Открыто: 7♠️ ← 6♦️ — покрыто неправильно",
                "Вы забираете 2 карты: 7♠️ 6♦️",
            ],
        ),
        (
            "en",
            [
                "Anna: “I don't believe!”",
                "Turned up: 7♠️ ← 6♦️ — wrongly covered",
                "You pick up 2 cards: 7♠️ 6♦️",
            ],
        ),
    ],
)
def test_a_bluffer_caught_reads_which_cards_he_picked_up_and_why(
    lang: str, lines: list[str]
) -> None:
    snap = believe_verdict("n", "6d")
    text, _ = dm(snap, 1, lang)
    assert " · ".join(lines) in text


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "ru",
            [
                "Вы: «Не верю!»",
                "Открыто: 7♠️ ← 9♠️ — всё покрыто правильно",
                "Вы забираете 2 карты: 7♠️ 9♠️",
            ],
        ),
        (
            "en",
            [
                "You: “I don't believe!”",
                "Turned up: 7♠️ ← 9♠️ — all covered rightly",
                "You pick up 2 cards: 7♠️ 9♠️",
            ],
        ),
    ],
)
def test_a_doubter_who_was_wrong_reads_which_cards_he_picked_up_and_why(
    lang: str, lines: list[str]
) -> None:
    snap = believe_verdict("n", "9s")
    text, _ = dm(snap, 0, lang)
    assert " · ".join(lines) in text
    assert "Anna" not in text


def test_a_defender_waiting_on_the_verdict_reads_that_it_is_about_him() -> None:
    game = Durak.position(
        DURAK["believe"], ["7s 7c Ah", "9s 6d Kh"], attacker=0, trump="h", stock=["6c"]
    )
    moves, recent = played(game, [(0, "a7s"), (1, "f7s6d")])
    text, labels = dm(snapshot(game, people(2), recent=recent, moves=moves), 1)
    assert "Вы кроете 7♠️ рубашкой вверх" in text
    assert "Anna решает, верить ли вам." in text
    assert labels == []


@pytest.mark.parametrize(
    ("kind", "ru", "en"),
    [
        ("throw", "Вы подкидываете 8♦️", "You throw in 8♦️"),
        ("beat", "Вы бьёте 7♠️ картой 9♠️", "You beat 7♠️ with 9♠️"),
        ("take", "Вы берёте", "You take"),
        ("out", "У вас не осталось карт", "You have no cards left"),
        ("resign", "Вы — вне игры", "You are out of the game"),
        ("believe", "Вы: «Верю!»", "You: “I believe!”"),
    ],
)
def test_ones_own_durak_moves_read_in_the_second_person(kind: str, ru: str, en: str) -> None:
    shown = {"throw": cards("8d"), "beat": cards("7s 9s")}.get(kind, ())
    event = Event(kind, 1, shown, target=0 if kind == "throw" else None)
    assert DURAK_SCREENS.event("ru", event, NAMES, viewer=1) == ru
    assert DURAK_SCREENS.event("en", event, NAMES, viewer=1) == en
    third = DURAK_SCREENS.event("ru", event, NAMES, viewer=2)
    assert third is not None
    assert third.startswith("Boris")


@pytest.mark.parametrize(
    ("value", "ru", "en"),
    [
        ("cover", "❌ Вы кроете не той картой (8♦️)", "❌ You cover with a wrong card (8♦️)"),
        ("transfer", "❌ Вы переводите не той картой (8♦️)", "❌ You transfer with a wrong card"),
        ("throw", "❌ Вы подкидываете не ту карту (8♦️)", "❌ You throw in a wrong card (8♦️)"),
    ],
)
def test_a_blind_players_wrong_card_reads_in_the_second_person(
    value: str, ru: str, en: str
) -> None:
    event = Event("wrong", 1, cards("8d"), value=value)
    assert (DURAK_SCREENS.event("ru", event, NAMES, viewer=1) or "").startswith(ru)
    assert (DURAK_SCREENS.event("en", event, NAMES, viewer=1) or "").startswith(en)


# --- 101 -----------------------------------------------------------------------


def round_over() -> tuple[HundredOne, Snapshot]:
    game = HundredOne.new(HUNDRED_ONE["classic"], 2, random.Random(4))
    rng = random.Random(2)
    recent: list[LoggedEvent] = []
    n = 0
    while game.public_view().phase is not HundredOnePhase.ROUND_OVER:
        (mover,) = game.to_move()
        n += 1
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        recent += [LoggedEvent(n, mover, Actor.PLAYER, e) for e in events]
    return game, snapshot(game, people(2), recent=tuple(recent[-6:]), moves=n)


@pytest.mark.parametrize(
    ("lang", "won", "lost"),
    [
        ("ru", "🏆 Кон ваш!", "Кон окончен, победа: {name}. Вам начислено: +"),
        ("en", "🏆 You won the round!", "Round over, won by {name}. You score +"),
    ],
)
def test_101s_round_result_is_in_each_players_dm_with_the_next_round_button(
    lang: str, won: str, lost: str
) -> None:
    game, snap = round_over()
    last = game.view(0).last_round
    assert last is not None
    winner = last.winner
    loser = 1 - winner
    text, labels = dm(snap, winner, lang)
    assert won in text
    assert labels == [("▶️ Следующий кон" if lang == "ru" else "▶️ Next round")]
    text, labels = dm(snap, loser, lang)
    assert lost.format(name=NAMES[winner]) in text
    assert all(face(card.code) in text for card in game.view(loser).hand)  # what counted
    assert len(labels) == 1


def test_a_new_round_hand_tells_nothing_of_the_round_before() -> None:
    """A seat the new round has not concerned yet reads that the round began,
    not the last round's end above its new cards."""
    game = HundredOne.new(HUNDRED_ONE["classic"], 3, random.Random(4))
    rng = random.Random(2)
    recent: list[LoggedEvent] = []
    n = 0
    while True:
        movers = game.to_move()
        mover = min(movers)
        n += 1
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        recent += [LoggedEvent(n, mover, Actor.PLAYER, e) for e in events]
        if any(e.kind == "deal" for e in events):
            break  # the next round, begun by seat 0's press
    snap = snapshot(game, people(3), recent=tuple(recent[-6:]), moves=n)
    (leader,) = game.to_move()
    (waiting,) = {1, 2} - {leader}
    text, _ = dm(snap, waiting)
    assert "Кон окончен" not in text
    assert f"Кон 2, начинает {NAMES[leader]}" in text


@pytest.mark.parametrize(
    ("event", "ru", "en"),
    [
        (Event("play", 1, cards("7s")), "Вы: 7♠️", "You: 7♠️"),
        (Event("order", 1, value="h"), "Вы заказываете ♥️", "You order ♥️"),
        (Event("draw", 1, value=2), "Вы берёте 2 карты", "You draw 2 cards"),
        (Event("penalty_draw", 1, value=2), "Вам +2 карты", "You get +2 cards"),
        (Event("pass", 1), "Вы пасуете", "You pass"),
        (Event("skip", 1), "Вы пропускаете ход", "You miss a turn"),
        (Event("again", 1), "Вы ходите ещё раз", "You play again"),
        (Event("eliminated", 1, value=103), "Вы выбываете", "You are out"),
        (Event("deal", 1, value=3), "Кон 3, начинаете вы", "Round 3, you lead"),
    ],
)
def test_ones_own_101_moves_read_in_the_second_person(event: Event, ru: str, en: str) -> None:
    screens = HundredOneScreens()
    assert screens.event("ru", event, NAMES, viewer=1) == ru
    assert screens.event("en", event, NAMES, viewer=1) == en
    third = screens.event("ru", event, NAMES, viewer=0)
    assert third is not None
    assert "Boris" in third
    assert "Вы" not in third


# --- Joker ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "ru", "en"),
    [
        (Event("bid", 1, value=2), "Вы: заказ 2", "You: bid 2"),
        (Event("bid", 1, value=0), "Вы: пас", "You: pass"),
        (Event("trump_chosen", 1, value="h"), "Вы называете козырь: ", "You name the trump: "),
        (Event("deal", 1, value=4), "Сдача 4: сдаёте вы", "Deal 4: you deal"),
        (Event("play", 1, cards("X1"), value="high:s"), "Вы: 🃏", "You: 🃏"),
        (Event("trick", 1, value=1), "Взятка ваша", "The trick is yours"),
        (Event("premium", 1, value=100), "Вам премия ", "You get a premium of "),
    ],
)
def test_ones_own_joker_moves_read_in_the_second_person(event: Event, ru: str, en: str) -> None:
    screens = JokerScreens()
    assert (screens.event("ru", event, NAMES, viewer=1) or "").startswith(ru)
    assert (screens.event("en", event, NAMES, viewer=1) or "").startswith(en)
    third = screens.event("ru", event, NAMES, viewer=0)
    assert third is not None
    assert "Boris" in third
    assert not third.startswith("Вы")


# --- the group's marks ---------------------------------------------------------


def test_the_mark_of_a_move_nobody_pressed_for_sits_on_the_movers_own_action_only() -> None:
    game = Durak.position(
        DURAK["podkidnoy"], ["7s 8d", "9s 6d", "Ks Qd"], attacker=0, trump="h", stock=["6c"]
    )
    seats = (seat(0, "Anna", absent=True), seat(1, None, computer=2), seat(2, "Vera"))
    recent = (
        LoggedEvent(5, 0, Actor.TIMER, Event("throw", 0, cards("8d"), target=1)),
        LoggedEvent(5, 0, Actor.TIMER, Event("bout_taken", 1, cards("7s 8d"))),
        LoggedEvent(6, 0, Actor.COMPUTER, Event("attack", 0, cards("7s"), target=1)),
        LoggedEvent(6, 0, Actor.COMPUTER, Event("out", 0)),
    )
    text = compose_group(snapshot(game, seats, recent=recent), "ru", DURAK_SCREENS, now=NOW).text
    assert "<i>⏰ Anna подкидывает 8♦️</i>" in text
    assert "<i>🤖 Маэстро забирает 2 карты: 7♠️ 8♦️</i>" in text  # the name's own mark only
    assert "<i>🤖 Anna ходит: 7♠️</i>" in text  # a computer stood in for her
    assert "<i>Anna — без карт</i>" in text  # what followed is not marked again


@pytest.mark.parametrize("key", sorted(CATALOG.specs))
def test_no_line_of_a_computers_game_has_a_doubled_or_stray_robot(key: str) -> None:
    """Computers play a whole game; every 🤖 the group reads is the one in a
    computer's name (no "🤖 🤖 Тузик", no "🤖 Пулька 1 закрыта")."""
    spec = CATALOG.specs[key]
    screens = CATALOG.screens[key]
    rng = random.Random(5)
    rules = next(iter(spec.presets.values()))
    seats = max(spec.seat_range(rules))
    game = spec.game.new(rules, seats, random.Random(3))
    computers = tuple(seat(n, None, computer=n + 1) for n in range(seats))
    names = [f"🤖 {t('ru', f'computer.name.{n + 1}')}" for n in range(seats)]
    recent: list[LoggedEvent] = []
    for move in range(1, 600):
        snap = snapshot(game, computers, recent=tuple(recent), moves=move - 1)
        text = compose_group(snap, "ru", screens, now=NOW).text
        for line in text.splitlines():
            assert "🤖 🤖" not in line
            for at in (i for i in range(len(line)) if line.startswith("🤖", i)):
                assert any(line.startswith(name, at) for name in names), line
        if game.outcome() is not None:
            break
        mover = rng.choice(sorted(game.to_move()))
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        recent = (recent + [LoggedEvent(move, mover, Actor.COMPUTER, e) for e in events])[-6:]


@pytest.mark.parametrize(
    ("key", "preset"),
    [
        ("durak", "perevodnoy"),
        ("durak", "refusal"),
        ("durak", "believe"),
        ("durak", "blind"),
        ("durak", "teams"),
        ("101", "classic"),
    ],
)
def test_no_dm_names_its_own_reader_in_a_whole_game(key: str, preset: str) -> None:
    """Whatever happens to a player, his DM says "you": his own name is never
    in it (a third-person line about him would put it there), at any move of
    a whole game, the last included.  Joker's DM is left out: its bids and
    deal lines list every player, like a table."""
    spec = CATALOG.specs[key]
    screens = CATALOG.screens[key]
    rules = spec.preset(preset)
    seats = 4 if preset == "teams" else 3
    rng = random.Random(11)
    game = spec.game.new(rules, seats, random.Random(3))
    recent: list[LoggedEvent] = []
    others_named = 0  # the lines do name the other players
    for move in range(1, 3000):
        over = game.outcome() is not None
        status = Status.FINISHED if over else Status.PLAYING
        snap = snapshot(game, people(seats), status=status, recent=tuple(recent), moves=move - 1)
        for reader in range(seats):
            for lang in ("ru", "en"):
                text = compose_hand(snap, reader, lang, screens, now=NOW)[0].text
                assert NAMES[reader] not in text, text
                others_named += any(NAMES[n] in text for n in range(seats) if n != reader)
        if over:
            break
        mover = rng.choice(sorted(game.to_move()))
        events = game.apply(mover, rng.choice(game.legal_actions(mover)))
        recent = (recent + [LoggedEvent(move, mover, Actor.PLAYER, e) for e in events])[-6:]
    assert game.outcome() is not None
    assert move > 10
    assert others_named > move


@pytest.mark.parametrize(
    ("lang", "led", "covers", "prompt"),
    [
        (
            "ru",
            "a7s",
            ["f7s9s"],
            "Ваша карта накрыта рубашкой вверх. Верите, что покрыта правильно?",
        ),
        (
            "ru",
            "a7s7c",
            ["f7s9s", "f7c6d"],
            "Ваши карты накрыты рубашкой вверх. Верите, что покрыто правильно?",
        ),
        ("en", "a7s", ["f7s9s"], "Your card is covered face down. Do you believe it is beaten?"),
        (
            "en",
            "a7s7c",
            ["f7s9s", "f7c6d"],
            "Your cards are covered face down. Do you believe they are beaten?",
        ),
    ],
)
def test_the_believer_is_asked_of_her_card_or_her_cards_as_she_led(
    lang: str, led: str, covers: list[str], prompt: str
) -> None:
    """Believe / don't believe: Anna is asked about one card covered as about
    one, and about two as about two."""
    game = believe_position()
    moves, recent = played(game, [(0, led)] + [(1, c) for c in covers])
    text, labels = dm(snapshot(game, people(3), recent=recent, moves=moves), 0, lang)
    assert f"{prompt} " in text
    assert len(labels) == 2  # believe, don't


@pytest.mark.parametrize(
    ("actor", "mark"), [(Actor.PLAYER, ""), (Actor.TIMER, "⏰ "), (Actor.COMPUTER, "🤖 ")]
)
def test_ones_own_move_nobody_pressed_for_is_marked_in_the_dm_too(actor: Actor, mark: str) -> None:
    """Anna's time ran out and the timer played 7♠️ for her (or, away, a
    computer did): the group read «⏰ Anna: 7♠️», but her DM «Вы: 7♠️», a card
    she never pressed. Her DM marks the move as the group does."""
    game = HundredOne.position(HUNDRED_ONE["classic"], ["7s8d", "9s6dKc"], discard="7h", turn=0)
    events = game.apply(0, game.decode_action("p7s"))
    recent = tuple(LoggedEvent(1, 0, actor, e) for e in events)
    seats = (seat(0, "Anna", absent=actor is Actor.COMPUTER), seat(1, "Boris"))
    text, _ = dm(snapshot(game, seats, recent=recent, moves=1), 0)
    assert f"<i>{mark}Вы: 7♠️ · " in text


def test_a_player_who_left_a_durak_game_is_not_told_he_was_removed() -> None:
    """Vera's own «/leave», where absentees leave the game, put her out of
    the game, and her DM read «вас убрали из игры», as if somebody had: it
    says she is no longer in it, whoever ended her part."""
    game = Durak.position(
        DURAK["podkidnoy"], ["7s 8d", "9s 6d", "Ks Qd"], attacker=0, trump="h", stock=["6c"]
    )
    game.resign(2)
    for lang, removed in (("ru", "убрали"), ("en", "removed")):
        out = DURAK_SCREENS.out(lang, game.view(2), NAMES)
        assert out is not None
        assert t(lang, "durak.you_left") in out.text
        assert removed not in out.text

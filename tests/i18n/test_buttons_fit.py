"""Every button label fits a phone in every language.

Telegram cuts a label that outgrows its button with an ellipsis, so "⚙️ Настро…"
is all a player would see.  The real screens are painted from snapshots - the
lobby (closed and with its settings open, every option at every value), then
each game and preset played by random legal moves, the group's message and every
seat's DM with each of its sub-menus at every step - and the buttons that are
sent from commands and callbacks (game and variant choosers, the language
chooser, rematch, the same deal, analysis, open-the-bot links).

Each label is measured as a narrow phone shows it (``screens.rows``:
32 letter-widths for a button alone in its row, ``(32 - 3 (n - 1)) / n`` in a
row of ``n``, letters weighted by their advance in our font, an emoji 2.5) -
labels made of card faces (a beat ``10♦️★→10♥️``, a throw-in set, a blind
card ``🂠12``) as much as words."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.catalog import CATALOG
from delivery import callback_data as cd
from delivery.composed import Composed
from delivery.hand_messages import BACK, compose_hand
from delivery.keyboards import Keyboard
from delivery.table_messages import compose_group
from games.core import RulesError
from i18n import LANGUAGES, t
from screens import common
from screens.rows import EMOJI, TOLERANCE, label_width, row_budget
from services import Snapshot
from services.lobby import LEVELS, TURN_SECONDS
from storage import OnAbsence, Status
from tests.screens.snapshots import NOW, seat, snapshot

MOVES = 150
"""Random moves painted per game: enough to pass through every kind of turn."""

NAMES = {
    "ru": ("Александра", "Вячеслав", "Вера", "Глеб", "Жанна", "Евгений"),
    "uk": ("Олександра", "Святослав", "Ґанна", "Їжак", "Євгенія", "Богдан"),
    "en": ("Alexandra", "Christopher", "Vera", "Gleb", "Jane", "William"),
    "ka": ("ალექსანდრე", "ნინო", "გიორგი", "თამარი", "ლევანი", "ქეთევანი"),
}
"""Long first names as people have them, for buttons that name a player."""


def test_the_measure() -> None:
    assert [row_budget(n) for n in (1, 2, 4, 5)] == [32, 14.5, 5.75, 4]
    assert label_width("abc") == pytest.approx(3, abs=0.5)
    assert label_width("⚙️") == EMOJI
    assert label_width("ШШШ") > label_width("iii")
    assert label_width("10♦️★→10♥️") < row_budget(2) < label_width("10♦️★ → 10♥️")


def rows_of(keyboard: Keyboard | None) -> Iterator[tuple[str, ...]]:
    for row in keyboard or ():
        yield tuple(button.label for button in row)


def painted_rows(lang: str) -> set[tuple[str, ...]]:
    """Every keyboard row the screens paint in ``lang``."""
    rows: set[tuple[str, ...]] = set()
    names = NAMES[lang]
    for listing in CATALOG.listings:
        spec, screens = listing.spec, listing.screens
        for preset in spec.presets:
            rules = spec.preset(preset)
            counts = spec.seat_range(rules)
            for seats in sorted({counts.start, counts[-1]}):
                rng = random.Random(seats)
                game = spec.game.new(rules, seats, rng)
                people = tuple(seat(n, names[n]) for n in range(seats))
                lobby = snapshot(game, people, status=Status.LOBBY)
                lobby = Snapshot(lobby.table, spec, rules, None, (), ())
                for opened in (False, True):
                    composed = compose_group(lobby, lang, screens, now=NOW, options_open=opened)
                    rows.update(rows_of(composed.markup))
                for _ in range(MOVES):
                    now = snapshot(game, people)
                    group = compose_group(now, lang, screens, now=NOW)
                    rows.update(rows_of(group.markup))
                    for n in range(seats):
                        rows.update(hand_rows(now, n, lang))
                    if game.is_over:
                        break
                    mover = rng.choice(sorted(game.to_move()))
                    game.apply(mover, rng.choice(game.legal_actions(mover)))
                absent = snapshot(game, (seat(0, names[0], absent=True), *people[1:]))
                rows.update(hand_rows(absent, 0, lang))
    return rows


def hand_rows(snap: Snapshot, n: int, lang: str) -> set[tuple[str, ...]]:
    """A seat's DM and each sub-menu its buttons open."""
    screens = CATALOG.screens[snap.table.game]
    composed: Composed = compose_hand(snap, n, lang, screens, now=NOW)[0]
    rows = set(rows_of(composed.markup))
    for row in composed.markup or ():
        for button in row:
            if button.data is None:  # a disabled card: it opens nothing
                continue
            pressed = cd.parse(button.data)
            if isinstance(pressed, cd.MenuButton) and pressed.focus != BACK:
                menu = compose_hand(snap, n, lang, screens, now=NOW, focus=pressed.focus)[0]
                rows.update(rows_of(menu.markup))
    return rows


def single_rows(lang: str) -> set[tuple[str, ...]]:
    """Buttons alone in their rows: sent from commands and callbacks, or a
    lobby setting at a value the presets do not start with."""
    labels = [t(code, "language.name") for code in LANGUAGES]
    labels += [
        t(lang, key)
        for key in (
            "result.rematch",
            "result.duplicate",
            "result.analysis",
            "common.open_bot",
            "table.my_cards",
        )
    ]
    labels += [t(lang, "hand.back_button"), t(lang, "hand.to_dm")]
    for spec in CATALOG.specs.values():
        labels.append(t(lang, spec.name_key))
        for name, preset in spec.presets.items():
            labels.append(t(lang, f"preset.{spec.key}.{name}"))
            labels.append(t(lang, "lobby.preset", preset=t(lang, f"preset.{spec.key}.{name}")))
            for option, choices in spec.rules.options():
                for value in choices:
                    try:
                        rules = preset.replace(**{option: value})
                    except RulesError:
                        continue
                    labels.append(common.option_label(lang, spec, rules, option))
    labels += [common.turn_label(lang, seconds) for seconds in TURN_SECONDS]
    labels += [common.absence_label(lang, absence) for absence in OnAbsence]
    labels += [common.level_label(lang, level) for level in LEVELS]
    return {(label,) for label in labels}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_button_fits_its_row_on_a_phone(lang: str) -> None:
    rows = painted_rows(lang) | single_rows(lang)
    assert len(rows) > 100
    too_wide = sorted(
        (len(row), round(label_width(label), 1), label)
        for row in rows
        for label in row
        if label_width(label) > row_budget(len(row)) + TOLERANCE
    )
    assert too_wide == []

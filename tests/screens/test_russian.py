"""Russian that reads right with any name.

Names cannot be declined and their gender is unknown, so no text may put a
past-tense verb (which agrees in gender: «отбился», «отбилась») next to a name,
or a name after a preposition that governs a case («под Аня»).  English texts
use no gendered pronouns.  Checked on every catalog entry, and on the screens
of whole random games with a woman's and a man's name at the table.
"""

from __future__ import annotations

import random
import re
import string
from typing import Any

import pytest

from bot.catalog import CATALOG
from delivery.hand_messages import compose_hand
from delivery.table_messages import compose_group
from games.core import Place
from i18n import catalog_keys, t, tn
from services import LoggedEvent
from storage import Actor
from tests.screens.snapshots import NOW, seat, snapshot

NAMES = ("Аня", "Борис", "Вера", "Глеб", "Даша", "Егор")
PREPOSITIONS = {
    "без", "в", "во", "для", "до", "за", "из", "к", "ко", "на", "над", "о", "об", "от",
    "перед", "по", "под", "при", "про", "с", "со", "у", "через",
}  # fmt: skip
PAST = re.compile(r"^[а-яё]+(?:л|ла|ло|ли)(?:ся|сь)?$")
NOT_VERBS = {"стол", "стола", "если", "или", "мало", "было", "правила"}
WORD = re.compile(r"[А-Яа-яЁёA-Za-z]+")
NAME_FIELDS = {"name", "target", "durak", "order", "chat"}


def problems(text: str) -> list[str]:
    """Where a name in ``text`` stands next to a past-tense verb or after a preposition."""
    found = []
    for line in re.sub(r"<[^>]+>", "", text).splitlines():
        words = WORD.findall(line)
        for i, word in enumerate(words):
            if word not in NAMES:
                continue
            before = words[i - 1].lower() if i else ""
            after = words[i + 1].lower() if i + 1 < len(words) else ""
            if before in PREPOSITIONS:
                found.append(f"«{before} {word}» in {line!r}")
            for near in (before, after):
                if PAST.match(near) and near not in NOT_VERBS:
                    found.append(f"past tense «{near}» beside {word} in {line!r}")
    return found


def filled(text: str, name: str) -> str:
    values: dict[str, Any] = {}
    for _, field, _, _ in string.Formatter().parse(text):
        if field:
            values[field] = name if field in NAME_FIELDS else "7"
    return text.format(**values)


@pytest.mark.parametrize("name", ["Аня", "Борис"])
def test_no_catalog_text_declines_or_genders_a_name(name: str) -> None:
    bad = []
    for key, text in catalog_keys("ru").items():
        for form in text if isinstance(text, tuple) else (text,):
            bad += [f"{key}: {p}" for p in problems(filled(form, name))]
    assert not bad


def test_english_texts_use_no_gendered_pronouns() -> None:
    pronoun = re.compile(r"\b(he|his|him|himself|she|her|hers|herself)\b", re.I)
    bad = [
        key
        for key, text in catalog_keys("en").items()
        for form in (text if isinstance(text, tuple) else (text,))
        if pronoun.search(form)
    ]
    assert not bad


def test_the_checker_catches_what_it_must() -> None:
    assert problems("Вера отбился")
    assert problems("Ход под Аня.")
    assert problems("✓ Борис — вышел")
    assert not problems("Отбивается: Аня. ⚔️ Вера → 🛡 Аня")
    assert t("ru", "durak.status_defend", name="Аня") == "Отбивается: Аня."
    assert tn("ru", "durak.ev_taken", 2, name="Аня", cards="7♠ 8♠") == "Аня забирает 2 карты: 7♠ 8♠"


@pytest.mark.parametrize("key", sorted(CATALOG.specs))
def test_whole_games_read_right_with_any_names(key: str) -> None:
    spec = CATALOG.specs[key]
    screens = CATALOG.screens[key]
    rng = random.Random(11)
    for preset, rules in spec.presets.items():
        seats = max(spec.seat_range(rules))
        game = spec.game.new(rules, seats, random.Random(len(preset)))
        people = tuple(seat(n, NAMES[n % len(NAMES)]) for n in range(seats))
        recent: list[LoggedEvent] = []
        texts: list[str] = []
        for move in range(1, 400):
            snap = snapshot(game, people, recent=tuple(recent), moves=move)
            texts.append(compose_group(snap, "ru", screens, now=NOW).text)
            for n in range(seats):
                texts.append(compose_hand(snap, n, "ru", screens, now=NOW)[0].text)
            names = [NAMES[n % len(NAMES)] for n in range(seats)]
            outcome = game.outcome()
            if outcome is not None:
                texts.append(screens.result("ru", outcome, game.public_view(), names).text)
                break
            mover = rng.choice(sorted(game.to_move()))
            action = rng.choice(game.legal_actions(mover))
            events = game.apply(mover, action)
            recent = (recent + [LoggedEvent(move, mover, Actor.PLAYER, e) for e in events])[-6:]
            texts += [
                s.text for s in screens.announcements("ru", events, game.public_view(), names)
            ]
            if action.place is Place.TABLE:
                texts.append(screens.table_key("ru", action, game.public_view()))
        bad = [p for text in texts for p in problems(text)]
        assert not bad, f"{key} {preset}: {bad[:5]}"

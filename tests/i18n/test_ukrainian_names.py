"""Ukrainian that reads right with any name, as ``tests/screens/test_russian``
checks the Russian: a name's gender is unknown, and the Ukrainian past tense
agrees in gender («відбився», «відбилася»), so no text puts a past-tense verb
of one gender beside a name (the present tense, or an impersonal «-но», «-то»
form, as the Russian does)."""

from __future__ import annotations

import random
import re
import string
from typing import Any

import pytest

from bot.catalog import CATALOG
from delivery.hand_messages import compose_hand
from delivery.table_messages import compose_group
from i18n import catalog_keys
from services import LoggedEvent
from storage import Actor
from tests.screens.snapshots import NOW, seat, snapshot

NAMES = ("Олена", "Богдан")
NAME_FIELDS = {"name", "target", "durak", "order", "chat", "admin", "attacker", "names", "who"}
PAST = re.compile(r"^[а-яіїєґ']+(?:[аеиоуяюєї]в|ла)(?:ся)?$")
"""A masculine (-в, -вся) or feminine (-ла, -лася) past-tense form; plural
«-ли» and neuter «-ло» say nothing of the subject's gender."""
NOT_VERBS = {"мала", "ціла", "сила", "правила", "ставка", "знову", "зліва", "кола"}
WORD = re.compile(r"[А-ЯҐЄІЇа-яґєії'A-Za-z]+")


def filled(text: str, name: str) -> str:
    values: dict[str, Any] = {}
    for _, field, _, _ in string.Formatter().parse(text):
        if field:
            values[field] = name if field in NAME_FIELDS else "7"
    return text.format(**values)


def problems(text: str) -> list[str]:
    found = []
    for line in re.sub(r"<[^>]+>", "", text).splitlines():
        words = WORD.findall(line)
        for i, word in enumerate(words):
            if word not in NAMES:
                continue
            for at in (i - 1, i + 1):
                near = words[at].lower() if 0 <= at < len(words) else ""
                # «Команда, що програла: Олена»: the verb is the team's.
                relative = at > 0 and words[at - 1].lower() in ("що", "яка", "який")
                if (
                    PAST.match(near)
                    and not near.endswith(("ів", "їв"))
                    and near not in NOT_VERBS
                    and not relative
                ):
                    found.append(f"past tense «{near}» beside {word} in {line!r}")
    return found


@pytest.mark.parametrize("name", NAMES)
def test_no_ukrainian_text_genders_a_name(name: str) -> None:
    bad = []
    for key, text in catalog_keys("uk").items():
        for form in text if isinstance(text, tuple) else (text,):
            bad += [f"{key}: {p}" for p in problems(filled(form, name))]
    assert bad == []


def test_the_checker_catches_what_it_must() -> None:
    assert problems("Олена відбився")
    assert problems("Взятку взяла Богдан")
    assert problems("Богдан зіграв 7♠")
    assert not problems("Відбивається: Олена. Богдан бере 2 карти")
    assert not problems("Богдан — без ходів, Олена пішли")
    assert not problems("🤡 Команда, що програла: Олена")


@pytest.mark.parametrize("key", sorted(CATALOG.specs))
def test_whole_ukrainian_games_read_right_with_any_names(key: str) -> None:
    """The group's table, every DM, the announcements and the result of a whole
    random game of every variant, with a woman's and a man's name at the table."""
    spec = CATALOG.specs[key]
    screens = CATALOG.screens[key]
    rng = random.Random(11)
    for preset, rules in spec.presets.items():
        seats = max(spec.seat_range(rules))
        game = spec.game.new(rules, seats, random.Random(len(preset)))
        names = [NAMES[n % len(NAMES)] for n in range(seats)]
        people = tuple(seat(n, names[n]) for n in range(seats))
        recent: list[LoggedEvent] = []
        texts: list[str] = []
        for move in range(1, 400):
            snap = snapshot(game, people, recent=tuple(recent), moves=move)
            texts.append(compose_group(snap, "uk", screens, now=NOW).text)
            texts += [compose_hand(snap, n, "uk", screens, now=NOW)[0].text for n in range(seats)]
            outcome = game.outcome()
            if outcome is not None:
                texts.append(screens.result("uk", outcome, game.public_view(), names).text)
                break
            mover = rng.choice(sorted(game.to_move()))
            action = rng.choice(game.legal_actions(mover))
            events = game.apply(mover, action)
            recent = (recent + [LoggedEvent(move, mover, Actor.PLAYER, e) for e in events])[-6:]
            announced = screens.announcements("uk", events, game.public_view(), names)
            texts += [s.text for s in announced]
        bad = [p for text in texts for p in problems(text)]
        assert not bad, f"{key} {preset}: {bad[:5]}"

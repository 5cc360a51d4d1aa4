"""The catalogs are complete, consistent, and pluralize Russian correctly."""

from __future__ import annotations

import enum
import re
import string
from pathlib import Path

import pytest

from bot.catalog import CATALOG
from handlers.commands import COMMANDS
from i18n import LANGUAGES, catalog_keys, normalize, t, tn
from services.lobby import COMPUTER_NAMES
from storage import EndReason, OnAbsence

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = {lang: catalog_keys(lang) for lang in LANGUAGES}


def fields(text: str | tuple[str, ...]) -> set[str]:
    texts = text if isinstance(text, tuple) else (text,)
    return {f for s in texts for _, f, _, _ in string.Formatter().parse(s) if f}


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    ru, en = CATALOGS["ru"], CATALOGS["en"]
    assert set(ru) == set(en)
    for key in ru:
        assert fields(ru[key]) == fields(en[key]), key
        assert ru[key], f"{key} is empty in ru"
        assert en[key], f"{key} is empty in en"


def test_plural_messages_have_every_form() -> None:
    for key, text in CATALOGS["ru"].items():
        if isinstance(text, tuple):
            assert len(text) == 3, key
            assert isinstance(CATALOGS["en"][key], tuple)
            assert len(CATALOGS["en"][key]) == 2, key


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 карта"),
        (2, "2 карты"),
        (4, "4 карты"),
        (5, "5 карт"),
        (11, "11 карт"),
        (12, "12 карт"),
        (21, "21 карта"),
        (22, "22 карты"),
        (111, "111 карт"),
    ],
)
def test_russian_plurals(n: int, expected: str) -> None:
    assert tn("ru", "durak.n_cards", n) == expected


def test_english_plurals_and_fallbacks() -> None:
    assert tn("en", "durak.n_cards", 1) == "1 card"
    assert tn("en", "durak.n_cards", 3) == "3 cards"
    assert normalize("en-US") == "en"
    assert normalize("de") == "ru"
    assert normalize(None) == "ru"
    assert t("ru", "no.such.key") == "no.such.key"


LITERAL_KEY = re.compile(r"""\b(?:t|tn)\(\s*\w+\s*,\s*"([a-z0-9_.]+)\"""")
SERVICE_KEY = re.compile(r"""ServiceError\(\s*"([a-z0-9_.]+)\"""")
ILLEGAL_KEY = re.compile(r"""["'](illegal\.[a-z0-9_]+)["']""")


def source_keys() -> set[str]:
    keys: set[str] = set()
    for folder in ("handlers", "services", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            keys.update(LITERAL_KEY.findall(text))
            keys.update(SERVICE_KEY.findall(text))
    for path in (ROOT / "games").rglob("*.py"):
        keys.update(ILLEGAL_KEY.findall(path.read_text(encoding="utf-8")))
    return keys


def dynamic_keys() -> set[str]:
    keys = {f"cmd.{name}" for name in COMMANDS}
    keys |= {f"computer.name.{n}" for n in range(1, COMPUTER_NAMES + 1)}
    keys |= {f"table.closed.{reason.value}" for reason in EndReason}
    keys |= {f"lobby.absence.{what.value}" for what in OnAbsence}
    keys |= {f"hand.absent.{what.value}" for what in OnAbsence}
    for spec in CATALOG.specs.values():
        keys |= {spec.name_key, f"rules.{spec.key}"}
        keys |= {f"preset.{spec.key}.{name}" for name in spec.presets}
        keys |= {f"about.{spec.key}.{name}" for name in spec.presets}
        for name, choices in spec.rules.options():
            keys.add(f"option.{spec.key}.{name}")
            for value in choices:
                if isinstance(value, enum.Enum):
                    keys.add(f"optval.{spec.key}.{name}.{value.value}")
                elif isinstance(value, str):
                    keys.add(f"optval.{spec.key}.{name}.{value}")
    return keys


def test_every_key_the_code_uses_is_translated() -> None:
    used = source_keys() | dynamic_keys()
    assert len(used) > 50
    missing = sorted(k for k in used if k not in CATALOGS["ru"])
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_computer_is_named_with_a_word_of_the_games(lang: str) -> None:
    """«🤖 Джокер кладёт джокера» or «Ход: 🤖 Козырь» reads as the game, not as
    a player: a computer's name is no word any other text of its language uses."""
    names = {CATALOGS[lang][f"computer.name.{n}"] for n in range(1, COMPUTER_NAMES + 1)}
    assert len(names) == COMPUTER_NAMES
    words = {
        word.casefold()
        for key, text in CATALOGS[lang].items()
        if not key.startswith("computer.name.")
        for message in (text if isinstance(text, tuple) else (text,))
        for word in re.findall(r"\w+", message)
    }
    for name in names:
        assert isinstance(name, str)
        assert name.casefold() not in words, name

"""/help lists every command the bot has, and every game and variant in the
players' own words with a one-line hint, in both languages."""

from __future__ import annotations

import pytest

from bot.catalog import CATALOG
from handlers.commands import COMMANDS
from i18n import t
from screens import common


@pytest.mark.parametrize("language", ["ru", "en"])
def test_help_names_every_command(language: str) -> None:
    text = common.help_text(language, CATALOG.specs.values())
    missing = [
        name for name in COMMANDS if name not in ("start", "help") and f"/{name}" not in text
    ]
    assert not missing


@pytest.mark.parametrize("language", ["ru", "en"])
def test_help_names_every_variant_with_its_hint(language: str) -> None:
    text = common.help_text(language, CATALOG.specs.values())
    for spec in CATALOG.specs.values():
        assert t(language, spec.name_key) in text
        for preset in spec.presets:
            name = t(language, f"preset.{spec.key}.{preset}")
            hint = t(language, f"about.{spec.key}.{preset}")
            assert f"<b>{name}</b> — {hint}" in text
    assert len(text) <= 4096  # one Telegram message


def test_every_variant_is_named_by_key_and_by_its_names_in_every_language() -> None:
    for spec in CATALOG.specs.values():
        for preset in spec.presets:
            names = {preset} | {t(lang, f"preset.{spec.key}.{preset}") for lang in ("ru", "en")}
            names |= {name.split(" (")[0] for name in names}  # "podkidnoy (throw-in)"
            for game in {spec.key, t("ru", spec.name_key), t("en", spec.name_key)}:
                for name in names:
                    words = [game.upper(), *name.split()]
                    assert common.game_and_preset("ru", CATALOG.specs, words) == (spec.key, preset)

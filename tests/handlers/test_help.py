"""/help lists every command the bot has, and every game and variant in the
players' own words with a one-line hint, in both languages."""

from __future__ import annotations

import pytest

from bot.catalog import CATALOG
from handlers.commands import COMMANDS
from i18n import t
from screens import common
from services import ServiceError


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


@pytest.mark.parametrize("language", ["ru", "uk", "en", "ka"])
def test_rules_of_a_variant_put_its_differences_over_the_general_rules(language: str) -> None:
    """/rules 101 пентагон printed «Только в масть; дама — 20 очков» over the
    general «Кладите карту той же масти или того же достоинства… (Д 3)» with
    nothing to say which holds: the general part is headed as overridden by
    the variant (named) and its settings, in every variant of every game."""
    for spec in CATALOG.specs.values():
        screens = CATALOG.screens[spec.key]
        for preset in spec.presets:
            text = common.rules_text(language, spec, screens, spec.preset(preset))
            general = t(language, f"rules.{spec.key}")
            variant = t(language, f"preset.{spec.key}.{preset}")
            heading = t(language, "rules.general", variant=variant)
            assert f"{heading}\n{general}" in text, (spec.key, preset)
            hint = t(language, f"about.{spec.key}.{preset}")
            assert text.index(hint) < text.index(heading) < text.index(general)
    spec = CATALOG.specs["101"]  # options of no variant: the table's settings override
    custom = spec.rules.from_json({**spec.preset("classic").to_json(), "deck": 52})
    assert spec.preset_name(custom) is None
    text = common.rules_text(language, spec, CATALOG.screens["101"], custom)
    assert f"{t(language, 'rules.general_custom')}\n{t(language, 'rules.101')}" in text


@pytest.mark.parametrize(
    ("words", "chosen"),
    [
        ("101 валет", ("101", "jack")),
        ("101 валет - козырь", ("101", "jack")),
        ("101 английский", ("101", "english")),
        ("101 малая", ("101", "smalldeck")),
        ("дурак веришь", ("durak", "believe")),
        ("дурак веришь-не веришь", ("durak", "believe")),
        ("дурак с отказом", ("durak", "refusal")),
        ("дурак отказом", ("durak", "refusal")),
        ("дурень з відмовою", ("durak", "refusal")),
        ("durak refusal", ("durak", "refusal")),
        ("дурак переводной", ("durak", "perevodnoy")),  # a whole name first
        ("durak believe", ("durak", "believe")),
        ("101 jack", ("101", "jack")),
    ],
)
def test_a_variant_is_found_by_the_words_players_type(words: str, chosen: tuple[str, str]) -> None:
    """«/rules 101 валет» and «/newgame дурак веришь» were refused («нет
    варианта»), and so was «валет - козырь» typed with a hyphen: only the full
    name with its em dash, «валет — козырь», was known.  Dashes and case do
    not matter, and words that name one variant alone name it."""
    assert common.game_and_preset("ru", CATALOG.specs, words.split()) == chosen


@pytest.mark.parametrize("words", ["дурак переводной лишнее", "durak podkidnoy extra", "101 к"])
def test_words_that_name_no_single_variant_are_refused(words: str) -> None:
    with pytest.raises(ServiceError):
        common.game_and_preset("ru", CATALOG.specs, words.split())


DETAILS = {
    "classic": [],
    "jack": ["101.detail.jack"],
    "english": ["101.detail.english"],
    "pentagon": ["101.detail.suit_only", "101.detail.order_skip", "101.detail.pentagon"],
}


@pytest.mark.parametrize("language", ["ru", "uk", "en", "ka"])
@pytest.mark.parametrize("preset", list(DETAILS))
def test_rules_of_a_101_variant_tell_what_its_options_change(language: str, preset: str) -> None:
    """«/rules 101 валет» said only «Масть заказывает валет, а не дама.» over
    the general rules: nothing of the queen that only its king or a jack may
    cover, of the player left holding a jack being out of the match, of a jack
    finish doubling the others' points. Pentagon's rank onto a six and its card
    values, and the English ace's order, were as silent. The rules of a
    variant say what its options change; the classic game's have none of it."""
    spec = CATALOG.specs["101"]
    text = common.rules_text(language, spec, CATALOG.screens["101"], spec.preset(preset))
    for key in {k for keys in DETAILS.values() for k in keys}:
        assert (t(language, key) in text) is (key in DETAILS[preset]), key


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", "(дамой пик — 40)"),
        ("en", "(the queen of spades, 40)"),
        ("uk", "(дамою пік — 40)"),
        ("ka", "(ყვავის დამით — 40)"),
        ("ru", "Последняя карта кона тоже действует"),
        ("en", "The round's last card still acts"),
        ("uk", "Остання карта кону теж діє"),
        ("ka", "რაუნდის ბოლო კარტიც მოქმედებს"),
    ],
)
def test_101s_rules_tell_the_queen_finish_and_a_hand_of_only_queens(
    language: str, words: str
) -> None:
    """A round won on a queen wrote «Борис: −20 → 5» on the sheet, and /rules
    101 told nothing of it (nor of the queen of spades' 40, nor of a hand of
    only queens scoring 20 each), nor that a seven as the last card still
    makes the next player draw two that count: the rules the bot plays by,
    told."""
    spec = CATALOG.specs["101"]
    text = common.rules_text(language, spec, CATALOG.screens["101"], spec.preset("classic"))
    assert words in text

"""Every catalog is complete and consistent with the Russian one (the source
the others are translated from): the same keys, the plural forms its language
needs, the same placeholders, markup, commands and symbols; and the languages
are chosen from Telegram's language codes."""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from importlib import resources

import pytest
from babel.messages.plurals import get_plural

from bot.catalog import CATALOG
from i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog_keys, from_telegram, normalize, t, tn
from screens.common import game_and_preset
from services import ServiceError

CATALOGS = {lang: catalog_keys(lang) for lang in LANGUAGES}
SOURCE = CATALOGS[DEFAULT_LANGUAGE]
OTHERS = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]

TAG = re.compile(r"</?[a-z]+>")
COMMAND = re.compile(r"(?<![\w/])/[a-z]+\b")


def texts(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def fields(text: str | tuple[str, ...]) -> set[str]:
    return {f for s in texts(text) for _, f, _, _ in string.Formatter().parse(s) if f}


def symbols(text: str) -> Counter[str]:
    """Emoji, card suits, arrows: the marks a translation keeps as they are
    (not the numero sign: English writes "table #3" where Russian has "стол №3")."""
    return Counter(c for c in text if unicodedata.category(c) == "So" and c != "№")


def test_all_four_languages_are_there() -> None:
    assert set(LANGUAGES) == {"ru", "uk", "en", "ka"}
    assert LANGUAGES[0] == DEFAULT_LANGUAGE == "ru"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_has_every_key_any_other_has_and_none_empty(lang: str) -> None:
    every = set().union(*(set(c) for c in CATALOGS.values()))
    assert sorted(every - set(CATALOGS[lang])) == []
    assert [key for key, text in CATALOGS[lang].items() if not all(texts(text))] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_entries_have_the_forms_of_their_language(lang: str) -> None:
    """CLDR's count (Babel's): ru and uk three (one, few, many), en and ka two
    (Georgian nouns stay singular after a number, so its two forms read alike);
    and the catalog's Plural-Forms header says the same."""
    forms = get_plural(lang).num_plurals
    plurals = {key: text for key, text in CATALOGS[lang].items() if isinstance(text, tuple)}
    assert set(plurals) == {key for key, text in SOURCE.items() if isinstance(text, tuple)}
    assert {key: len(text) for key, text in plurals.items() if len(text) != forms} == {}
    po = resources.files("i18n") / "locales" / lang / "LC_MESSAGES" / "koloda.po"
    assert f"nplurals={forms};" in po.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", OTHERS)
def test_placeholders_markup_and_commands_are_those_of_the_russian_text(lang: str) -> None:
    wrong = []
    for key, source in SOURCE.items():
        text = CATALOGS[lang][key]
        # A plural form may leave out the count ("One more player needed.").
        if fields(text) != fields(source) or any(
            fields(form) | {"n"} != fields(source) | {"n"} for form in texts(text)
        ):
            wrong.append((key, "placeholders"))
        # Per form: en and ka have two plural forms where ru has three.
        original_tags = Counter(TAG.findall(texts(source)[0]))
        if any(Counter(TAG.findall(form)) != original_tags for form in texts(text)):
            wrong.append((key, "markup"))
        joined, original = " ".join(texts(text)), " ".join(texts(source))
        if set(COMMAND.findall(joined)) != set(COMMAND.findall(original)):
            wrong.append((key, "commands"))
        if any(symbols(form) != symbols(texts(source)[0]) for form in texts(text)):
            wrong.append((key, "symbols"))
    assert wrong == []


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 карта"),
        (2, "2 карти"),
        (4, "4 карти"),
        (5, "5 карт"),
        (11, "11 карт"),
        (12, "12 карт"),
        (21, "21 карта"),
        (22, "22 карти"),
        (111, "111 карт"),
    ],
)
def test_ukrainian_plurals(n: int, expected: str) -> None:
    assert tn("uk", "durak.n_cards", n) == expected


@pytest.mark.parametrize(("n", "points"), [(1, "1 очко"), (3, "3 очки"), (25, "25 очок")])
def test_ukrainian_points(n: int, points: str) -> None:
    assert tn("uk", "101.points", n) == points


@pytest.mark.parametrize("n", [1, 2, 5, 21])
def test_georgian_keeps_the_noun_singular_after_a_number(n: int) -> None:
    assert tn("ka", "durak.n_cards", n) == f"{n} კარტი"


@pytest.mark.parametrize(
    ("code", "language"),
    [
        ("uk", "uk"),
        ("uk-UA", "uk"),
        ("ka", "ka"),
        ("ka-GE", "ka"),
        ("ru", "ru"),
        ("be", "ru"),
        ("en-GB", "en"),
        ("de", "en"),
        ("", None),
        (None, None),
    ],
)
def test_the_telegram_language_chooses_the_catalog(code: str | None, language: str | None) -> None:
    assert from_telegram(code) == language


def test_each_language_speaks_its_own_words() -> None:
    assert normalize("uk") == "uk"
    assert normalize("ka_GE") == "ka"
    assert t("uk", "language.in_text") == "українська"
    assert t("ka", "language.in_text") == "ქართული"
    assert t("uk", "durak.btn_done") == "✅ Бито"
    assert t("ka", "joker.khisht") == "ხიშტი"
    assert [t(lang, "language.name") for lang in LANGUAGES] == [
        "Русский",
        "Українська",
        "English",
        "ქართული",
    ]


def test_game_and_variant_names_are_told_apart_in_every_language() -> None:
    """``/newgame`` takes a game's and a variant's name in any language, so no
    name may stand for two games, or for two variants of one game."""

    def names(key: str) -> set[str]:
        return {t(lang, key).lower() for lang in LANGUAGES}

    games = [names(spec.name_key) for spec in CATALOG.specs.values()]
    assert sum(map(len, games)) == len(set().union(*games))
    for spec in CATALOG.specs.values():
        presets = [names(f"preset.{spec.key}.{name}") for name in spec.presets]
        assert sum(map(len, presets)) == len(set().union(*presets)), spec.key


@pytest.mark.parametrize(
    ("words", "chosen"),
    [
        ("дурень перевідний", ("durak", "perevodnoy")),
        ("дурак підкидний", ("durak", "podkidnoy")),
        ("Дурень перевідний з відмовою", ("durak", "refusal")),
        ("დურაკი გადაცემითი", ("durak", "perevodnoy")),
        ("ჯოკერი მინუსიანი", ("joker", "minus")),
        ("101 мала колода", ("101", "smalldeck")),
    ],
)
def test_newgame_understands_ukrainian_and_georgian_names(
    words: str, chosen: tuple[str, str]
) -> None:
    assert game_and_preset("ru", CATALOG.specs, words.split()) == chosen


def test_a_part_of_a_word_names_no_variant() -> None:
    with pytest.raises(ServiceError) as refused:
        game_and_preset("ru", CATALOG.specs, ["дурак", "перевод"])
    assert refused.value.key == "error.unknown_preset"


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("ru", 1, "Повторён 1 ход:"),
        ("ru", 2, "Повторены 2 хода:"),
        ("ru", 4, "Повторены 4 хода:"),
        ("ru", 0, "Повторено 0 ходов:"),
        ("ru", 5, "Повторено 5 ходов:"),
        ("ru", 11, "Повторено 11 ходов:"),
        ("ru", 21, "Повторён 21 ход:"),
        ("ru", 30, "Повторено 30 ходов:"),
        ("uk", 1, "Повторено 1 хід:"),
        ("uk", 3, "Повторено 3 ходи:"),
        ("uk", 30, "Повторено 30 ходів:"),
    ],
)
def test_the_predicate_agrees_with_the_number(lang: str, n: int, expected: str) -> None:
    """«Повторено 30 ходов», not «Повторены»: after a number of the many form
    the verb is neuter singular (Ukrainian's impersonal «повторено» fits all)."""
    assert tn(lang, "fair.ok_moves", n).startswith(expected)


QUOTES = {"ru": ("«", "»"), "uk": ("«", "»"), "en": ("“", "”"), "ka": ("„", "“")}
"""Each language's own quotation marks (a lone « before a space is the
"« Back" button's arrow, not a quote)."""
QUOTED = re.compile(r"(«|“|„)(?=\S)(.*?)(»|”|“)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_quotes_with_its_own_marks(lang: str) -> None:
    wrong = [
        (key, quoted.group(0))
        for key, text in CATALOGS[lang].items()
        for form in texts(text)
        for quoted in QUOTED.finditer(form)
        if (quoted.group(1), quoted.group(3)) != QUOTES[lang]
    ]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_language_is_named_within_a_sentence_as_its_typography_wants(lang: str) -> None:
    """Within a sentence («Язык: русский.», «сейчас: русский») Russian and
    Ukrainian write a language's name in lower case, English and Georgian as
    always; only the language's button, standing alone, is capitalized."""
    name = t(lang, "language.in_text")
    assert name.lower() == t(lang, "language.name").lower()
    assert name == (name.lower() if lang in ("ru", "uk") else t(lang, "language.name"))


def test_no_text_sends_a_player_to_a_file_of_the_repository() -> None:
    """«Подробно: docs/rules/joker.md» means nothing in Telegram."""
    paths = re.compile(r"\b[\w-]+/[\w/-]+\.(?:md|py|po|txt)\b")
    assert [
        (lang, key)
        for lang, catalog in CATALOGS.items()
        for key, text in catalog.items()
        if any(paths.search(form) for form in texts(text))
    ] == []


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_kept_up_with_changed_russian_texts(lang: str) -> None:
    """Daytona's variant lines gained their cap of cards a race (a
    Ukrainian or Georgian player read "four times shorter races" with no cap);
    101's DM after a round says the players still in start the next one (not
    "in the group"); a DM line of one's own in 101 starts with a capital, as
    the Russian one does (Georgian writes no capitals)."""
    catalog = CATALOGS[lang]
    assert "300" in str(catalog["about.daytona.classic"])
    assert "120" in str(catalog["about.daytona.sprint"])
    round_over = str(catalog["101.round_over_dm"])
    assert t(lang, "101.round_over_dm") == round_over
    assert {"uk": "лишилися", "en": "still in", "ka": "დარჩენილი"}[lang] in round_over
    own = [str(catalog["101.ev_you_skip"]), *catalog["101.ev_you_penalty_draw"]]
    if lang != "ka":  # Georgian script has no capitals in running text
        assert all(line[0] == line[0].upper() for line in own)


def test_georgian_calls_a_suit_a_suit_not_a_colour() -> None:
    """მასტი, as every other Georgian text says, not ფერი ("colour"): the
    joker at face value was a six "of the colour it stands for"."""
    colour = re.compile(r"(?<!\w)ფერ(ი|ის|ით)?(?!\w)")
    assert [key for key, text in CATALOGS["ka"].items() if colour.search(str(text))] == []
    assert "მასტის" in t("ka", "joker.prompt_face_value")


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_kept_up_with_daytona_rules_and_team_hand_over(lang: str) -> None:
    """/rules daytona tells where the cars stand when the race's cap of cards
    runs out (the Russian gained it, Ukrainian and Georgian lagged); a team
    player who takes over a hand takes over the partner's, as the Russian says."""
    catalog = CATALOGS[lang]
    cap = {"uk": "ліміту карт", "en": "draw limit", "ka": "ლიმიტ"}[lang]
    assert cap in str(catalog["rules.daytona"])
    partner = {"uk": "партнера", "en": "partner", "ka": "პარტნიორ"}[lang]
    assert partner in str(catalog["durak.ev_hand_over"])

"""One thing, one word: a catalog names a game's things (the seed, the
khisht, a variant, being out of the game, Telegram's own Start button) the
same way in every text, and a Ukrainian or Georgian one in its own
language's spelling, not in a Russian one."""

from __future__ import annotations

import re

import pytest

from i18n import catalog_keys

CATALOGS = {lang: catalog_keys(lang) for lang in ("ru", "uk", "ka")}

MISWRITTEN = [
    # Telegram's Russian client labels the button that opens a bot «Запустить»
    # (the playground's page too): an analysis asked for «Старт».
    ("ru", r"«Старт»", "«Запустить»"),
    # The seed is «сід» in the verification texts: not «сид» in /salt's.
    ("uk", r"(?<!\w)[Сс]ид(|у|ом|і)(?!\w)", "сід"),
    # Joker's khisht is «хішт» in the rules and on the sheet, not «хишт».
    ("uk", r"[Хх]ишт", "хішт"),
    # Russian forms: «кройте» is «крийте», «назначить» is «призначити».
    ("uk", r"(?<!\w)[Кк]ройте", "крийте"),
    ("uk", r"(?<!\w)[Нн]азнач", "признач"),
    # Out of the game is «თამაშის გარეთ», as Durak's seat says: «თამაშგარე»
    # is football's offside.
    ("ka", r"თამაშგარე", "თამაშის გარეთ"),
    # Podkidnoy is «მიმატებითი», the variant's name, in the trump options too.
    ("ka", r"ჩამოსაყრელ", "მიმატებითი"),
    # A trump is named («ასახელებს»), not appointed («დანიშნა»).
    ("ka", r"დანიშნ", "დასახელ"),
    # The cards of an attack («карты хода») are «სვლის კარტები» when refused
    # as when lost blind, not «the table's cards».
    ("ka", r"მაგიდის კარტ", "სვლის კარტ"),
]
"""(language, a spelling that must not appear, the catalog's own word)."""


def texts(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


@pytest.mark.parametrize(("lang", "wrong", "right"), MISWRITTEN)
def test_a_thing_has_one_name_in_a_catalog(lang: str, wrong: str, right: str) -> None:
    pattern = re.compile(wrong)
    catalog = CATALOGS[lang]
    assert any(right in form for text in catalog.values() for form in texts(text))
    assert [
        (key, match.group(0))
        for key, text in catalog.items()
        for form in texts(text)
        for match in pattern.finditer(form)
    ] == []

"""The compiled catalogs (``python -m i18n.compile``) say what the ``.po``
files say, and a ``.po`` changed after its compilation is read as it is."""

from __future__ import annotations

import gettext
import os
import shutil
from pathlib import Path

import pytest

import i18n
from i18n import LANGUAGES, catalog_keys, compiled_beside
from i18n.compile import LOCALES, compile_catalog, main


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    """A copy of the house's catalogs, without any .mo."""
    copy = tmp_path / "locales"
    shutil.copytree(LOCALES, copy, ignore=shutil.ignore_patterns("*.mo"))
    return copy


def _po(locales: Path, language: str) -> Path:
    return locales / language / "LC_MESSAGES" / "koloda.po"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_compiled_catalog_gives_every_text_and_plural_of_its_po(
    locales: Path, language: str
) -> None:
    assert main(locales) == 0
    po = _po(locales, language)
    mo = compiled_beside(po)
    assert mo == po.with_suffix(".mo")
    assert oct(mo.stat().st_mode & 0o777) == oct(0o644)
    with mo.open("rb") as compiled:
        translations = gettext.GNUTranslations(compiled)
    plurals = 0
    for key, text in catalog_keys(language).items():
        if isinstance(text, tuple):
            plurals += 1
            # Each form the catalog's plural rule picks, for counts that reach all of them.
            forms = {translations.ngettext(key, key + "#plural", n) for n in range(30)}
            assert forms == {form for form in text if form}, key
        elif text:
            assert translations.gettext(key) == text, key
    assert plurals > 0


def test_a_po_changed_after_its_compilation_is_read_as_it_is_now(locales: Path) -> None:
    po = _po(locales, "en")
    mo = compile_catalog(po)
    assert compiled_beside(po) == mo
    # Another revision checked out, or the file edited: newer than its .mo.
    later = mo.stat().st_mtime_ns + 1_000_000_000
    os.utime(po, ns=(later, later))
    assert compiled_beside(po) is None
    mo.unlink()
    assert compiled_beside(po) is None


def test_the_texts_come_from_the_fresh_one_of_the_two(locales: Path) -> None:
    po = _po(locales, "en")
    compile_catalog(po)
    mo = po.with_suffix(".mo")
    compiled_at = mo.stat().st_mtime_ns
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "Durak"' in text
    po.write_text(text.replace('msgstr "Durak"', 'msgstr "Fool"', 1), encoding="utf-8")
    os.utime(po, ns=(compiled_at - 1, compiled_at - 1))  # as if the .mo were made after
    assert i18n._read(po, "en").gettext("game.durak") == "Durak"
    os.utime(po, ns=(compiled_at + 1, compiled_at + 1))
    assert i18n._read(po, "en").gettext("game.durak") == "Fool"

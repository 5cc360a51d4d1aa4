"""Translations: gettext catalogs (``locales/<lang>/LC_MESSAGES/koloda.po``)
read with Babel at start-up, plural forms from each catalog's header.

Message ids are keys such as ``lobby.title``; a plural message has the key as
its singular id and ``<key>#plural`` as its plural id, and is looked up with
:func:`tn`.  Placeholders are ``str.format`` fields.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "catalog_keys",
    "from_telegram",
    "normalize",
    "t",
    "tn",
]

LANGUAGES = ("ru", "uk", "en", "ka")
"""Russian first: it is the default, and the language of Telegram's fallback
command list (``setMyCommands`` without a language code)."""
DEFAULT_LANGUAGE = "ru"


@cache
def _translations(language: str) -> gettext.GNUTranslations:
    path = resources.files("i18n") / "locales" / language / "LC_MESSAGES" / "koloda.po"
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def normalize(language: str | None) -> str:
    """A supported language for any code (``en-US`` -> ``en``), else the default."""
    if language:
        short = language.split("-")[0].split("_")[0].lower()
        if short in LANGUAGES:
            return short
    return DEFAULT_LANGUAGE


RUSSIAN_READERS = ("ru", "be")
"""Telegram languages whose speakers get Russian (Belarusian has no catalog)."""


def from_telegram(code: str | None) -> str | None:
    """Our language for a Telegram ``language_code`` (None if it says nothing):
    its own catalog if we have one, Russian for Belarusian, else English."""
    if not code:
        return None
    short = code.split("-")[0].split("_")[0].lower()
    if short in RUSSIAN_READERS:
        return "ru"
    return short if short in LANGUAGES else "en"


def t(language: str, key: str, /, **params: object) -> str:
    """The text for ``key``; falls back to Russian, then to the key itself."""
    text = _translations(normalize(language)).gettext(key)
    if text == key and language != DEFAULT_LANGUAGE:
        text = _translations(DEFAULT_LANGUAGE).gettext(key)
    return text.format(**params) if params else text


def tn(language: str, key: str, n: int, /, **params: object) -> str:
    """The plural form of ``key`` for ``n`` (``{n}`` is available to the text)."""
    text = _translations(normalize(language)).ngettext(key, key + "#plural", n)
    return text.format(n=n, **params)


def catalog_keys(language: str) -> dict[str, str | tuple[str, ...]]:
    """Every key of a catalog with its text(s), for consistency tests."""
    path = resources.files("i18n") / "locales" / language / "LC_MESSAGES" / "koloda.po"
    with path.open("rb") as po:
        catalog = read_po(po, locale=language)
    out: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        string = message.string
        out[str(key)] = tuple(string) if isinstance(string, tuple | list) else str(string)
    return out

"""Translations: gettext catalogs (``locales/<lang>/LC_MESSAGES/koloda.po``)
read with Babel at start-up, plural forms from each catalog's header (or the
``.mo`` that ``python -m i18n.compile`` made of a ``.po`` as it is now: the
install does, and every bot process then starts 0.4 s sooner).

Message ids are keys such as ``lobby.title``; a plural message has the key as
its singular id and ``<key>#plural`` as its plural id, and is looked up with
:func:`tn`.  Placeholders are ``str.format`` fields.

The house's texts (the four games' included) are one catalog, ``koloda``.  A
game may bring its own instead: a :class:`Domain` its listing names, with
Russian and English at least, added with :func:`add_domain` (the game catalog
does it).  Its keys are looked up after the house's, and must be none of the
house's or another domain's; a language the domain lacks (say Georgian) reads
the domain's English, the house's language for anyone whose language it lacks
(:func:`from_telegram`).
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN_FALLBACK",
    "LANGUAGES",
    "Domain",
    "add_domain",
    "catalog_keys",
    "compiled_beside",
    "from_telegram",
    "mo_of",
    "normalize",
    "t",
    "tn",
]

LANGUAGES = ("ru", "uk", "en", "ka")
"""Russian first: it is the default, and the language of Telegram's fallback
command list (``setMyCommands`` without a language code)."""
DEFAULT_LANGUAGE = "ru"


DOMAIN_FALLBACK = "en"
"""The language a domain's texts are read in where it lacks the reader's."""
REQUIRED = (DEFAULT_LANGUAGE, DOMAIN_FALLBACK)
"""The languages every domain must have."""


@dataclass(frozen=True, slots=True)
class Domain:
    """A game's own texts: ``<locales>/<language>/LC_MESSAGES/<name>.po``."""

    name: str
    locales: Traversable

    def po(self, language: str) -> Traversable:
        return self.locales / language / "LC_MESSAGES" / f"{self.name}.po"

    def languages(self) -> tuple[str, ...]:
        """The house's languages this domain has a catalog for."""
        return tuple(lang for lang in LANGUAGES if self.po(lang).is_file())


HOUSE = Domain("koloda", resources.files("i18n") / "locales")
_domains: list[Domain] = []


def add_domain(domain: Domain) -> None:
    """Look ``domain``'s keys up from now on (again: nothing happens).  Refused
    when it lacks Russian or English, or shares a key with the house or another
    domain: a game's texts never change another's."""
    if domain in _domains:
        return
    missing = [lang for lang in REQUIRED if lang not in domain.languages()]
    if missing:
        raise ValueError(f"texts {domain.name!r} lack {missing}")
    keys = set(catalog_keys(DEFAULT_LANGUAGE, domain))
    for other in (HOUSE, *_domains):
        shared = keys & set(catalog_keys(DEFAULT_LANGUAGE, other))
        if shared:
            raise ValueError(
                f"texts {domain.name!r} repeat keys of {other.name!r}: {sorted(shared)}"
            )
    _domains.append(domain)
    _translations.cache_clear()


def _read(path: Traversable, language: str) -> gettext.GNUTranslations:
    compiled = compiled_beside(path)
    if compiled is not None:
        try:
            with compiled.open("rb") as mo:
                return gettext.GNUTranslations(mo)
        except OSError:
            pass  # unreadable here: the .po says the same
    return gettext.GNUTranslations(io.BytesIO(mo_of(path, language)))


def mo_of(po: Traversable, language: str) -> bytes:
    """The catalog ``po`` compiled, as a ``.mo`` file's bytes."""
    with po.open("rb") as source:
        catalog = read_po(source, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def compiled_beside(po: Traversable) -> Path | None:
    """The ``.mo`` compiled from ``po`` and lying beside it, unless the
    ``.po`` changed since (edited, or another revision checked out)."""
    if not isinstance(po, Path):
        return None
    mo = po.with_suffix(".mo")
    try:
        fresh = mo.stat().st_mtime_ns >= po.stat().st_mtime_ns
    except OSError:
        return None
    return mo if fresh else None


@cache
def _translations(language: str) -> gettext.GNUTranslations:
    """The house's catalog, with each domain's (in this language, else in
    :data:`DOMAIN_FALLBACK`) behind it."""
    house = _read(HOUSE.po(language), language)
    for domain in _domains:
        own = language if domain.po(language).is_file() else DOMAIN_FALLBACK
        house.add_fallback(_read(domain.po(own), own))
    return house


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


def catalog_keys(language: str, domain: Domain = HOUSE) -> dict[str, str | tuple[str, ...]]:
    """Every key of a catalog (the house's, or ``domain``'s) with its text(s),
    for consistency tests."""
    with domain.po(language).open("rb") as po:
        catalog = read_po(po, locale=language)
    out: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        string = message.string
        out[str(key)] = tuple(string) if isinstance(string, tuple | list) else str(string)
    return out

"""``python -m i18n.compile``: compile the house's catalogs (every
``locales/<lang>/LC_MESSAGES/*.po``) to ``.mo`` files beside them, which
:mod:`i18n` reads instead of parsing the ``.po`` with Babel in every process.
``scripts/install`` runs it; a ``.po`` changed later is read as it is until
the next run (:func:`i18n.compiled_beside`)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent / "locales"


def compile_catalog(po: Path) -> Path:
    """Write ``po``'s ``.mo`` beside it (whole or not at all: other processes
    may be reading it); the ``.mo``'s path."""
    language = po.parent.parent.name
    with po.open("rb") as source:
        catalog = read_po(source, locale=language)
    mo = po.with_suffix(".mo")
    handle, temporary = tempfile.mkstemp(dir=po.parent, prefix=f".{mo.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            write_mo(out, catalog)
        os.chmod(temporary, 0o644)  # as readable as the .po, not mkstemp's 0600
        os.replace(temporary, mo)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return mo


def main(locales: Path = LOCALES) -> int:
    for po in sorted(locales.glob("*/LC_MESSAGES/*.po")):
        compile_catalog(po)
    return 0


if __name__ == "__main__":
    sys.exit(main())

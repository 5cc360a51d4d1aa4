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

from i18n import mo_of

LOCALES = Path(__file__).resolve().parent / "locales"


def compile_catalog(po: Path) -> Path:
    """Write ``po``'s ``.mo`` beside it (whole or not at all: other processes
    may be reading it); the ``.mo``'s path."""
    compiled = mo_of(po, language=po.parent.parent.name)
    mo = po.with_suffix(".mo")
    handle, temporary = tempfile.mkstemp(dir=po.parent, prefix=f".{mo.name}.")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(compiled)
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

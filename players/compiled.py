"""The computer players' hottest code compiled to C with mypyc, and used only
while it is what the sources say.

A search spends most of its time in the Durak heuristic's choices (the
rollouts); compiled, the same choices come 1.4 times as fast, so the hard
level simulates that much more of its budget within its second.
``scripts/install`` runs :func:`build`, which compiles :data:`COMPILED` into
``.compiled/`` at the checkout's root (only when the sources changed) and
stamps the build with a fingerprint of every source under ``games/`` and ``players/``
(a compiled module reads its imports' types at build time).  Importing
:mod:`players` puts the build ahead of the sources only when the stamp
matches the sources as they are now: an edited file, another revision
checked out, or a build that failed (no C compiler) all leave the players
interpreted, with the same choices, slower.  ``KOLODA_INTERPRETED=1`` leaves
them interpreted on purpose (paired measurements).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import MutableSequence
from pathlib import Path

__all__ = ["COMPILED", "ROOT", "build", "enable", "fingerprint", "fresh"]

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: its ``.compiled/`` holds the build."""
COMPILED = ("players/durak.py",)
"""The sources compiled (paths from the checkout's root)."""
WATCHED = ("games", "players")
"""The folders whose sources the compiled modules may have read types from."""
BUILD = ".compiled"
STAMP = "stamp"


def fingerprint(root: Path = ROOT) -> str:
    """Of the Python running and every watched source under ``root``, as they are now."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for folder in WATCHED:
        for path in sorted((root / folder).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def fresh(root: Path = ROOT) -> bool:
    """Whether ``root``'s build was made from its sources as they are."""
    stamp = root / BUILD / STAMP
    return stamp.is_file() and stamp.read_text() == fingerprint(root)


def enable(package_path: MutableSequence[str], root: Path = ROOT) -> bool:
    """Put ``root``'s build ahead of the sources of the package whose
    ``__path__`` is ``package_path`` (:mod:`players`, before it imports a
    compiled module), when it is fresh and not declined; whether it did."""
    if os.environ.get("KOLODA_INTERPRETED") or not fresh(root):
        return False
    sys.path.append(str(root / BUILD))  # where the compiled modules' shared runtime is
    package_path.insert(0, str(root / BUILD / "players"))
    return True


def build(root: Path = ROOT) -> bool:
    """Compile :data:`COMPILED` into ``root``'s build unless it is fresh;
    whether a fresh build is there now.  Any failure (mypyc missing, no C
    compiler) is told in one line and leaves the players interpreted."""
    if fresh(root):
        return True
    stamp = fingerprint(root)  # of the sources compiled, even if one changes meanwhile
    target = root / BUILD
    shutil.rmtree(target, ignore_errors=True)
    generated, objects = target / "c", target / "tmp"
    before = Path.cwd()
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]

        os.chdir(root)  # mypyc names a module by its path from here
        modules = mypycify(list(COMPILED), target_dir=str(generated), group_name="koloda")
        dist = Distribution({"name": "koloda-compiled", "ext_modules": modules})
        dist.script_args = ["--quiet", "build_ext", "--build-lib", str(target)]
        dist.script_args += ["--build-temp", str(objects)]
        dist.parse_command_line()
        dist.run_commands()
    except (Exception, SystemExit) as exc:  # any failure leaves them interpreted
        # mypyc and the compiler have said why (a SystemExit); else the error does.
        why = "see above" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        print(f"players.compiled: not compiled ({why}); the players run interpreted")
        return False
    finally:
        os.chdir(before)
    for folder in (generated, objects):  # only the modules are used
        shutil.rmtree(folder, ignore_errors=True)
    (target / STAMP).write_text(stamp)
    return True

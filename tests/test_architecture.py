"""Import rules that keep the layers honest (import-linter checks them too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "games": {
        "telegram",
        "aiosqlite",
        "asyncio",
        "sqlite3",
        "storage",
        "handlers",
        "bot",
        "services",
        "i18n",
    },
    "players": {
        "telegram",
        "aiosqlite",
        "asyncio",
        "sqlite3",
        "storage",
        "handlers",
        "bot",
        "services",
        "i18n",
    },
    "services": {"telegram", "handlers", "bot"},
    "storage": {"telegram", "handlers", "bot", "services"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_nothing_forbidden(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & FORBIDDEN[package])
        for path in files
    }
    assert not {k: v for k, v in offenders.items() if v}


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import asyncio\nfrom telegram import Bot\n", encoding="utf-8")
    assert imported_roots(sample) >= {"asyncio", "telegram"}

"""/help lists every command the bot has, in both languages."""

from __future__ import annotations

import pytest

from handlers.commands import COMMANDS
from i18n import t


@pytest.mark.parametrize("language", ["ru", "en"])
def test_help_names_every_command(language: str) -> None:
    text = t(language, "help.text", games="")
    missing = [
        name for name in COMMANDS if name not in ("start", "help") and f"/{name}" not in text
    ]
    assert not missing

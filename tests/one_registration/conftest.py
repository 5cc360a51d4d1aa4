"""The stand-in Bot API and a database path, as the end-to-end tests have them."""

from __future__ import annotations

from tests.e2e.conftest import db_path, server

__all__ = ["db_path", "server"]

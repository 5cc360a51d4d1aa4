"""What the bot's command-line tools (``bot.verify``, ``bot.ratings``) share:
the ``--database`` option and the check that it names a database that exists."""

from __future__ import annotations

import argparse
import os

from bot.config import database_url
from storage.url import DatabaseUrl

__all__ = ["add_database_option", "existing_database"]


def add_database_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database",
        default=database_url(os.environ),
        help="the bot's database: a DATABASE_URL or an SQLite file (default: DATABASE_URL,"
        " else DATABASE_PATH, else sqlite:///data/koloda.sqlite3)",
    )


def existing_database(value: str) -> DatabaseUrl:
    """The database ``value`` names; ``ValueError`` with the line to print
    when it is no URL or names an SQLite file that is not there (a tool that
    only reads must not create an empty one)."""
    url = DatabaseUrl.parse(value)
    if url.path is not None and not url.path.is_file():
        raise ValueError(f"no database at {url.path}")
    return url

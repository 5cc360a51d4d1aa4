"""The bot's database from the command line: copy an SQLite installation into PostgreSQL.

    python -m bot.database copy --from sqlite:///data/koloda.sqlite3 \\
        --to postgresql://koloda:PASSWORD@localhost/koloda

Stop the bot first.  The SQLite file is brought to this version's schema (as
starting the bot would), the PostgreSQL database is given the schema, and every
row is copied in one transaction; a PostgreSQL database that already holds rows
is refused.  Then set ``DATABASE_URL`` to the PostgreSQL URL and start the bot:
its games go on where they stood (docs/operations.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from storage import DatabaseError
from storage.copy import copy_database
from storage.url import DatabaseUrl, sqlite_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.database", description=__doc__.split("\n\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser("copy", help="copy an SQLite database into an empty PostgreSQL one")
    copy.add_argument(
        "--from",
        dest="source",
        default=sqlite_url(os.environ.get("DATABASE_PATH") or "data/koloda.sqlite3"),
        help="the SQLite database (default: DATABASE_PATH, else sqlite:///data/koloda.sqlite3)",
    )
    copy.add_argument("--to", dest="target", required=True, help="the PostgreSQL database URL")
    args = parser.parse_args(argv)
    try:
        shown = DatabaseUrl.parse(args.target).safe()
        copied = asyncio.run(
            copy_database(
                args.source,
                args.target,
                progress=lambda table, rows: print(f"{table}: {rows} rows", flush=True),
            )
        )
    except (ValueError, DatabaseError) as exc:
        print(f"koloda: {exc}", file=sys.stderr)
        return 2
    print(f"copied {sum(copied.values())} rows of {len(copied)} tables into {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

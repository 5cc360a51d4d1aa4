"""``python -m bot.verify TABLE [--database PATH] [--language ru|en]``: check
offline that a finished game's deal was fair, as ``/verify`` does in the group.

Reads the bot's SQLite file (``DATABASE_PATH``, or ``--database``; a file of an
older version is upgraded in place first, as the bot would), deals the game
again from its seed, checks the commitments shown in the lobby (the bot's own
seed, before the players' contributions were mixed in) and in the table
message (the deal), and replays every move (see :mod:`services.fairness`).
Exit code 0: proven; 1: something disagreed; 2: nothing to check.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.catalog import CATALOG
from bot.cli import add_database_option, existing_database
from i18n import LANGUAGES, t
from screens.common import verdict_text
from services import ServiceError, Verdict
from services.fairness import SCHEME_V2, Fairness
from services.history import Histories
from services.snapshots import Snapshots
from storage import Database
from storage.url import DatabaseUrl


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.verify", description=__doc__.split("\n\n")[0].replace("\n", " ")
    )
    parser.add_argument("table", type=int, help="the table number (/verify in the group shows it)")
    add_database_option(parser)
    parser.add_argument("--language", choices=LANGUAGES, default="en")
    args = parser.parse_args(argv)
    try:
        url = existing_database(args.database)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        verdict = asyncio.run(_verify(url, args.table))
    except ServiceError as exc:
        print(t(args.language, exc.key, **exc.params), file=sys.stderr)
        return 2
    print(verdict_text(args.language, verdict))
    print(f"scheme: {verdict.scheme}")
    if verdict.scheme == SCHEME_V2:
        print(f"bot's seed commitment: {verdict.seed_commitment}")
        print(f"bot's seed: {verdict.server_seed}")
        for contribution in sorted(verdict.contributions):
            print(f"contribution: {contribution}")
    print(f"commitment: {verdict.commitment}\nseed: {verdict.seed}")
    return 0 if verdict.ok else 1


async def _verify(url: DatabaseUrl, table_id: int) -> Verdict:
    db = await Database.open(url.url)
    try:
        snapshots = Snapshots(db, CATALOG.specs)
        return await Fairness(db, snapshots, Histories(db, snapshots)).verify(None, table_id)
    finally:
        await db.close()


if __name__ == "__main__":
    sys.exit(main())

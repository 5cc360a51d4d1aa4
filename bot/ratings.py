"""``python -m bot.ratings recompute [--database PATH]``: rate every stored
game again from its result and move log, in the order the games finished.

The ratings are derived from the stored games (see ``docs/ratings.md``): run
this after a change to the rating rules, with the bot stopped.  It forgets
every rating, rated game and achievement and rates them all again (the season
ends already told stay told), then says whether the new rating log agrees
with the one the bot kept as the games ended.  A file of an older version is
upgraded in place first, as the bot would.
Exit code 0: done; 2: no database.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.catalog import CATALOG
from bot.cli import add_database_option, existing_database
from services.clock import SystemClock
from services.ratings import Ratings
from services.snapshots import Snapshots
from storage import Database, RatingEvent
from storage.url import DatabaseUrl


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ratings", description=__doc__.split("\n\n")[0].replace("\n", " ")
    )
    parser.add_argument("command", choices=["recompute"])
    add_database_option(parser)
    args = parser.parse_args(argv)
    try:
        url = existing_database(args.database)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    before, after = asyncio.run(_recompute(url))
    changed = sum(1 for a, b in zip(before, after, strict=False) if _key(a) != _key(b))
    changed += abs(len(before) - len(after))
    print(f"games rated: {len({e.table_id for e in after})}, rating events: {len(after)}")
    print(
        "the ratings agree with the ones kept as games ended"
        if changed == 0
        else f"{changed} rating events differ from the ones kept as games ended"
    )
    return 0


def _key(e: RatingEvent) -> tuple[object, ...]:
    return (
        e.table_id,
        e.scope,
        e.season,
        e.family,
        e.who,
        e.share,
        round(e.mu_after, 9),
        round(e.sigma_after, 9),
    )


async def _recompute(url: DatabaseUrl) -> tuple[list[RatingEvent], list[RatingEvent]]:
    """The rating log before and after the recompute."""
    db = await Database.open(url.url)
    try:
        ratings = Ratings(db, Snapshots(db, CATALOG.specs), SystemClock())
        async with db.read() as tx:
            before = await tx.ratings.events()
        await ratings.recompute()
        async with db.read() as tx:
            after = await tx.ratings.events()
        return before, after
    finally:
        await db.close()


if __name__ == "__main__":
    sys.exit(main())

"""The ratings' use cases: rating the finished games not yet read (after an
upgrade or a failure; a game is rated as it ends by the step that writes its
last move, :mod:`services.moves`), the recompute from the stored games, and
what people read (standings in a chat's season and across chats, a
person's card, a game's changes, the season ends to tell)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from services.clock import Clock
from services.ratings.model import PROVISIONAL_GAMES, shown
from services.ratings.rating import ACROSS, rate_game, who_person
from services.ratings.seasons import previous_season, season_of
from services.ratings.standings import Board, Line, board, of_game, ranked
from services.snapshots import Snapshots
from storage import Database, RatingEvent

__all__ = [
    "Card",
    "Change",
    "FamilyCard",
    "Ratings",
    "SeasonEnd",
    "TableRatings",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Change:
    user_id: int
    before: int
    after: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class TableRatings:
    """What a finished game did to its players' ratings in its chat."""

    changes: list[Change] = field(default_factory=list)
    achievements: list[tuple[int, str]] = field(default_factory=list)
    skipped: str | None = None


@dataclass(frozen=True, slots=True)
class FamilyCard:
    family: str
    rating: int
    games: int
    peak: int
    """The highest value it has shown, the one it started at included."""
    season_place: int | None
    history: list[int]
    """The rating across chats before the first game, then after each."""

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Card:
    """A person's ratings (across chats, his place in the chat's season) and
    achievements."""

    families: list[FamilyCard]
    achievements: list[str]


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    chat_id: int
    season: str
    boards: list[Board]

    @property
    def champions(self) -> list[tuple[str, Line]]:
        """Per family, its first place (a person)."""
        return [(b.family, b.top[0]) for b in self.boards if b.top]


class Ratings:
    def __init__(self, db: Database, snapshots: Snapshots, clock: Clock) -> None:
        self._db = db
        self._snapshots = snapshots
        self._clock = clock

    # --- rating the stored games -------------------------------------------------

    async def catch_up(self) -> int:
        """Rate every finished game not yet read, in the order they finished
        (at start: games of an earlier version, or a game whose rating a
        failure left out).  Returns how many were read."""
        async with self._db.read() as tx:
            unread = await tx.ratings.unread_results()
        for game in unread:
            try:
                async with self._db.transaction() as tx:
                    await rate_game(tx, self._snapshots, game.table_id)
            except Exception:
                # The bot starts all the same; the game is tried at the next start.
                log.exception("rating table %s failed", game.table_id)
        if unread:
            log.info("ratings: %d finished games read", len(unread))
        return len(unread)

    async def recompute(self) -> int:
        """Forget every rating and rate every stored game again, in order (after
        a change to the rating rules).  Season ends already told stay told."""
        async with self._db.transaction() as tx:
            await tx.ratings.clear()
        return await self.catch_up()

    def season(self) -> str:
        """The chats' current season (``2026-11``)."""
        return season_of(self._clock.now())

    # --- reading ---------------------------------------------------------------------

    async def standings(
        self, chat_id: int, game: str | None = None, user_id: int | None = None
    ) -> list[Board]:
        """The chat's standings in the current season, per family of ``game``
        (None: every game)."""
        season = season_of(self._clock.now())
        return await self._boards(chat_id, season, game, user_id)

    async def top(self, game: str | None = None, user_id: int | None = None) -> list[Board]:
        """The standings across chats (the computers' levels among them)."""
        return await self._boards(ACROSS, "", game, user_id)

    async def _boards(
        self, scope: int, season: str, game: str | None, user_id: int | None
    ) -> list[Board]:
        who = None if user_id is None else who_person(user_id)
        async with self._db.read() as tx:
            families = of_game(await tx.ratings.families(scope, season), game)
            return [board(f, await tx.ratings.standings(scope, season, f), who) for f in families]

    async def card(self, user_id: int, chat_id: int | None = None) -> Card:
        who = who_person(user_id)
        season = season_of(self._clock.now())
        async with self._db.read() as tx:
            history = await tx.ratings.history(ACROSS, who)
            places: dict[str, int] = {}
            if chat_id is not None:
                for family in await tx.ratings.families(chat_id, season):
                    lines = ranked(await tx.ratings.standings(chat_id, season, family))
                    mine = next((line.place for line in lines if line.who == who), None)
                    if mine is not None:
                        places[family] = mine
            earned = [code for _, code in await tx.ratings.achievements(user_id=user_id)]
        by_family: dict[str, list[RatingEvent]] = {}
        for event in history:
            by_family.setdefault(event.family, []).append(event)
        families = []
        for family, events in sorted(by_family.items()):
            values = [shown(e.mu_after, e.sigma_after) for e in events]
            start = shown(events[0].mu_before, events[0].sigma_before)
            families.append(
                FamilyCard(
                    family,
                    values[-1],
                    len(values),
                    # The highest it has shown, the start included: a first
                    # game lost leaves the peak at 1000, never below it.
                    max(start, *values),
                    places.get(family),
                    [start, *values],
                )
            )
        return Card(families, earned)

    async def of_table(self, table_id: int) -> TableRatings:
        """The chat ratings' changes a finished game made, and the achievements
        it gave (each announced with the game that earned it, so once)."""
        async with self._db.read() as tx:
            read = await tx.ratings.rated_game(table_id)
            if read is None:
                return TableRatings()
            events = [e for e in await tx.ratings.events(table_id=table_id) if e.scope != ACROSS]
            changes = []
            for e in events:
                row = await tx.ratings.current(e.scope, e.season, e.family, e.who)
                games = row.games if row is not None else 1
                changes.append(
                    Change(
                        int(e.who[1:]),
                        shown(e.mu_before, e.sigma_before),
                        shown(e.mu_after, e.sigma_after),
                        games < PROVISIONAL_GAMES,
                    )
                )
            earned = await tx.ratings.achievements(table_id=table_id)
        return TableRatings(changes, earned, read.skipped)

    # --- seasons -------------------------------------------------------------------------

    async def seasons_ended(self) -> list[SeasonEnd]:
        """The last season's ends not told yet, per chat.  Only the season just
        ended is told: after an upgrade, or a bot down for a month and more,
        older seasons pass in silence (their standings stay readable)."""
        ended = previous_season(self._clock.now())
        async with self._db.read() as tx:
            untold = await tx.ratings.seasons_untold(ended)
        return [
            SeasonEnd(chat, ended, await self._boards(chat, ended, None, None)) for chat in untold
        ]

    async def champions_before(self, chat_id: int, season: str) -> set[str]:
        """The people who won a family in the chat's season before ``season``."""
        async with self._db.read() as tx:
            earlier = [s for c, s in await tx.ratings.seasons(chat_id) if s < season]
        if not earlier:
            return set()
        boards = await self._boards(chat_id, max(earlier), None, None)
        return {b.top[0].who for b in boards if b.top and b.top[0].level is None}

    async def season_told(self, chat_id: int, season: str) -> None:
        async with self._db.transaction() as tx:
            await tx.ratings.season_told(chat_id, season)

"""Use cases: tables (their moves and changes) and their snapshots, lobby,
moderation, timers, computers, scores, ratings, people, fair deals, duplicates,
the analysis of a player's game.
No Telegram types in here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from games.spec import GameSpec
from players.computer import Computer
from players.levels import Level, searches
from services.analysis import Analyses, Analysis, Mistake
from services.background import Background
from services.clock import Clock, SystemClock
from services.computers import PAUSE, Computers
from services.directory import ChatInfo, Directory, Person
from services.duplicates import Comparison, Duplicates, HandResult
from services.errors import ServiceError
from services.fairness import SCHEME_V2, Fairness, Verdict
from services.history import Histories, History, HistoryError, Step
from services.lobby import Lobby, Setting
from services.moderation import Moderation
from services.ratings import Ratings
from services.replays import Replays
from services.scores import MIN_GAMES, Scores, Standings, win_share
from services.snapshots import LoggedEvent, Snapshot, Snapshots
from services.tables import TableObserver, Tables
from services.thinking import Thinking, ThinkingFailed
from services.timers import Timers
from storage import (
    Actor,
    Database,
    DeadlineRow,
    EndReason,
    OnAbsence,
    ScoreRow,
    SeatRow,
    Status,
    TableRow,
)

__all__ = [
    "MIN_GAMES",
    "SCHEME_V2",
    "Actor",
    "Analyses",
    "Analysis",
    "Background",
    "ChatInfo",
    "Clock",
    "Comparison",
    "DeadlineRow",
    "Duplicates",
    "EndReason",
    "HandResult",
    "Histories",
    "History",
    "HistoryError",
    "Lobby",
    "LoggedEvent",
    "Mistake",
    "OnAbsence",
    "Person",
    "Replays",
    "ScoreRow",
    "SeatRow",
    "ServiceError",
    "Services",
    "Setting",
    "Snapshot",
    "Snapshots",
    "Standings",
    "Status",
    "Step",
    "SystemClock",
    "TableObserver",
    "TableRow",
    "Thinking",
    "ThinkingFailed",
    "Verdict",
    "win_share",
]
# The rows of tables, seats, deadlines and scores are the services' own types
# too: the Telegram layer reads them from here, never from storage.


@dataclass(frozen=True)
class Services:
    db: Database
    clock: Clock
    background: Background
    directory: Directory
    snapshots: Snapshots
    tables: Tables
    lobby: Lobby
    moderation: Moderation
    timers: Timers
    computers: Computers
    scores: Scores
    fairness: Fairness
    histories: Histories
    replays: Replays
    duplicates: Duplicates
    analyses: Analyses
    ratings: Ratings

    @classmethod
    def create(
        cls,
        db: Database,
        *,
        games: Mapping[str, GameSpec],
        computers: Mapping[str, Computer],
        clock: Clock,
        default_language: str,
        heartbeat: float = 1.0,
        pause: tuple[float, float] = PAUSE,
        thinking: Thinking | None = None,
        seeds: Callable[[], int] | None = None,
    ) -> Services:
        """``computers`` are the games' computer players, by game key;
        ``thinking`` runs the search players (by default in a pool of worker
        processes, one per core, started at the first search)."""
        background = Background()
        same = frozenset(
            key for key, computer in computers.items() if not searches(computer, Level.HARD)
        )
        snapshots = Snapshots(db, games, same_at_every_level=same)
        tables = Tables(db, snapshots, clock)
        timers = Timers(db, tables, clock, background, heartbeat=heartbeat)
        thinking = thinking or Thinking()
        seats = Computers(tables, snapshots, computers, clock, background, thinking, pause=pause)
        histories = Histories(db, snapshots)
        tables.observe(timers)
        tables.observe(seats)
        directory = Directory(db, default_language)
        histories = Histories(db, snapshots)
        return cls(
            db=db,
            clock=clock,
            background=background,
            directory=directory,
            snapshots=snapshots,
            tables=tables,
            lobby=Lobby(tables, snapshots, seeds),
            moderation=Moderation(tables, snapshots),
            timers=timers,
            computers=seats,
            scores=Scores(db),
            fairness=Fairness(db, snapshots, histories),
            histories=histories,
            replays=Replays(db, histories),
            duplicates=Duplicates(db, tables, snapshots),
            analyses=Analyses(db, histories, computers, thinking),
            ratings=Ratings(db, snapshots, clock),
        )

    async def start(self) -> None:
        """Run the deadlines (after a restart: with the time lost added) and let
        computers whose turn it is move.  First the finished games the ratings
        have not read are rated (an upgrade's, or one whose rating failed)."""
        await self.ratings.catch_up()
        await self.timers.start()
        await self.computers.resume()

    async def stop(self) -> None:
        """Stop every background task (the Telegram layer's too); the heartbeat
        written last says when the bot stopped."""
        await self.computers.stop()
        await self.timers.stop()
        await self.background.stop()

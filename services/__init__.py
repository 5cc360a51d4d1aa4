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
from services.leases import CHANNEL, EVERY_CHAT, ChatHolder, ChatLeases, Holding, worker_id
from services.leases import TTL as LEASE_TTL
from services.lobby import Lobby, Setting
from services.moderation import Moderation, seated_named
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
    "CHANNEL",
    "EVERY_CHAT",
    "MIN_GAMES",
    "SCHEME_V2",
    "Actor",
    "Analyses",
    "Analysis",
    "Background",
    "ChatHolder",
    "ChatInfo",
    "ChatLeases",
    "Clock",
    "Comparison",
    "DeadlineRow",
    "Duplicates",
    "EndReason",
    "HandResult",
    "Histories",
    "History",
    "HistoryError",
    "Holding",
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
    "seated_named",
    "win_share",
    "worker_id",
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
    leases: ChatLeases | None
    """With several workers: the chats this one holds (None: one process, every chat)."""

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
        worker: str | None = None,
        lease_seconds: float = LEASE_TTL,
    ) -> Services:
        """``computers`` are the games' computer players, by game key;
        ``thinking`` runs the search players (by default in a pool of worker
        processes, one per core, started at the first search); ``worker``,
        this worker's id when several share the database (each then acts on
        the chats it holds, :mod:`services.leases`, under leases of
        ``lease_seconds``)."""
        background = Background()
        same = frozenset(
            key for key, computer in computers.items() if not searches(computer, Level.HARD)
        )
        snapshots = Snapshots(db, games, same_at_every_level=same)
        tables = Tables(db, snapshots, clock)
        leases = None
        if worker is not None:
            leases = ChatLeases(db, clock, background, worker, ttl=lease_seconds)
        holding: Holding = EVERY_CHAT if leases is None else leases
        timers = Timers(db, tables, clock, background, heartbeat=heartbeat, holding=holding)
        thinking = thinking or Thinking()
        seats = Computers(
            tables, snapshots, computers, clock, background, thinking, pause=pause, holding=holding
        )
        tables.observe(timers)
        tables.observe(seats)
        directory = Directory(db, default_language, now=None if leases is None else clock.now)
        if leases is not None:
            leases.add(directory)  # first: the others read the chat's settings through it
            leases.add(timers)
            leases.add(seats)
        histories = Histories(db, snapshots)
        return cls(
            leases=leases,
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
        if self.leases is not None:
            await self.leases.start()

    @property
    def holding(self) -> Holding:
        """Which chats this process acts on."""
        return EVERY_CHAT if self.leases is None else self.leases

    async def take(self, chat_id: int) -> bool:
        """Act on ``chat_id``: True if this process may (one process always
        may; a worker among several if it holds the chat or could take it)."""
        return self.leases is None or await self.leases.take(chat_id)

    async def stop(self) -> None:
        """Stop every background task (the Telegram layer's too); the heartbeat
        written last says when the bot stopped.  A worker then releases its
        chats, which the others take at once."""
        await self.computers.stop()
        await self.timers.stop()
        if self.leases is not None:
            await self.leases.stop()
        await self.background.stop()

"""Persistence on SQLite (embedded, the default) or PostgreSQL: migrations,
transactions and queries by area.  No Telegram here."""

from storage.analyses import OwedAnalysis
from storage.connection import DatabaseError, IntegrityError
from storage.db import Database, DatabaseTooNewError, Tx
from storage.deadlines import LOBBY_SEAT, DeadlineRow
from storage.messages import HandMessageRow, Messages, Retiring, TableMessageRow
from storage.people import ChatRow, UserRow
from storage.ratings import FinishedGame, RatedGame, RatingEvent, RatingRow
from storage.scores import ScoreDelta, ScoreRow
from storage.tables import (
    Actor,
    EndReason,
    MoveRow,
    OnAbsence,
    SeatRow,
    StaleVersionError,
    Status,
    TableExistsError,
    TableRow,
)

__all__ = [
    "LOBBY_SEAT",
    "Actor",
    "ChatRow",
    "Database",
    "DatabaseError",
    "DatabaseTooNewError",
    "DeadlineRow",
    "EndReason",
    "FinishedGame",
    "HandMessageRow",
    "IntegrityError",
    "Messages",
    "MoveRow",
    "OnAbsence",
    "OwedAnalysis",
    "RatedGame",
    "RatingEvent",
    "RatingRow",
    "Retiring",
    "ScoreDelta",
    "ScoreRow",
    "SeatRow",
    "StaleVersionError",
    "Status",
    "TableExistsError",
    "TableMessageRow",
    "TableRow",
    "Tx",
    "UserRow",
]

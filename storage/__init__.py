"""SQLite persistence: migrations, transactions and queries.  No Telegram here."""

from storage.db import Database, DatabaseTooNewError
from storage.repo import (
    ChatRow,
    MoveRow,
    ScoreDelta,
    ScoreRow,
    SeatRow,
    StaleVersionError,
    TableExistsError,
    TableRow,
    Tx,
    UserRow,
)

__all__ = [
    "ChatRow",
    "Database",
    "DatabaseTooNewError",
    "MoveRow",
    "ScoreDelta",
    "ScoreRow",
    "SeatRow",
    "StaleVersionError",
    "TableExistsError",
    "TableRow",
    "Tx",
    "UserRow",
]

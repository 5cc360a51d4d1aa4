"""Use cases: lobby, moves, scores, people.  No Telegram types in here."""

from __future__ import annotations

from dataclasses import dataclass

from services.errors import ServiceError
from services.hands import Hands
from services.lobby import Lobby
from services.moves import Moves
from services.people import ChatInfo, Directory, Person
from services.scores import Scores
from storage import Database

__all__ = ["ChatInfo", "Directory", "Person", "ServiceError", "Services"]


@dataclass(frozen=True)
class Services:
    db: Database
    directory: Directory
    lobby: Lobby
    moves: Moves
    scores: Scores
    hands: Hands

    @classmethod
    def create(cls, db: Database, default_language: str) -> Services:
        return cls(
            db=db,
            directory=Directory(db, default_language),
            lobby=Lobby(db),
            moves=Moves(db),
            scores=Scores(db),
            hands=Hands(db),
        )

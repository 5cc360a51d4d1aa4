"""Skill ratings: the model (:mod:`.model`), one game's rating
(:mod:`.rating`), seasons and days (:mod:`.seasons`), standings
(:mod:`.standings`) and the use cases (:mod:`.service`).  See ``docs/ratings.md``."""

from services.ratings.model import PROVISIONAL_GAMES, Skill, shown
from services.ratings.rating import ACROSS, DAILY_CAP, family_of
from services.ratings.seasons import next_season_start, season_of
from services.ratings.service import Card, Change, FamilyCard, Ratings, SeasonEnd, TableRatings
from services.ratings.standings import SHOWN, Board, Line

__all__ = [
    "ACROSS",
    "DAILY_CAP",
    "PROVISIONAL_GAMES",
    "SHOWN",
    "Board",
    "Card",
    "Change",
    "FamilyCard",
    "Line",
    "Ratings",
    "SeasonEnd",
    "Skill",
    "TableRatings",
    "family_of",
    "next_season_start",
    "season_of",
    "shown",
]

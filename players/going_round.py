"""Computers going round: Durak's heuristics can pass the same cards round for
ever, and no rule ends that.  A computer seat that meets the very same view
of its seat a third time (:data:`REPEATS`) moves at random, which breaks the
round.  The bot's computers (``services.computers``) and the arena's
(``bench.arena``) keep the same count, so the arena measures the players as
the bot plays them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field

__all__ = ["REPEATS", "Met"]

REPEATS = 3
"""The times a computer may have met its seat's view (its hand, the table, the
scores: the game's own seat view) before it moves at random.  A game moving
on seldom shows a seat the same view again (over 3,440 heuristic Durak games,
38 made random moves, at most 10 each); the third time, the same moves are
most likely coming round."""


@dataclass(slots=True)
class Met:
    """The views one game's computer seats have met, each by its hash, and how
    often; and the seats already counted at the game's move :attr:`moves`."""

    views: Counter[int] = field(default_factory=Counter)
    moves: int = -1
    looked: set[int] = field(default_factory=set)

    def going_round(self, seat: int, view: Hashable, moves: int) -> bool:
        """Count ``view`` as met once more by ``seat`` at the game's move
        ``moves`` (once a move: a refused move looks again at the same view);
        whether it has been met :data:`REPEATS` times."""
        if self.moves != moves:
            self.moves, self.looked = moves, set()
        key = hash((seat, view))
        if seat not in self.looked:
            self.looked.add(seat)
            self.views[key] += 1
        return self.views[key] >= REPEATS

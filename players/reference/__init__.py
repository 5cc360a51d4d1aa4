"""Reference players: published algorithms, not ours, for the arena to measure
our search against (issue 29: "opponents we did not write").

* :class:`~players.reference.ismcts.InformationSetMCTS`: single-observer
  information set MCTS (Cowling, Powley and Whitehouse, 2012);
* :class:`~players.reference.pimc.PerfectInformationMonteCarlo`: perfect
  information Monte Carlo, determinized flat Monte Carlo (Long, Sturtevant,
  Buro and Furtak, 2010; Ginsberg's GIB).

Like our search players they are handed a :class:`~players.search.Situation`
(the seat's knowledge, as a world dealt from it alone) and a seeded rng, and
are given the same budget (:func:`players.levels.budget`); each module says
which variant it implements.  They are not offered in the lobby.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from players.reference.ismcts import InformationSetMCTS
from players.reference.pimc import PerfectInformationMonteCarlo
from players.search import Budget, Horizon, Searcher

__all__ = ["REFERENCES", "InformationSetMCTS", "PerfectInformationMonteCarlo"]

REFERENCES: Mapping[str, Callable[[Budget, Horizon], Searcher]] = {
    "ismcts": InformationSetMCTS,
    "pimc": PerfectInformationMonteCarlo,
}
"""The reference players by the name an arena line calls them."""

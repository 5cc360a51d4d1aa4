"""A computer whose search fails in the worker (its horizon values running totals,
which Durak does not keep) while its heuristic plays well: a worker can import it by
its path like any game's."""

from __future__ import annotations

from dataclasses import replace

import players.durak
from players.search import Horizon

COMPUTER = replace(
    players.durak.COMPUTER,
    module=__name__,
    horizon=Horizon(stop_at=frozenset({"round_over"})),
)

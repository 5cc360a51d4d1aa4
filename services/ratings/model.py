"""The rating model: OpenSkill's Weng-Lin Plackett-Luce, and what a game's
result means to it.  Pure: no storage, no clock.

A rating is a belief about a player's skill, a mean ``mu`` and an uncertainty
``sigma`` (a new player: 25 and 25/3).  What people see is the conservative
value ``mu - 3 sigma`` on a familiar scale (:func:`shown`: a newcomer shows
1000, a strong regular about 1800), marked provisional for their first
:data:`PROVISIONAL_GAMES` games.  A game ranks its seats by its outcome's
places (ties share a rank; the game's teams rank as teams at their best
member's place), and every rated player's rating moves by the model's update,
scaled by his share of his seat's moves (a seat a computer took over from an
absent person).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "MU",
    "PROVISIONAL_GAMES",
    "SIGMA",
    "Skill",
    "Unit",
    "partial",
    "ranks",
    "rate",
    "shown",
    "units",
]

MU = 25.0
SIGMA = MU / 3
PROVISIONAL_GAMES = 10
"""Games before a rating is trusted (until then it is shown as provisional)."""
_SCALE = 40
_BASE = 1000

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    """The value people see: ``1000 + 40 (mu - 3 sigma)``, rounded."""
    return round(_BASE + _SCALE * (mu - 3 * sigma))


def rate(teams: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """Every player's skill after a game of ``teams`` (one skill per member)
    that ended at ``places`` (0 is first; equal places tie)."""
    before = [[_MODEL.create_rating([s.mu, s.sigma]) for s in team] for team in teams]
    after = _MODEL.rate(before, ranks=[float(p) for p in places])
    return [[Skill(r.mu, r.sigma) for r in team] for team in after]


def partial(before: Skill, after: Skill, share: float) -> Skill:
    """The update a player gets for playing ``share`` of his seat's moves."""
    if share >= 1:
        return after
    return Skill(
        before.mu + share * (after.mu - before.mu),
        before.sigma + share * (after.sigma - before.sigma),
    )


def ranks(places: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each seat's place from an outcome's ``places`` (best first, tied seats
    in one tuple): 0, 1, ..."""
    return {seat: n for n, tied in enumerate(places) for seat in tied}


@dataclass(frozen=True, slots=True)
class Unit:
    """What the model rates as one: a player, or a team."""

    seats: tuple[int, ...]
    place: int


def units(
    places: Sequence[Sequence[int]],
    teams: Sequence[Sequence[int]],
    playing: Sequence[int],
) -> list[Unit]:
    """The rated units of a game: its teams (placed at their best member's
    place) or, without teams, each seat; only the ``playing`` seats count
    (a seat /kick removed does not).  Places are renumbered 0, 1, ... in order."""
    place_of: Mapping[int, int] = ranks(places)
    groups = [tuple(team) for team in teams] if teams else [(seat,) for seat in sorted(place_of)]
    kept = [
        (tuple(s for s in group if s in playing), min(place_of.get(s, len(places)) for s in group))
        for group in groups
    ]
    kept = [(seats, place) for seats, place in kept if seats]
    order = sorted({place for _, place in kept})
    return [Unit(seats, order.index(place)) for seats, place in kept]

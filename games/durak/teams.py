"""Durak in teams (seed 003): partners sit opposite each other (seats of one
parity), and a player who goes out hands his place in the round to his
nearest partner still holding cards; a team with no cards left wins.

Functions over the engine's state; :class:`~games.durak.engine.Durak` calls
them only when ``rules.teams`` is on.
"""

from __future__ import annotations

from games.core import Event
from games.durak.state import NOBODY, DurakState

__all__ = ["hand_over", "team_over"]


def team_over(game: DurakState, events: list[Event]) -> bool:
    """The stock empty: a team with no cards left wins (both at once: a
    draw); otherwise each place of a player who went out passes to his
    nearest partner still holding cards."""
    hands = game._hands
    n = game._n
    empty = [not any(hands[s] for s in range(team, n, 2)) for team in (0, 1)]
    if empty[0] or empty[1]:
        game._losing_team = NOBODY if empty[0] == empty[1] else int(empty[0])
        game._end()
        if game._losing_team == NOBODY:
            events.append(Event("game_over", value="draw"))
        else:
            events.append(Event("game_over", value=f"team{game._losing_team}"))
        return True
    hand_over(game, events)
    return False


def hand_over(game: DurakState, events: list[Event] | None) -> None:
    """Each place whose player has no cards goes to the nearest partner
    clockwise who has."""
    hands = game._hands
    n = game._n
    for place in range(n):
        if hands[game._ctl[place]]:
            continue
        for k in range(2, n, 2):
            partner = (place + k) % n
            if hands[partner]:
                game._ctl[place] = partner
                if events is not None:
                    events.append(Event("hand_over", partner, target=place))
                break

"""What the players see of a 101 match, as JSON (the bot renders from this).

Public view (``public_view()``), all JSON; card codes appear only as ``top``
and in ``revealed``; suits are one-letter strings (``"s"``, ``"c"``, ``"d"``,
``"h"``), never card codes::

    {
      "game": "101",
      "phase": "play" | "order" | "round_over" | "over",
      "round": 1,                  # round number, from 1
      "leader": 0,                 # who led this round
      "to_move": [2],              # seats that may act now
      "top": "7h" | null,          # top card of the discard pile
      "ordered": "s" | null,       # suit ordered by the master card / English ace
      "follow": "s" | null,        # English durak: the ace's player must add this suit
      "pending": null | {          # an effect not yet carried out
          "seat": 3,               #   the player it will hit
          "draw": 2,               #   cards he will draw
          "skip": true,            #   he will miss his turn
          "again": false,          #   (order phase) the orderer moves again after
          "answer": true           #   he is on move and may answer it with an ace
      },
      "hands": [5, 4, 0, 7],       # cards held, per seat
      "stock": 12,                 # cards in the stock
      "discard": 6,                # cards in the discard pile, top included
      "totals": [10, 0, 45, 99],   # penalty points, per seat
      "eliminated": [1],           # eliminated seats, in order of elimination
      "resigned": [1],             # the eliminated who left the match, in order
      "last_round": null | {       # the last scored round
          "winner": 0,
          "penalties": [-20, null, 14, 3],  # per seat; null = not in that round;
                                            # the winner's entry is his bonus (<= 0)
          "doubled": false,        # jack variant: he finished on a jack
          "blocked": false,        # the round was blocked (see the docs); the
                                   # winner is then the lowest hand
          "reset": [3],            # seats whose total hit the ceiling exactly -> 0
          "eliminated": [2]        # seats eliminated by that round
      },
      "revealed": null | {"2": ["7h", "As"], ...}  # round_over/over: hands left
    }

Seat view (``view(seat)``) adds::

      "seat": 2,
      "hand": ["6s", "Qh", ...],   # own cards, sorted by rank then suit
      "playable": [1]              # indices into "hand" of the cards he may lay now

A view names each card at most once (the conformance suite counts every code
a view contains), hence ``playable`` holds indices and the seat's own hand is
left out of his ``revealed``.  The rules (ceiling, master card ...), the legal
actions (for buttons) and the outcome come from the game object itself.

Zones: ``stock`` (nobody), ``discard_top`` and ``discard`` (the cards under it;
everybody, they were all seen being played), ``hand<seat>`` (its owner; everybody
in the ``round_over``/``over`` phases, when hands are shown for counting).
"""

from __future__ import annotations

import operator

from games.core import JSON, Progress
from games.hundred_one.state import HundredOneState, Phase

__all__ = ["copy_last", "progress", "public_view", "seat_view"]

_BY_ORDER = operator.attrgetter("order")


def copy_last(last: dict[str, JSON] | None) -> dict[str, JSON] | None:
    """A copy of a last-round summary (its values are ints, bools and lists)."""
    if last is None:
        return None
    return {
        "winner": last["winner"],
        "penalties": list(last["penalties"]),
        "doubled": last["doubled"],
        "blocked": last["blocked"],
        "reset": list(last["reset"]),
        "eliminated": list(last["eliminated"]),
    }


def public_view(game: HundredOneState) -> dict[str, JSON]:
    phase = game._phase
    shown = phase is Phase.ROUND_OVER or phase is Phase.OVER
    discard = game._discard
    pending: dict[str, JSON] | None = None
    if phase is Phase.ORDER:
        draw, skip, again = game._after
        pending = {
            "seat": game._turn if again else game._next(game._turn),
            "draw": draw,
            "skip": skip,
            "again": again,
            "answer": False,
        }
    elif phase is Phase.PLAY and game._answer:
        pending = {"seat": game._turn, "draw": 0, "skip": True, "again": False, "answer": True}
    when = game._gone()
    eliminated = sorted(when, key=when.__getitem__)
    return {
        "game": game.key,
        "phase": phase.value,
        "round": game._round,
        "leader": game._leader,
        "to_move": sorted(game.to_move()),
        "top": discard[-1].code if discard else None,
        "ordered": game._ordered.value if game._ordered else None,
        "follow": game._follow.value if game._follow else None,
        "pending": pending,
        "hands": [len(h) for h in game._hands],
        "stock": len(game._stock),
        "discard": len(discard),
        "totals": list(game._totals),
        "eliminated": eliminated,
        "resigned": [s for s, _ in game._resigned],
        "last_round": copy_last(game._last),
        "revealed": (
            {str(s): [c.code for c in h] for s, h in enumerate(game._hands) if h} if shown else None
        ),
    }


def seat_view(game: HundredOneState, seat: int) -> dict[str, JSON]:
    out = public_view(game)
    hand = sorted(game._hands[seat], key=_BY_ORDER)
    revealed = out["revealed"]
    if revealed:
        revealed.pop(str(seat), None)
    out["seat"] = seat
    out["hand"] = [c.code for c in hand]
    if game._phase is Phase.PLAY and seat == game._turn:
        playable = set(game._playable())
        out["playable"] = [i for i, c in enumerate(hand) if c in playable]
    else:
        out["playable"] = []
    return out


def progress(game: HundredOneState) -> Progress:
    return Progress(game._phase.value, game._round, tuple(game._totals))

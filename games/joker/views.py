"""What the players see of a Joker game, as JSON (the bot renders from this).

``public_view()`` — everything the whole table sees::

    {
      "game": "joker",
      "phase": "deal" | "trump" | "bid" | "play" | "over",
      "deal": 5,                 # the deal in hand (in "deal": the next one), from 1
      "deals": 24,
      "cards": 5,                # cards each in that deal
      "pulka": 1,                # its pulka, from 1
      "schedule": [[1, 2, ...], [9, 9, 9, 9], ...],   # card counts, pulka by pulka
      "dealer": 0,
      "draw": [{"seat": null, "card": "Kd"}, {"seat": 0, "card": "7h"}, ...],
                                 # the first-dealer draw, until the first deal:
                                 # the card laid in the middle (seat null), then
                                 # the cards dealt face up until the first ace
      "trump": "h" | "none" | null,   # null: not known yet (the trump phase,
                                 # before the first deal)
      "trump_card": "8h" | "X1" | null,   # the turned card (a joker: no trump)
      "chooser": 1 | null,       # trump phase: who names the trump
      "bids": [1, null, 0, 2],   # null: not bid yet
      "forbidden": 2 | null,     # the bid the dealer may not make, on his bid
      "tricks": [0, 1, 0, 0],
      "hands": [4, 4, 3, 4],     # cards held
      "trick": [{"seat": 1, "card": "X1", "joker": "high", "suit": "s"},
                {"seat": 2, "card": "As", "joker": null, "suit": null}],
                                 # in the order played; "joker": "high" or
                                 # "takes" (led, with "suit") or "high"/"low"
                                 # (followed)
      "trick_done": false,       # the trick shown is complete (it stays until
                                 # the next lead, or the next deal)
      "trick_winner": null | 2,
      "turn": 3 | null,
      "to_move": [3],
      "void": [[], ["h"], [], []],    # suits each player has shown he lacks
      "sheet": [{"deal": 1, "cards": 1, "pulka": 1, "dealer": 0, "trump": "h",
                 "bids": [...], "tricks": [...], "points": [...]}, ...],
      "pulkas": [{"pulka": 1, "first": 0, "last": 7,   # rows of "sheet"
                  "premium": [2],        # seats that made every bid
                  "bonus": [-150, 0, 450, -300],
                  "doubled": [null, null, 5, null],   # row counted twice
                  "struck": [3, null, null, 6],       # row struck off
                  "subtotal": [...], "totals": [...]}, ...],
      "totals": [350, -100, 1200, 80],
      "resigned": null | 1,      # who left the game (it is over then)
      "winners": [2]             # once over
    }

``view(seat)`` adds ``"seat"`` and ``"hand"``: the seat's cards as codes,
jokers first, then the trump suit, then the other suits (♠ ♣ ♦ ♥), each from
its highest card down.  No string in a view other than a card's own code is a
valid card code.
"""

from __future__ import annotations

from typing import Any

from games.cards import SUITS
from games.core import JSON, Progress
from games.joker.cards import CARD, SUIT_MASK, bits_of
from games.joker.state import JokerState, Phase

__all__ = ["hand_order", "progress", "public_view", "seat_view"]

_JOKER_VALUES = {1: "high", 2: "takes", 3: "high", 4: "low"}


def _letter(index: int) -> str:
    return "none" if index < 0 else SUITS[index].value


def hand_order(hand: int, trump: int) -> list[int]:
    """Card bits of ``hand``: jokers, the trump suit, the others; high to low."""
    out = [b for b in (37, 36) if hand >> b & 1]
    suits = ([trump] if trump >= 0 else []) + [s for s in range(4) if s != trump]
    for s in suits:
        out.extend(reversed(bits_of(hand & SUIT_MASK[s])))
    return out


def _copy_row(row: dict[str, Any]) -> dict[str, JSON]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in row.items()}


def public_view(game: JokerState) -> dict[str, JSON]:
    n = game._n
    phase = game._phase
    deal = game._deal
    trick = game._trick
    trump: str | None = _letter(game._trump)
    if phase is Phase.TRUMP or (phase is Phase.DEAL and not game._rows):
        trump = None
    outcome = game.outcome()
    plan: list[list[int]] = []
    for count, pulka in zip(game._cards, game._pulka_of, strict=True):
        if pulka == len(plan):
            plan.append([])
        plan[-1].append(count)
    done = game._done
    winner = game._turn if done and trick else None
    return {
        "game": "joker",
        "phase": phase.value,
        "deal": deal + 1,
        "deals": len(game._cards),
        "cards": game._cards[deal],
        "pulka": game._pulka_of[deal] + 1,
        "schedule": plan,
        "dealer": game._dealer,
        "draw": [{"seat": s if s >= 0 else None, "card": CARD[b].code} for s, b in game._draw],
        "trump": trump,
        "trump_card": CARD[game._trump_card].code if game._trump_card >= 0 else None,
        "chooser": game._chooser if game._chooser >= 0 else None,
        "bids": [b if b >= 0 else None for b in game._bids],
        "forbidden": game.forbidden_bid(),
        "tricks": list(game._tricks),
        "hands": [h.bit_count() for h in game._hands],
        "trick": [
            {
                "seat": seat,
                "card": CARD[bit].code,
                "joker": _JOKER_VALUES.get(mode),
                "suit": _letter(suit) if suit >= 0 else None,
            }
            for seat, bit, mode, suit in trick
        ],
        "trick_done": done,
        "trick_winner": winner,
        "turn": None if phase is Phase.OVER else game._turn,
        "to_move": sorted(game.to_move()),
        "void": [[SUITS[s].value for s in range(4) if v >> s & 1] for v in game._void],
        "sheet": [_copy_row(r) for r in game._rows],
        "pulkas": [_copy_row(p) for p in game._pulkas],
        "totals": list(game._totals),
        "resigned": game._resigned if game._resigned >= 0 else None,
        "winners": sorted(outcome.winners) if outcome is not None else [],
        "seats": n,
    }


def seat_view(game: JokerState, seat: int) -> dict[str, JSON]:
    if not 0 <= seat < game._n:
        raise IndexError(f"no seat {seat}")
    view = public_view(game)
    view["seat"] = seat
    hand = game._hands[seat]
    view["hand"] = [CARD[b].code for b in hand_order(hand, game._trump)]
    return view


def progress(game: JokerState) -> Progress:
    return Progress(game._phase.value, game._deal + 1, tuple(game._totals))

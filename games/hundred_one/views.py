"""What the players see of a 101 match (the bot renders from this).

:class:`HundredOnePublicView` (``public_view()``) is what everybody sees;
:class:`HundredOneSeatView` (``view(seat)``) adds what only that seat sees.
Cards appear only as ``top`` and in ``revealed`` (and the seat's own
``hand``).  A view names each card at most once (the conformance suite counts
every card a view's JSON form holds), hence ``playable`` holds indices and the
seat's own hand is left out of his ``revealed``.  The rules (ceiling, master
card ...), the legal actions (for buttons) and the outcome come from the game
object itself.

Zones: ``stock`` (nobody), ``discard_top`` and ``discard`` (the cards under it;
everybody, they were all seen being played), ``hand<seat>`` (its owner; everybody
in the ``round_over``/``over`` phases, when hands are shown for counting).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from games.cards import Card, Rank, Suit
from games.core import Progress, View
from games.hundred_one.state import HundredOneState, LastRound, Phase

__all__ = [
    "HundredOnePublicView",
    "HundredOneSeatView",
    "LastRound",
    "Pending",
    "progress",
    "public_view",
    "seat_view",
]

_BY_ORDER = operator.attrgetter("order")


@dataclass(frozen=True, slots=True)
class Pending(View):
    """An effect of a laid card not yet carried out."""

    seat: int
    """The player it will hit."""
    draw: int
    """Cards he will draw."""
    skip: bool
    """He will miss his turn."""
    again: bool
    """(Order phase) the orderer moves again after ordering."""
    answer: bool
    """He is on move and may answer it with an ace."""


@dataclass(frozen=True, slots=True)
class HundredOnePublicView(View):
    """What everybody sees of the match."""

    phase: Phase
    round: int
    """The round under way (or just scored), from 1."""
    leader: int
    """Who led this round."""
    to_move: frozenset[int]
    """Seats that may act now."""
    top: Card | None
    """The top card of the discard pile."""
    ordered: Suit | None
    """The suit ordered by the master card (or the English ace)."""
    follow: Suit | None
    """English durak: the ace's player must add this suit."""
    pending: Pending | None
    hands: tuple[int, ...]
    """Cards held, per seat."""
    stock: int
    """Cards in the stock."""
    discard: int
    """Cards in the discard pile, top included."""
    totals: tuple[int, ...]
    """Penalty points, per seat."""
    eliminated: tuple[int, ...]
    """Eliminated seats, in order of elimination."""
    resigned: tuple[int, ...]
    """The eliminated who left the match, in order."""
    last_round: LastRound | None
    """The last scored round (:class:`~games.hundred_one.state.LastRound`)."""
    revealed: tuple[tuple[Card, ...], ...] | None
    """``round_over``/``over``: the hands left, per seat (empty for a seat
    without cards, and in a seat view for the reader's own hand)."""
    rounds: tuple[LastRound, ...]
    """Every round scored so far, in order: the match's sheet (a match saved
    before the rounds were kept has only those scored since)."""
    out: tuple[int, ...]
    """Per seat, the round in which he left the match (0: still in it)."""
    jack_out: tuple[int, ...]
    """Seats out of the match for holding a jack at a round's end (the jack
    as master card), under the ceiling."""


@dataclass(frozen=True, slots=True)
class HundredOneSeatView(HundredOnePublicView):
    """What one seat sees: the public view and its own cards."""

    seat: int
    hand: tuple[Card, ...]
    """Own cards, sorted by rank then suit."""
    playable: tuple[int, ...]
    """Indices into ``hand`` of the cards he may lay now."""


def _pending(game: HundredOneState, phase: Phase) -> Pending | None:
    if phase is Phase.ORDER:
        draw, skip, again = game._after
        seat = game._turn if again else game._next(game._turn)
        return Pending(seat, draw, skip, again, False)
    if phase is Phase.PLAY and game._answer:
        return Pending(game._turn, 0, True, False, True)
    return None


_PublicFields = tuple[
    Phase,
    int,
    int,
    frozenset[int],
    Card | None,
    Suit | None,
    Suit | None,
    Pending | None,
    tuple[int, ...],
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    LastRound | None,
    tuple[tuple[Card, ...], ...] | None,
    tuple[LastRound, ...],
    tuple[int, ...],
    tuple[int, ...],
]
"""The public view's fields in order (positional: quicker to build, and
mypy still checks each against the field it fills)."""


def _public_fields(game: HundredOneState, own: int | None) -> _PublicFields:
    """The public view's fields; ``own``: the seat whose hand its ``revealed``
    leaves out."""
    phase = game._phase
    discard = game._discard
    when = game._gone()
    revealed = None
    if phase is Phase.ROUND_OVER or phase is Phase.OVER:
        revealed = tuple(() if s == own else tuple(h) for s, h in enumerate(game._hands))
    return (
        phase,
        game._round,
        game._leader,
        game.to_move(),
        discard[-1] if discard else None,
        game._ordered,
        game._follow,
        _pending(game, phase),
        tuple(map(len, game._hands)),
        len(game._stock),
        len(discard),
        tuple(game._totals),
        tuple(sorted(when, key=when.__getitem__)),
        tuple(s for s, _ in game._resigned),
        game._last,
        revealed,
        game._rounds,
        tuple(game._out),
        _jack_out(game),
    )


def _jack_out(game: HundredOneState) -> tuple[int, ...]:
    """The seats out of the match under the ceiling, who did not leave it:
    with the jack as master card, for holding one at a round's end."""
    if game._master is not Rank.JACK:
        return ()
    resigned = {s for s, _ in game._resigned}
    ceiling = game.rules.ceiling
    return tuple(
        s
        for s, out in enumerate(game._out)
        if out and s not in resigned and game._totals[s] < ceiling
    )


def public_view(game: HundredOneState) -> HundredOnePublicView:
    return HundredOnePublicView(*_public_fields(game, None))


def seat_view(game: HundredOneState, seat: int) -> HundredOneSeatView:
    hand = tuple(sorted(game._hands[seat], key=_BY_ORDER))
    playable: tuple[int, ...] = ()
    if game._phase is Phase.PLAY and seat == game._turn:
        fits = set(game._playable())
        playable = tuple(i for i, c in enumerate(hand) if c in fits)
    return HundredOneSeatView(*_public_fields(game, seat), seat, hand, playable)


def progress(game: HundredOneState) -> Progress:
    return Progress(game._phase.value, game._round, tuple(game._totals))

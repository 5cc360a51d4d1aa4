"""What the players see of a Durak game (the bot paints from it).

:func:`public_view` gives a :class:`DurakPublicView`, everything the whole
table sees; :func:`seat_view` a :class:`DurakSeatView`, which adds what only
that seat sees.  A view names every card at most once, and never a card its
reader may not see: in a seat's view its own ``known`` entry is empty (those
cards are in ``hand``), and in blind durak nobody's hand is in his own view
(``seen`` names the other seats' cards instead).  ``to_json()`` gives the
plain form (cards as codes) that the secrecy probes scan and the playground
shows.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from games.cards import SUITS, Card, Suit
from games.core import Progress, View, view_builder
from games.durak.beating import CARD_BY_ORDER, SUIT_BITS, cards_of
from games.durak.state import DurakState, Phase
from games.durak.tables import SEAT_SETS

__all__ = [
    "BeatenPair",
    "DurakPublicView",
    "DurakSeatView",
    "PlaysFor",
    "TableRow",
    "progress",
    "public_view",
    "seat_view",
]


@dataclass(frozen=True, slots=True)
class TableRow(View):
    """One attack card of the bout and what lies on it."""

    attack: Card
    defense: Card | None
    """The card that beat it, face up; None while it is unbeaten, and always
    in believe / don't believe (its covers lie face down)."""
    covered: bool
    """A card lies on it, face up or (believe / don't believe) face down."""


@dataclass(frozen=True, slots=True)
class BeatenPair(View):
    """An attack card of the bout just beaten off, and its cover."""

    attack: Card
    defense: Card


@dataclass(frozen=True, slots=True)
class PlaysFor(View):
    """Teams: ``partner`` plays the place of ``seat``, who is out of cards."""

    partner: int
    seat: int


@dataclass(frozen=True, slots=True)
class DurakPublicView(View):
    """Everything the whole table sees."""

    phase: Phase
    trump: Suit
    trump_card: Card | None
    """The turned-up card while it lies under the stock; None once drawn or
    when it was the dealer's last card (no stock).  Diamonds durak with
    ``spade_named``: a spade over which the dealer names the trump (in the
    ``name`` phase ``trump`` is still that spade's suit)."""
    stock: int
    """Cards still to draw, the trump card included."""
    discard: int
    """Cards beaten off so far (``beaten`` included)."""
    beaten: tuple[BeatenPair, ...]
    """The bout just beaten off, shown until the next attack (then it joins
    the face-down discard pile)."""
    hands: tuple[int, ...]
    """Cards held, per seat."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards of his hand everybody knows (picked up from the
    table, or the trump card drawn or dealt to him), sorted as a hand is."""
    blind: bool
    """Blind durak: nobody sees his own hand."""
    active: frozenset[int]
    """Seats still in play."""
    attacker: int | None
    """Who attacked the current defender (after a transfer: the transferrer);
    None once over."""
    defender: int | None
    table: tuple[TableRow, ...]
    """The bout's attack cards in the order played."""
    taking: bool
    """The defender has said "take"."""
    passed: frozenset[int]
    """Throwers who passed since the last new card."""
    cap: int
    """Most attack cards this bout may hold."""
    dealer: int
    out_order: tuple[tuple[int, ...], ...]
    """Seats that went out, bout by bout."""
    left: tuple[int, ...]
    """Seats that left a game that went on without them, in the order they left."""
    aside: int
    """The cards they held, face down out of play."""
    durak: int | None
    """The loser, once the game is over (a player whose leaving ended it is
    the durak: the seats still ``active`` beside him keep their cards)."""
    teams: tuple[tuple[int, ...], ...]
    """The two teams' seats (empty without teams)."""
    plays_for: tuple[PlaysFor, ...]
    """Teams: the places of seats out of cards that their partners play."""
    losing_team: int | None
    """Teams: the index in ``teams`` of the team that lost, once over."""
    draw: bool
    """Over with nobody holding cards."""
    to_move: frozenset[int]
    """Seats that may act now."""
    refusable: bool
    """Perevodnoy with refusal: the attacker has just played his last cards
    against the last player left, who may still send them back (nothing
    beaten yet), and the attacker would then take them: he is not out yet."""


@dataclass(frozen=True, slots=True)
class DurakSeatView(DurakPublicView):
    """The public view as one seat sees it (its ``known`` entry empty), and
    what only that seat sees."""

    seat: int
    hand: tuple[Card, ...]
    """The seat's cards sorted by suit (♠ ♣ ♦ ♥ with the trump suit moved
    last), then by rank; empty in blind durak."""
    seen: tuple[tuple[Card, ...], ...]
    """Blind durak: every other seat's cards in the order of their positions
    (the seat's own entry empty); empty otherwise."""
    my_covers: tuple[Card | None, ...]
    """The defender of believe / don't believe: per row of ``table``, the card
    he put face down on it, or None; empty for everybody else."""


_build_public_view = view_builder(DurakPublicView)
_build_seat_view = view_builder(DurakSeatView)

_SUIT_MASKS = {
    trump: (*(SUIT_BITS[s] for s in SUITS if s is not trump), SUIT_BITS[trump]) for trump in SUITS
}
"""Per trump suit, the masks of the suits in the order a hand shows them (♠ ♣
♦ ♥, the trump suit moved last)."""
_NO_CARDS: tuple[Card, ...] = ()


def _sorted(mask: int, suits: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of ``mask`` suit by suit (``suits``: masks in order), each
    suit by rank."""
    if not mask:
        return _NO_CARDS
    a, b, c, d = suits
    return _run(mask & a) + _run(mask & b) + _run(mask & c) + _run(mask & d)


@functools.cache
def _run(held: int) -> tuple[Card, ...]:
    """The cards of ``held`` (one suit's) by rank: within a suit, ``Card.order``
    rises with the rank.  Cached: a suit holds at most 2**13 sets, and views
    are built at every move of a search's rollouts."""
    return tuple(cards_of(held))


def public_view(game: DurakState) -> DurakPublicView:
    suits = _SUIT_MASKS[game._trump]
    return _build_public_view(*_shared(game, tuple([_sorted(k, suits) for k in game._known])))


def seat_view(game: DurakState, seat: int) -> DurakSeatView:
    n = game.seats
    if not 0 <= seat < n:
        raise IndexError(f"no seat {seat}")
    suits = _SUIT_MASKS[game._trump]
    covers: tuple[Card | None, ...] = ()
    if game._face_down and seat == game._defender:
        covers = tuple(CARD_BY_ORDER[d] if d >= 0 else None for d in game._dfn)
    if game._blind:  # every hand but his own, in the order its holder plays it by
        seen = tuple(
            _NO_CARDS if s == seat else tuple(CARD_BY_ORDER[o] for o in game.in_order(s))
            for s in range(n)
        )
        nothing = (_NO_CARDS,) * n  # "seen" names the cards known of the others
        return _build_seat_view(*_shared(game, nothing), seat, _NO_CARDS, seen, covers)
    # His own known cards are in "hand".
    known = tuple(
        [_NO_CARDS if s == seat else _sorted(k, suits) for s, k in enumerate(game._known)]
    )
    hand = _sorted(game._hands[seat], suits)
    return _build_seat_view(*_shared(game, known), seat, hand, (), covers)


def _shared(
    game: DurakState, known: tuple[tuple[Card, ...], ...]
) -> tuple[
    Phase,
    Suit,
    Card | None,
    int,
    int,
    tuple[BeatenPair, ...],
    tuple[int, ...],
    tuple[tuple[Card, ...], ...],
    bool,
    frozenset[int],
    int | None,
    int | None,
    tuple[TableRow, ...],
    bool,
    frozenset[int],
    int,
    int,
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    int,
    int | None,
    tuple[tuple[int, ...], ...],
    tuple[PlaysFor, ...],
    int | None,
    bool,
    frozenset[int],
    bool,
]:
    """The fields of :class:`DurakPublicView` in order, ``known`` as given
    (the views are rebuilt at every move of a search's rollouts, so they are
    built straight into tuples, handed to a :func:`~games.core.view_builder`)."""
    n = game.seats
    beaten = game._beaten
    half = len(beaten) // 2
    over = game._over
    return (
        game.phase,
        game._trump,
        CARD_BY_ORDER[game._trump_card] if game._trump_in_stock else None,
        len(game._stock) + game._trump_in_stock,
        game._discard.bit_count() + len(beaten),
        tuple([_pair(a, d) for a, d in zip(beaten[:half], beaten[half:], strict=True)]),
        tuple([h.bit_count() for h in game._hands]),
        known,
        game._blind,
        SEAT_SETS[~game._out & ((1 << n) - 1)],
        None if over or game._attacker < 0 else game._attacker,
        None if over or game._defender < 0 else game._defender,
        _table(game),
        game._taking,
        SEAT_SETS[game._passed],
        game._cap,
        game._dealer,
        tuple(game._out_order),
        tuple(game._left),
        game._aside.bit_count(),
        game._durak if game._durak >= 0 else None,
        (tuple(range(0, n, 2)), tuple(range(1, n, 2))) if game._teams else (),
        tuple(PlaysFor(c, place) for place, c in enumerate(game._ctl) if c != place),
        game._losing_team if game._losing_team >= 0 else None,
        over and game._durak < 0 and game._losing_team < 0,
        game.to_move(),
        not over and game._refusal and game._refusable() and game._transfer_room()[1] > 0,
    )


def _table(game: DurakState) -> tuple[TableRow, ...]:
    if game._face_down:  # nobody sees a face-down cover, only that it lies there
        return tuple([_face_down_row(a, d >= 0) for a, d in zip(game._att, game._dfn, strict=True)])
    return tuple([_row(a, d) for a, d in zip(game._att, game._dfn, strict=True)])


# Rows and pairs are immutable, so each is made once: views are built at
# every move of a search's rollouts.


@functools.cache
def _row(attack: int, defense: int) -> TableRow:
    """The row of attack card ``attack`` (an order), beaten by ``defense``
    (an order; negative: unbeaten)."""
    if defense < 0:
        return TableRow(CARD_BY_ORDER[attack], None, False)
    return TableRow(CARD_BY_ORDER[attack], CARD_BY_ORDER[defense], True)


@functools.cache
def _face_down_row(attack: int, covered: bool) -> TableRow:
    return TableRow(CARD_BY_ORDER[attack], None, covered)


@functools.cache
def _pair(attack: int, defense: int) -> BeatenPair:
    return BeatenPair(CARD_BY_ORDER[attack], CARD_BY_ORDER[defense])


def progress(game: DurakState) -> Progress:
    return Progress(game.phase.value, 1)

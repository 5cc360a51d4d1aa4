"""What the players see of a Joker game (the bot renders from this).

:func:`public_view` gives a :class:`JokerPublicView`, everything the whole
table sees; :func:`seat_view` a :class:`JokerSeatView`, which adds the seat
and its cards.  The trick's cards are :class:`TrickCard` (a joker with its
declaration), the first-dealer draw :class:`DrawnCard`, and the score sheet
the rows the state keeps (:class:`~games.joker.scoring.SheetRow`,
:class:`~games.joker.scoring.PulkaRecord`), handed out as they are: they
never change.  ``to_json()`` gives the plain form (cards as codes, suits as
letters, enums as their values); no string in it other than a card's own
code is a valid card code.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from games.cards import SUITS, Card, Rank, Suit
from games.core import Progress, View
from games.joker.cards import CARD
from games.joker.rules import schedule
from games.joker.scoring import PulkaRecord, SheetRow
from games.joker.state import JokerState, Phase

__all__ = [
    "DrawnCard",
    "JokerMode",
    "JokerPublicView",
    "JokerSeatView",
    "Phase",
    "PulkaRecord",
    "SheetRow",
    "TrickCard",
    "progress",
    "public_view",
    "seat_view",
]


class JokerMode(enum.Enum):
    """How a joker on the table was declared."""

    HIGH = "high"
    """Led: everybody plays his highest card of the suit named, and it wins;
    followed: it takes the trick."""
    TAKES = "takes"
    """Led: the suit named takes, and the joker wins if nobody follows it."""
    LOW = "low"
    """Followed: it gives the trick away."""
    FACE = "face"
    """At face value (option ``face_value``): it is the six it replaces, of
    the :attr:`TrickCard.suit` given (see :attr:`TrickCard.counts_as`)."""


@dataclass(frozen=True, slots=True)
class TrickCard(View):
    """A card on the table."""

    seat: int
    """Who played it."""
    card: Card
    joker: JokerMode | None
    """A joker's declaration; None for an ordinary card."""
    suit: Suit | None
    """The suit a led joker named, or of the six a joker at face value is;
    None otherwise."""

    @property
    def counts_as(self) -> Card | None:
        """The ordinary card it counts as: itself, or the six of a joker at
        face value; None for a joker played as a joker."""
        if self.joker is None:
            return self.card
        if self.joker is JokerMode.FACE and self.suit is not None:
            return Card.of(Rank.SIX, self.suit)
        return None


@dataclass(frozen=True, slots=True)
class DrawnCard(View):
    """A card of the first-dealer draw."""

    seat: int | None
    """Who it was dealt to face up; None: the card laid in the middle."""
    card: Card


@dataclass(frozen=True, slots=True)
class JokerPublicView(View):
    """Everything the whole table sees."""

    phase: Phase
    deal: int
    """The deal in hand (in the deal phase: the next one), from 1."""
    deals: int
    cards: int
    """Cards each in that deal."""
    pulka: int
    """Its pulka, from 1."""
    schedule: tuple[tuple[int, ...], ...]
    """The card counts of every deal, pulka by pulka."""
    dealer: int
    draw: tuple[DrawnCard, ...]
    """The first-dealer draw, until the first deal: the card laid in the
    middle, then the cards dealt face up until the first ace."""
    trump: Suit | None
    """The trump of the deal in hand (in the deal phase: of the deal just
    played); None: no trump, or not known yet (see ``trump_known``)."""
    trump_known: bool
    """False while the trump is not known: in the trump phase and before the
    first deal."""
    trump_card: Card | None
    """The turned card (a joker: no trump); None when none was turned."""
    chooser: int | None
    """In the trump phase: who names the trump."""
    bids: tuple[int | None, ...]
    """Per seat; None: not bid yet."""
    forbidden: int | None
    """The bid the dealer may not make, on his bid."""
    tricks: tuple[int, ...]
    """Per seat: the tricks taken in this deal."""
    hands: tuple[int, ...]
    """Per seat: the cards held."""
    trick: tuple[TrickCard, ...]
    """The trick on the table, in the order played."""
    trick_done: bool
    """The trick shown is complete (it stays until the next lead, or the
    next deal)."""
    trick_winner: int | None
    """Who took the complete trick shown."""
    turn: int | None
    """Whose move it is; None once the game is over."""
    to_move: frozenset[int]
    void: tuple[frozenset[Suit], ...]
    """Per seat: the suits he has shown he lacks."""
    sheet: tuple[SheetRow, ...]
    """The score sheet: a row per deal played."""
    pulkas: tuple[PulkaRecord, ...]
    """A record per finished pulka."""
    totals: tuple[int, ...]
    resigned: int | None
    """Who left the game (it is over then)."""
    winners: frozenset[int]
    """Once the game is over (else empty)."""
    seats: int
    khisht: bool
    """Whether a bid of one or more that took no trick is a khisht (classic
    scoring; minus joker has none: a bid missed loses 100 a trick)."""


@dataclass(frozen=True, slots=True)
class JokerSeatView(JokerPublicView):
    """What one seat sees: the public view, the seat and its cards."""

    seat: int
    hand: tuple[Card, ...]
    """Jokers first, then the trump suit, then the other suits (♠ ♣ ♦ ♥),
    each from its highest card down."""


_JOKERS_HELD = tuple(tuple(CARD[b] for b in (37, 36) if held << 36 >> b & 1) for held in range(4))
"""By a hand's two joker bits: its jokers, the red one first."""
_SUIT_HELD = tuple(
    tuple(
        tuple(CARD[b] for r in range(8, -1, -1) if mask >> r & 1 and (b := s * 9 + r) in CARD)
        for mask in range(512)
    )
    for s in range(4)
)
"""``_SUIT_HELD[suit][9-bit mask]``: those cards of the suit, highest first
(the black sixes' bits are not cards: the deck has the jokers instead)."""
_SUIT_ORDER = tuple(
    ((trump,) if trump >= 0 else ()) + tuple(s for s in range(4) if s != trump)
    for trump in (0, 1, 2, 3, -1)
)
"""By the trump's suit index: the suits in a hand's order (no trump, -1,
indexes the last)."""


def _hand_cards(hand: int, trump: int) -> tuple[Card, ...]:
    """The cards of ``hand``: jokers, the trump suit, the others; high to low."""
    cards = _JOKERS_HELD[hand >> 36]
    for s in _SUIT_ORDER[trump]:
        cards += _SUIT_HELD[s][hand >> 9 * s & 0x1FF]
    return cards


_MODES = (None, JokerMode.HIGH, JokerMode.TAKES, JokerMode.HIGH, JokerMode.LOW, JokerMode.FACE)
"""By the state's play mode: an ordinary card, a joker led high, led
"takes", followed high, followed low, at face value."""
_VOID_SUITS = tuple(frozenset(SUITS[s] for s in range(4) if mask >> s & 1) for mask in range(16))
"""By a seat's mask of suits shown lacking."""
_NO_WINNERS: frozenset[int] = frozenset()
_DEAL, _TRUMP, _OVER = Phase.DEAL, Phase.TRUMP, Phase.OVER
"""As globals: Python 3.11 looks up an enum class's attributes slowly."""

_trick_cards: dict[tuple[int, int, int, int], TrickCard] = {}
"""The trick's cards by the state's entries ``(seat, bit, mode, suit)``, made
once each: views are built inside the search's rollouts."""


def _trick_card(entry: tuple[int, int, int, int]) -> TrickCard:
    found = _trick_cards.get(entry)
    if found is None:
        seat, bit, mode, suit = entry
        found = TrickCard(seat, CARD[bit], _MODES[mode], SUITS[suit] if suit >= 0 else None)
        _trick_cards[entry] = found
    return found


_PublicFields = tuple[
    Phase, int, int, int, int, tuple[tuple[int, ...], ...], int, tuple[DrawnCard, ...],
    Suit | None, bool, Card | None, int | None, tuple[int | None, ...], int | None,
    tuple[int, ...], tuple[int, ...], tuple[TrickCard, ...], bool, int | None, int | None,
    frozenset[int], tuple[frozenset[Suit], ...], tuple[SheetRow, ...], tuple[PulkaRecord, ...],
    tuple[int, ...], int | None, frozenset[int], int, bool,
]  # fmt: skip
"""The types of :class:`JokerPublicView`'s fields in order (mypy checks the
views built from them against the class)."""


def _fields(game: JokerState) -> _PublicFields:
    """The public view's fields, in order, for either view: one tuple is the
    cheapest way to hand them over."""
    phase = game._phase
    deal = game._deal
    trick = game._trick
    done = game._done
    known = not (phase is _TRUMP or (phase is _DEAL and not game._rows))
    trump = SUITS[game._trump] if known and game._trump >= 0 else None
    trump_card = game._trump_card
    chooser = game._chooser
    resigned = game._resigned
    outcome = game.outcome()
    return (
        phase,
        deal + 1,
        len(game._cards),
        game._cards[deal],
        game._pulka_of[deal] + 1,
        schedule(game.rules.deals),
        game._dealer,
        tuple([DrawnCard(s if s >= 0 else None, CARD[b]) for s, b in game._draw]),
        trump,
        known,
        CARD[trump_card] if trump_card >= 0 else None,
        chooser if chooser >= 0 else None,
        tuple([b if b >= 0 else None for b in game._bids]),
        game.forbidden_bid(),
        tuple(game._tricks),
        tuple([h.bit_count() for h in game._hands]),
        tuple([_trick_card(e) for e in trick]),
        done,
        game.trick_taker() if done and trick else None,
        None if phase is _OVER else game._turn,
        game.to_move(),
        tuple([_VOID_SUITS[v] for v in game._void]),
        game._rows,
        game._pulkas,
        tuple(game._totals),
        resigned if resigned >= 0 else None,
        outcome.winners if outcome is not None else _NO_WINNERS,
        game._n,
        not game.rules.minus,
    )


def public_view(game: JokerState) -> JokerPublicView:
    return JokerPublicView(*_fields(game))


def seat_view(game: JokerState, seat: int) -> JokerSeatView:
    if not 0 <= seat < game._n:
        raise IndexError(f"no seat {seat}")
    return JokerSeatView(*_fields(game), seat, _hand_cards(game._hands[seat], game._trump))


def progress(game: JokerState) -> Progress:
    return Progress(game._phase.value, game._deal + 1, tuple(game._totals))

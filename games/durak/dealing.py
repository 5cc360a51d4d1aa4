"""Setting a game up: the deal (:meth:`Durak.new <games.durak.engine.Durak.new>`,
:meth:`~games.durak.engine.Durak.deal`) and a position given card by card
(:meth:`~games.durak.engine.Durak.position`), as functions building the
engine's state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from games.cards import Card, Suit, deck, parse_cards
from games.core import Outcome, RulesError
from games.durak import teams
from games.durak.beating import SUIT_BITS, Beating, mask_of
from games.durak.rules import HAND_SIZE, DurakRules, FirstAttack, Trump, seat_range
from games.durak.state import DurakState
from games.durak.tables import DECKS

__all__ = ["checked_pack", "dealt", "lowest_trump_holder", "name_trump", "set_up", "turn_trump"]

G = TypeVar("G", bound=DurakState)

_LOWEST_DIAMOND = {
    size: min(c for c in cards if c.suit is Suit.DIAMONDS) for size, cards in DECKS.items()
}
"""Stands for the trump card when diamonds are trump and no card is turned."""


def _cards(items: Iterable[Card | str] | str) -> list[Card]:
    if isinstance(items, str):
        return parse_cards(items.replace(" ", ""))
    return [c if isinstance(c, Card) else Card.parse(c) for c in items]


def lowest_trump_holder(hands: Sequence[int], trump: Suit) -> int:
    """Who leads the first bout: the holder of the lowest trump; if nobody
    holds a trump, the holder of the lowest card (ties: lowest seat)."""
    suit = SUIT_BITS[trump]
    trumps = [(h & suit & -(h & suit), seat) for seat, h in enumerate(hands) if h & suit]
    if trumps:
        return min(trumps)[1]
    lowest = [((h & -h).bit_length() - 1 >> 2, seat) for seat, h in enumerate(hands) if h]
    if not lowest:
        raise ValueError("nobody holds a card")
    return min(lowest)[1]


def turn_trump(rules: DurakRules, rest: list[Card], shown: list[Card] | None = None) -> Card | None:
    """The card turned up as trump from the undealt ``rest`` (``rest[0]``),
    which then lies under the stock; None when the trump is not turned.

    Diamonds durak turns nothing.  Its option 5.a turns a card, but a spade
    goes into the middle of the stock and the next card is turned (``rest`` is
    reordered in place, and the spades everybody saw go in are added to
    ``shown``); if only spades are left, diamonds are trump, as they
    are when no card is left to turn and the dealer's last card is a spade.
    Where the middle lies above the first card that is not a spade (a short
    stock topped with spades), a spade goes in just below that card instead:
    otherwise the spades turned come back to the top, and the dealer turns
    them for ever.
    With the value ``spade_podkidnoy`` a turned spade stays: spades are trump
    and, since a spade is then beaten only by a higher spade anyway, the game
    is ordinary podkidnoy; with ``spade_named`` it stays too, and the dealer
    names the trump (:func:`name_trump`)."""
    if rules.trump is Trump.DIAMONDS or not rest:
        return None
    if rules.trump is Trump.TURNED_NO_SPADES:
        if all(c.suit is Suit.SPADES for c in rest):
            return None
        while rest[0].suit is Suit.SPADES:
            spade = rest.pop(0)
            first_other = next(i for i, card in enumerate(rest) if card.suit is not Suit.SPADES)
            rest.insert(max(len(rest) // 2, first_other + 1), spade)
            if shown is not None:
                shown.append(spade)
    return rest[0]


def checked_pack(rules: DurakRules, seats: int, pack: Sequence[Card | str] | str) -> list[Card]:
    """``pack`` as cards; raises unless it is the rules' whole deck and
    ``seats`` may play with it."""
    cards = _cards(pack)
    if seats not in seat_range(rules):
        raise RulesError(f"{rules.deck_size} cards: {seats} players is not allowed")
    full = DECKS[rules.deck_size]
    if len(cards) != len(full) or set(cards) != set(full):
        raise ValueError(f"the pack must be the {rules.deck_size}-card deck")
    return cards


def dealt(
    cls: type[G], rules: DurakRules, seats: int, cards: list[Card], previous: Outcome | None
) -> G:
    """The game dealt from ``cards`` (see :meth:`Durak.deal`)."""
    dealer = 0
    loser: int | None = None
    if previous is not None and previous.losers:
        candidate = min(previous.losers)  # in teams, any of the losers deals
        if 0 <= candidate < seats:
            dealer = loser = candidate
    hands = [0] * seats
    i = HAND_SIZE * seats
    receivers = [(dealer + 1 + j) % seats for j in range(i)]
    for seat, card in zip(receivers, cards, strict=False):
        hands[seat] |= 1 << card.order
    known = [0] * seats
    rest = cards[i:]
    shown: list[Card] = []
    turned = turn_trump(rules, rest, shown)
    if turned is not None:
        trump_card, stock, in_stock = turned, rest[1:], True
    elif (
        rest
        or rules.trump is Trump.DIAMONDS
        or (rules.trump is Trump.TURNED_NO_SPADES and cards[i - 1].suit is Suit.SPADES)
    ):
        trump_card, stock, in_stock = _LOWEST_DIAMOND[rules.deck_size], rest, False
    else:  # no stock: the dealer's last card shows the trump
        trump_card, stock, in_stock = cards[i - 1], [], False
        known[dealer] = 1 << trump_card.order
    assert trump_card.suit is not None
    game = cls._blank(rules, seats, trump_card.suit)
    game._trump_card = trump_card.order
    game._trump_in_stock = in_stock
    game._stock = [c.order for c in reversed(stock)]
    game._seen_in_stock = mask_of(shown)
    game._hands = hands
    game._known = known
    game._dealer = dealer
    game._first_bout = True
    if game._blind:
        game._arrive(card.order for card in cards[:i])
    if (
        previous is not None
        and loser is not None
        and rules.later_first_attack is FirstAttack.UNDER_LOSER
    ):
        game._locked = True
        game._start_bout((loser - 1) % seats)
    elif not (rules.trump is Trump.SPADE_NAMED and trump_card.suit is Suit.SPADES):
        game._start_bout(lowest_trump_holder(hands, trump_card.suit))
    # A spade shown with ``spade_named``: the dealer names the trump first.
    game._naming = rules.trump is Trump.SPADE_NAMED and trump_card.suit is Suit.SPADES
    return game


def name_trump(game: DurakState, suit: Suit) -> None:
    """The trump named (``spade_named``): the spade shown stays where it lies
    (under the stock, or in the dealer's hand), ``suit`` is trump, and the
    first bout starts from the lowest trump unless it is already set (under
    the loser, which no trump decides)."""
    rules = game.rules
    game._trump = suit
    game._beating = Beating(suit, rules.spades_by_spades, rules.unbeatable_queen)
    game._beaters = game._beating.table
    game._naming = False
    if game._attacker < 0:
        game._start_bout(lowest_trump_holder(game._hands, suit))


def set_up(
    cls: type[G],
    rules: DurakRules,
    hands: Sequence[Iterable[Card | str] | str],
    *,
    attacker: int,
    trump: Suit | str | None,
    trump_card: Card | str | None,
    stock: Iterable[Card | str] | str,
    dealer: int,
    first_bout: bool,
    transfer_locked: bool,
    out_order: Sequence[Sequence[int]],
) -> G:
    """A position at the start of a bout, for tests and puzzles.

    ``hands[seat]`` are the cards in each hand (``Card`` objects, codes, or
    one string of codes such as ``"6s 7h Ad"``); ``stock`` is drawn first to
    last, then ``trump_card`` (which lies under the stock; ``None`` means it
    has been drawn already, and ``trump`` names the suit).  Every other card
    of the deck is in the discard pile.  ``attacker`` leads the bout against
    the next player holding cards.  Seats without cards once stock and
    trump card are gone are out, in one group unless ``out_order`` says
    otherwise (in teams, a partner plays their places).  ``first_bout``
    makes the bout the game's first (for the
    five-card option), ``transfer_locked`` forbids transfers in it (as
    under the loser).  Raises ``ValueError`` for an impossible position.
    """
    seats = len(hands)
    if seats not in seat_range(rules):
        raise RulesError(f"{rules.deck_size} cards: {seats} players is not allowed")
    tcard = None if trump_card is None else _cards([trump_card])[0]
    if tcard is not None:
        suit = tcard.suit
    elif isinstance(trump, str):
        suit = Suit(trump)
    else:
        suit = trump
    if suit is None:
        raise ValueError("give the trump suit or the trump card")
    if tcard is not None and trump is not None and Suit(trump) is not suit:
        raise ValueError("trump and trump_card disagree")
    hand_cards = [_cards(h) for h in hands]
    stock_cards = _cards(stock)
    listed = [c for h in hand_cards for c in h] + stock_cards
    if tcard is not None:
        listed.append(tcard)
    full = set(deck(rules.deck_size))
    bad = sorted({c for c in listed if listed.count(c) > 1 or c not in full})
    if bad:
        raise ValueError(f"repeated or not in the deck: {' '.join(c.code for c in bad)}")
    game = cls._blank(rules, seats, suit)
    game._trump_card = (tcard or min(c for c in full if c.suit is suit)).order
    game._trump_in_stock = tcard is not None
    game._stock = [c.order for c in reversed(stock_cards)]
    game._hands = [mask_of(h) for h in hand_cards]
    game._known = [0] * seats
    if game._blind:
        for held in hand_cards:
            game._arrive(c.order for c in held)
    game._discard = mask_of(full - set(listed))
    game._dealer = dealer
    game._first_bout = first_bout
    game._locked = transfer_locked
    empty = [s for s in range(seats) if not game._hands[s]]
    if empty and (stock_cards or tcard is not None):
        raise ValueError("a hand is empty while cards are left to draw")
    groups = [tuple(g) for g in out_order] or ([tuple(empty)] if empty else [])
    if sorted(s for g in groups for s in g) != empty:
        raise ValueError("out_order must list exactly the seats without cards")
    game._out_order = groups
    for s in empty:
        game._out |= 1 << s
    if game._teams:
        if any(all(s in empty for s in range(team, seats, 2)) for team in (0, 1)):
            raise ValueError("each team must hold cards")
        teams.hand_over(game, None)
    elif seats - len(empty) < 2:
        raise ValueError("at least two players must hold cards")
    if not game._hands[game._ctl[attacker]]:
        raise ValueError("the attacker must hold cards")
    game._start_bout(attacker)
    return game

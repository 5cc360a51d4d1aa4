"""Durak's complete state as JSON (``dump``) and back (``load``).

Layout, format 3 (cards as codes; lists of cards in a hand, the discard pile
and known cards are sorted by ``Card.order``)::

    {"game": "durak", "format": 3, "rules": {...}, "seats": 3,
     "trump": "h", "trump_card": "9h", "trump_in_stock": true,
     "stock": [next card drawn first ...], "hands": [[...], ...],
     "known": [[cards other players know to be in that hand], ...],
     "discard": [...], "beaten": [attack cards ..., then their covers ...],
     "table": [["7s", "Ts"], ["7d", null]],
     "dealer": 0, "attacker": 0, "defender": 1, "taking": false,
     "passed": [seats], "cap": 6, "first_bout": true, "transfer_locked": false,
     "out": [seats], "out_order": [[seats], ...], "bout_out": [seats],
     "left": [seats], "aside": [...], "durak": null, "over": false,
     "places": [0, 1], "controls": [0, 1, 2], "losing_team": null}

``attacker``/``defender`` (seats) and ``places`` (the attacker's and the
defender's places in the round) are -1 once the game is over; ``controls``
names the seat playing each place (teams: a partner plays the place of a player
out of cards).  ``left`` lists the seats that left a game that went on without
them, in order, and ``aside`` the cards they held (face down, out of play).
Format 1 (before teams) had neither ``places`` nor ``controls`` nor
``losing_team``: every place was played by its own seat; format 2 (before a
game went on without a player who left) had neither ``left`` nor ``aside``.
Blind durak adds ``"order"``: each hand's cards by position.  While the
dealer is to name the trump (diamonds durak, ``spade_named``) the dump adds
``"naming": true``; ``trump`` is then the shown spade's suit, and after the
naming the named suit, no longer the trump card's.  Believe / don't believe
adds ``"seen_covers"`` while the face-down covers include cards everybody saw
the defender take (which covers they are, only he knows), and diamonds
durak's option 5.a ``"seen_in_stock"`` while spades turned up and put into
the stock lie there (everybody knows where, so who draws them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from games.cards import Card, Suit, deck
from games.core import JSON, StateFormatError
from games.durak.beating import CARD_BY_ORDER, RANK_BITS, cards_of
from games.durak.rules import Covers, DurakRules, Trump, seat_range
from games.durak.state import DurakState
from games.reader import array, boolean, card, cards, integer, read_state

__all__ = ["dump", "load"]

D = TypeVar("D", bound=DurakState)


def _codes(mask: int) -> list[str]:
    return [c.code for c in cards_of(mask)]


def _seats(mask: int, n: int) -> list[int]:
    return [s for s in range(n) if mask >> s & 1]


def dump(game: DurakState) -> dict[str, JSON]:
    n = game._n
    return {
        "game": type(game).key,
        "format": type(game).FORMAT,
        "rules": game.rules.to_json(),
        "seats": n,
        "trump": game._trump.value,
        "trump_card": CARD_BY_ORDER[game._trump_card].code,
        "trump_in_stock": game._trump_in_stock,
        "stock": [CARD_BY_ORDER[o].code for o in reversed(game._stock)],
        "hands": [_codes(h) for h in game._hands],
        "known": [_codes(k) for k in game._known],
        "discard": _codes(game._discard),
        "beaten": [CARD_BY_ORDER[o].code for o in game._beaten],
        "table": [
            [CARD_BY_ORDER[a].code, CARD_BY_ORDER[d].code if d >= 0 else None]
            for a, d in zip(game._att, game._dfn, strict=True)
        ],
        "dealer": game._dealer,
        "attacker": game._attacker,
        "defender": game._defender,
        "taking": game._taking,
        "passed": _seats(game._passed, n),
        "cap": game._cap,
        "first_bout": game._first_bout,
        "transfer_locked": game._locked,
        "out": _seats(game._out, n),
        "out_order": [list(g) for g in game._out_order],
        "bout_out": list(game._bout_out),
        "left": list(game._left),
        "aside": _codes(game._aside),
        "durak": game._durak if game._durak >= 0 else None,
        "over": game._over,
        "places": [game._apos, game._dpos],
        "controls": list(game._ctl),
        "losing_team": game._losing_team if game._losing_team >= 0 else None,
        **({"order": [_codes_by_position(game, s) for s in range(n)]} if game._blind else {}),
        **({"naming": True} if game._naming else {}),
        **({"seen_covers": _codes(game._seen_covers)} if game._seen_covers else {}),
        **({"seen_in_stock": _codes(game._seen_in_stock)} if game._seen_in_stock else {}),
    }


def _codes_by_position(game: DurakState, seat: int) -> list[str]:
    return [CARD_BY_ORDER[o].code for o in game.in_order(seat)]


def _mask(cards: list[Card], key: str) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c.order
    if mask.bit_count() != len(cards):
        raise StateFormatError(f"{key}: repeated card")
    return mask


def _seat_mask(value: JSON, key: str, n: int) -> int:
    mask = 0
    for s in array(value, key):
        mask |= 1 << integer(s, key, 0, n - 1)
    return mask


def load(cls: type[D], data: Mapping[str, JSON]) -> D:
    if isinstance(data, Mapping) and data.get("format") == 1 and data.get("game") == cls.key:
        data = _from_format_1(data)
    if isinstance(data, Mapping) and data.get("format") == 2 and data.get("game") == cls.key:
        data = _from_format_2(data)
    return read_state(cls, data, lambda: _load(cls, data))


def _from_format_1(data: Mapping[str, JSON]) -> dict[str, JSON]:
    """A game saved before teams: every place played by its own seat."""
    upgraded = dict(data)
    upgraded["format"] = 2
    upgraded["places"] = [data.get("attacker"), data.get("defender")]
    seats = data.get("seats")
    upgraded["controls"] = list(range(seats)) if isinstance(seats, int) else None
    upgraded["losing_team"] = None
    return upgraded


def _from_format_2(data: Mapping[str, JSON]) -> dict[str, JSON]:
    """A game saved before a game could go on without a player who left."""
    return {**data, "format": 3, "left": [], "aside": []}


def _load(cls: type[D], data: Mapping[str, JSON]) -> D:
    rules = DurakRules.from_json(data["rules"])
    n = integer(data["seats"], "seats", 2, 6)
    if n not in seat_range(rules):
        raise StateFormatError(f"{n} seats with {rules.deck_size} cards")
    trump = Suit(data["trump"])
    game = cls._blank(rules, n, trump)
    trump_card = card(data["trump_card"], "trump_card")
    named = rules.trump is Trump.SPADE_NAMED and trump_card.suit is Suit.SPADES
    if trump_card.suit is not trump and not named:
        raise StateFormatError("trump card is not of the trump suit")
    game._naming = boolean(data.get("naming", False), "naming")
    if game._naming and not (named and trump is Suit.SPADES):
        raise StateFormatError("naming: no spade shown to name a trump for")
    game._trump_card = trump_card.order
    game._trump_in_stock = boolean(data["trump_in_stock"], "trump_in_stock")
    stock = cards(data["stock"], "stock")
    game._stock = [c.order for c in reversed(stock)]
    game._seen_in_stock = _mask(
        cards(data.get("seen_in_stock", []), "seen_in_stock"), "seen_in_stock"
    )
    if game._seen_in_stock & ~sum(1 << o for o in game._stock):
        raise StateFormatError("seen_in_stock: not in the stock")
    hands = array(data["hands"], "hands")
    known = array(data["known"], "known")
    if len(hands) != n or len(known) != n:
        raise StateFormatError("hands and known need one entry per seat")
    game._hands = [_mask(cards(h, "hands"), "hands") for h in hands]
    game._known = [_mask(cards(k, "known"), "known") for k in known]
    if any(k & ~h for k, h in zip(game._known, game._hands, strict=True)):
        raise StateFormatError("known cards must be in their hand")
    game._discard = _mask(cards(data["discard"], "discard"), "discard")
    beaten = cards(data["beaten"], "beaten")
    if len(beaten) % 2:
        raise StateFormatError("beaten: expected attack cards, then their covers")
    game._beaten = [c.order for c in beaten]
    game._beaten_mask = _mask(beaten, "beaten")
    for pair in array(data["table"], "table"):
        pair = array(pair, "table")
        if len(pair) != 2:
            raise StateFormatError("table: expected [attack, defense] pairs")
        game._att.append(card(pair[0], "table").order)
        game._dfn.append(-1 if pair[1] is None else card(pair[1], "table").order)
    game._unbeaten = game._dfn.count(-1)
    game._seen_covers = _mask(cards(data.get("seen_covers", []), "seen_covers"), "seen_covers")
    covers = sum(1 << o for o in game._dfn if o >= 0)
    if game._seen_covers & ~covers or (game._seen_covers and rules.covers is not Covers.FACE_DOWN):
        raise StateFormatError("seen_covers: not face-down covers on the table")
    for o in game._att + game._dfn:
        if o >= 0:
            game._table_ranks |= RANK_BITS[o >> 2]
    everything = stock + beaten + [CARD_BY_ORDER[o] for o in game._att + game._dfn if o >= 0]
    game._aside = _mask(cards(data["aside"], "aside"), "aside")
    everything += [c for m in (*game._hands, game._discard, game._aside) for c in cards_of(m)]
    if game._trump_in_stock:
        everything.append(trump_card)
    full = deck(rules.deck_size)
    if len(everything) != len(full) or set(everything) != set(full):
        raise StateFormatError("the cards do not make up the deck")
    if trump_card not in full:
        raise StateFormatError("trump card is not in the deck")
    over = boolean(data["over"], "over")
    lo = -1 if over or game._naming else 0
    game._over = over
    game._dealer = integer(data["dealer"], "dealer", 0, n - 1)
    game._attacker = integer(data["attacker"], "attacker", lo, n - 1)
    game._defender = integer(data["defender"], "defender", lo, n - 1)
    game._taking = boolean(data["taking"], "taking")
    game._passed = _seat_mask(data["passed"], "passed", n)
    game._cap = integer(data["cap"], "cap", 0, 6)
    game._first_bout = boolean(data["first_bout"], "first_bout")
    game._locked = boolean(data["transfer_locked"], "transfer_locked")
    game._out = _seat_mask(data["out"], "out", n)
    game._out_order = [
        tuple(integer(s, "out_order", 0, n - 1) for s in array(g, "out_order"))
        for g in array(data["out_order"], "out_order")
    ]
    game._bout_out = [integer(s, "bout_out", 0, n - 1) for s in array(data["bout_out"], "bout_out")]
    game._left = [integer(s, "left", 0, n - 1) for s in array(data["left"], "left")]
    if any(game._hands[s] for s in game._left):
        raise StateFormatError("a seat that left holds cards")
    listed = [s for g in game._out_order for s in g] + game._bout_out + game._left
    if sorted(listed) != _seats(game._out, n):
        raise StateFormatError("out, out_order and bout_out disagree")
    durak = data["durak"]
    game._durak = -1 if durak is None else integer(durak, "durak", 0, n - 1)
    if game._durak >= 0 and not over:
        raise StateFormatError("a durak before the game is over")
    game._apos, game._dpos = (
        integer(p, "places", lo, n - 1) for p in array(data["places"], "places", 2)
    )
    game._ctl = [integer(c, "controls", 0, n - 1) for c in array(data["controls"], "controls", n)]
    if any(c != p and (not game._teams or (c - p) % 2) for p, c in enumerate(game._ctl)):
        raise StateFormatError("controls: a place is played only by its seat or a partner")
    if game._blind:  # the positions of the cards in each hand
        for seat, held in enumerate(array(data["order"], "order", n)):
            orders = [c.order for c in cards(held, "order")]
            if _mask(cards(held, "order"), "order") != game._hands[seat]:
                raise StateFormatError("order: not the cards of the hand")
            game._arrive(orders)
    losing = data["losing_team"]
    game._losing_team = -1 if losing is None else integer(losing, "losing_team", 0, 1)
    if game._losing_team >= 0 and not (over and game._teams):
        raise StateFormatError("a losing team before a team game is over")
    if not over and (
        game._ctl[game._apos] != game._attacker or game._ctl[game._dpos] != game._defender
    ):
        if game._naming and game._attacker == game._apos == -1:
            return game  # no bout yet: it starts once the trump is named
        raise StateFormatError("places and seats disagree")
    return game

"""What the players see of a Durak game, as JSON (the bot renders from this).

``public_view()`` — everything the whole table sees::

    {
      "game": "durak",
      "phase": "attack" | "defend" | "verdict" | "throw" | "over",
          # attack: the table is empty and "attacker" must lead;
          # defend: some attack card is unbeaten and the defender has not
          #         taken (others may throw in meanwhile);
          # verdict: believe / don't believe: every attack card has a
          #         face-down cover; the attacker believes or doubts;
          # throw:  everything is beaten or the defender takes; the seats in
          #         "to_move" must throw in or pass;
          # over:   the game has ended.
      "trump": "h",              # trump suit letter: s c d h
      "trump_card": "9h" | null, # the turned-up card while it lies under the
                                 # stock; null once drawn or when it was the
                                 # dealer's last card (no stock)
      "stock": 11,               # cards still to draw, the trump card included
      "discard": 8,              # cards beaten off so far ("beaten" included)
      "beaten": [{"attack": "8c", "defense": "Jc"}],
                                 # the bout just beaten off, shown until the
                                 # next attack (then it joins the face-down
                                 # discard pile)
      "hands": [6, 4, 0],        # cards held, per seat
      "known": [[], ["7s", "Qs"], []],
                                 # per seat, the cards of that hand everybody
                                 # knows: picked up from the table, or the
                                 # trump card drawn or dealt to him
      "blind": false,            # blind durak: nobody sees his own hand
      "active": [0, 1],          # seats still in play, ascending
      "attacker": 0 | null,      # who attacked the current defender (after a
                                 # transfer: the transferrer); null when over
      "defender": 1 | null,
      "table": [{"attack": "7s", "defense": "Ts"},
                {"attack": "7d", "defense": null}],   # in the order played;
                                 # believe / don't believe: "defense" is
                                 # always null and "covered" tells whether a
                                 # face-down card lies on the attack card
      "taking": false,           # the defender has said "take"
      "passed": [2],             # throwers who passed since the last new card
      "cap": 6,                  # most attack cards this bout may hold
      "dealer": 0,
      "out_order": [[2]],        # seats that went out, bout by bout
      "left": [3],               # seats that left a game that went on
                                 # without them, in the order they left
      "aside": 5,                # the cards they held, face down out of play
      "durak": null | 1,         # the loser, once the game is over (a player
                                 # whose leaving ended it is the durak: the
                                 # seats still "active" beside him keep
                                 # their cards)
      "teams": [[0, 2], [1, 3]], # the teams (empty without teams)
      "plays_for": [[1, 3]],     # teams: [partner, seat] for each seat out of
                                 # cards whose place his partner plays
      "losing_team": null | 0,   # teams: the team that lost, once over
      "draw": false,             # over with nobody holding cards
      "to_move": [0, 1]          # seats that may act now
    }

``view(seat)`` — the public view plus ``"seat": seat`` (and, for the defender
of believe / don't believe, ``"my_covers"``: per row of ``"table"``, the card he
put face down on it, or null) and ``"hand"``: that
seat's cards as codes, sorted by suit (♠ ♣ ♦ ♥ with the trump suit moved
last), then by rank.  ``"known"`` lists are sorted the same way; in a seat's
own view its ``"known"`` entry is empty (those cards are in ``"hand"``: a view
names every card at most once).  Blind durak: ``"hand"`` is empty and
``"seen"`` lists every other seat's cards in the order of its positions (its
own entry empty).  No string in a view other than a card's own code is a valid
card code.
"""

from __future__ import annotations

from games.cards import SUITS, Card
from games.core import JSON, Progress
from games.durak.beating import CARD_BY_ORDER, cards_of
from games.durak.state import DurakState

__all__ = ["hand_sort_key", "progress", "public_view", "seat_view"]


def hand_sort_key(trump_index: int) -> dict[int, int]:
    """Sort key per ``Card.order``: suit (trump last), then rank."""
    return {o: ((4 if (o & 3) == trump_index else (o & 3)) << 4) | (o >> 2) for o in CARD_BY_ORDER}


_SORT_KEYS = {s: hand_sort_key(i) for i, s in enumerate(SUITS)}


def _sorted(mask: int, key: dict[int, int]) -> list[Card]:
    return sorted(cards_of(mask), key=lambda c: key[c.order])


def public_view(game: DurakState) -> dict[str, JSON]:
    n = game.seats
    key = _SORT_KEYS[game._trump]
    beaten = game._beaten
    half = len(beaten) // 2
    over = game._over
    return {
        "game": "durak",
        "phase": game.phase,
        "trump": game._trump.value,
        "trump_card": CARD_BY_ORDER[game._trump_card].code if game._trump_in_stock else None,
        "stock": len(game._stock) + game._trump_in_stock,
        "discard": game._discard.bit_count() + len(game._beaten),
        "beaten": [
            {"attack": CARD_BY_ORDER[a].code, "defense": CARD_BY_ORDER[d].code}
            for a, d in zip(beaten[:half], beaten[half:], strict=True)
        ],
        "hands": [h.bit_count() for h in game._hands],
        "known": [[c.code for c in _sorted(k, key)] for k in game._known],
        "blind": game._blind,
        "active": [s for s in range(n) if not game._out >> s & 1],
        "attacker": None if over else game._attacker,
        "defender": None if over else game._defender,
        "table": _table(game),
        "taking": game._taking,
        "passed": [s for s in range(n) if game._passed >> s & 1],
        "cap": game._cap,
        "dealer": game._dealer,
        "out_order": [list(g) for g in game._out_order],
        "left": list(game._left),
        "aside": game._aside.bit_count(),
        "durak": game._durak if game._durak >= 0 else None,
        "teams": [list(range(team, n, 2)) for team in (0, 1)] if game._teams else [],
        "plays_for": [[c, place] for place, c in enumerate(game._ctl) if c != place],
        "losing_team": game._losing_team if game._losing_team >= 0 else None,
        "draw": over and game._durak < 0 and game._losing_team < 0,
        "to_move": sorted(game.to_move()),
    }


def _table(game: DurakState) -> list[JSON]:
    if game._face_down:  # nobody sees a face-down cover, only that it lies there
        return [
            {"attack": CARD_BY_ORDER[a].code, "defense": None, "covered": d >= 0}
            for a, d in zip(game._att, game._dfn, strict=True)
        ]
    return [
        {"attack": CARD_BY_ORDER[a].code, "defense": CARD_BY_ORDER[d].code if d >= 0 else None}
        for a, d in zip(game._att, game._dfn, strict=True)
    ]


def seat_view(game: DurakState, seat: int) -> dict[str, JSON]:
    if not 0 <= seat < game.seats:
        raise IndexError(f"no seat {seat}")
    view = public_view(game)
    if game._face_down and seat == game._defender:
        view["my_covers"] = [CARD_BY_ORDER[d].code if d >= 0 else None for d in game._dfn]
    view["seat"] = seat
    known = view["known"]
    known[seat] = []  # his hand: "hand" lists it, or in blind durak nothing does
    if game._blind:  # every hand but his own, in the order its holder plays it by
        view["known"] = [[] for _ in range(game.seats)]  # "seen" names those cards
        view["hand"] = []
        view["seen"] = [
            [] if s == seat else [CARD_BY_ORDER[o].code for o in game.in_order(s)]
            for s in range(game.seats)
        ]
        return view
    view["hand"] = [c.code for c in _sorted(game._hands[seat], _SORT_KEYS[game._trump])]
    return view


def progress(game: DurakState) -> Progress:
    return Progress(game.phase, 1)

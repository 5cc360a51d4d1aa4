"""Joker's complete state as JSON (``dump``) and back (``load``).

Layout, format 1 (cards as codes; hands and the taken pile sorted by card)::

    {"game": "joker", "format": 1, "rules": {...}, "seats": 4, "seed": 123,
     "deal": 4, "phase": "play", "dealer": 0, "turn": 2,
     "hands": [[...], ...], "stock": [next card dealt first ...],
     "trump": 2, "trump_card": "8d" | null, "chooser": -1,
     "bids": [1, -1, ...], "tricks": [...],
     "trick": [[seat, "As", mode, suit], ...], "trick_done": false,
     "lead_suit": 0, "lead_high": false, "taken": [...],
     "void": [suit bits per seat], "draw": [[seat, "7h"], ...],
     "sheet": [...], "pulkas": [...], "totals": [...], "resigned": -1}

``trump`` is a suit index (0..3 in ♠ ♣ ♦ ♥ order) or -1 for no trump;
``mode`` 0 an ordinary card, 1 a joker led high, 2 led "takes", 3 followed
high, 4 followed low, 5 a joker played at face value (as the six it
replaces); ``suit`` the led joker's suit index, at face value the six's suit
index, else -1.
``sheet`` and ``pulkas`` hold the score sheet's rows
(:class:`~games.joker.scoring.SheetRow`, :class:`~games.joker.scoring.PulkaRecord`)
field by field, a row's ``trump`` as a suit letter or ``"none"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TypeVar

from games.cards import Card
from games.core import JSON, StateFormatError
from games.joker.cards import BIT, CARD, DECK, bits_of
from games.joker.rules import JokerRules, seat_range
from games.joker.scoring import PulkaRecord, SheetRow
from games.joker.state import NOBODY, ONLY, JokerState, Phase
from games.reader import array, boolean, integer, integers, read_state, suit

__all__ = ["dump", "load"]

J = TypeVar("J", bound=JokerState)

_PHASES = {phase.value: phase for phase in Phase}


def _codes(mask: int) -> list[str]:
    return [CARD[b].code for b in bits_of(mask)]


def _row_json(row: SheetRow) -> dict[str, JSON]:
    # Written out, not row.to_json(): a game is saved after every move, and
    # its sheet grows to 24 rows.
    return {
        "deal": row.deal,
        "cards": row.cards,
        "pulka": row.pulka,
        "dealer": row.dealer,
        "trump": "none" if row.trump is None else row.trump.value,
        "bids": list(row.bids),
        "tricks": list(row.tricks),
        "points": list(row.points),
    }


def dump(game: JokerState) -> dict[str, JSON]:
    return {
        "game": type(game).key,
        "format": type(game).FORMAT,
        "rules": game.rules.to_json(),
        "seats": game._n,
        "seed": game._seed,
        "deal": game._deal,
        "phase": game._phase.value,
        "dealer": game._dealer,
        "turn": game._turn,
        "hands": [_codes(h) for h in game._hands],
        "stock": [CARD[b].code for b in reversed(game._stock)],
        "trump": game._trump,
        "trump_card": CARD[game._trump_card].code if game._trump_card >= 0 else None,
        "chooser": game._chooser,
        "bids": list(game._bids),
        "tricks": list(game._tricks),
        "trick": [[s, CARD[b].code, mode, suit] for s, b, mode, suit in game._trick],
        "trick_done": game._done,
        "lead_suit": game._lead_suit,
        "lead_high": game._lead_high,
        "taken": _codes(game._taken),
        "void": list(game._void),
        "draw": [[s, CARD[b].code] for s, b in game._draw],
        "sheet": [_row_json(r) for r in game._rows],
        "pulkas": [p.to_json() for p in game._pulkas],
        "totals": list(game._totals),
        "resigned": game._resigned,
    }


def _bits(value: JSON, key: str) -> list[int]:
    out = []
    for code in array(value, key):
        if not isinstance(code, str):
            raise StateFormatError(f"{key}: expected card codes")
        card = Card.parse(code)
        if card not in BIT:
            raise StateFormatError(f"{key}: {code} is not in the Joker deck")
        out.append(BIT[card])
    return out


def _mask(bits: list[int], key: str) -> int:
    mask = 0
    for b in bits:
        mask |= 1 << b
    if mask.bit_count() != len(bits):
        raise StateFormatError(f"{key}: repeated card")
    return mask


_POINTS = 10**7
"""Bound of any score on the sheet."""


def _object(value: JSON, key: str, fields: frozenset[str]) -> Mapping[str, JSON]:
    if not isinstance(value, dict) or value.keys() != fields:
        raise StateFormatError(f"{key}: expected objects with {sorted(fields)}")
    return value


_ROW_FIELDS = frozenset(("deal", "cards", "pulka", "dealer", "trump", "bids", "tricks", "points"))
_PULKA_FIELDS = frozenset(
    ("pulka", "first", "last", "premium", "bonus", "doubled", "struck", "subtotal", "totals")
)


def _sheet(value: JSON, n: int, deals: int) -> tuple[SheetRow, ...]:
    rows = []
    for item in array(value, "sheet"):
        row = _object(item, "sheet", _ROW_FIELDS)
        trump = row["trump"]
        rows.append(
            SheetRow(
                deal=integer(row["deal"], "sheet", 1, deals),
                cards=integer(row["cards"], "sheet", 1, 9),
                pulka=integer(row["pulka"], "sheet", 1, 4),
                dealer=integer(row["dealer"], "sheet", 0, n - 1),
                trump=None if trump == "none" else suit(trump, "sheet"),
                bids=tuple(integers(row["bids"], "sheet", 0, 9, n)),
                tricks=tuple(integers(row["tricks"], "sheet", 0, 9, n)),
                points=tuple(integers(row["points"], "sheet", -_POINTS, _POINTS, n)),
            )
        )
    return tuple(rows)


def _seats_or_none(value: JSON, n: int, rows: int) -> tuple[int | None, ...]:
    return tuple(
        None if v is None else integer(v, "pulkas", 0, rows - 1) for v in array(value, "pulkas", n)
    )


def _pulkas(value: JSON, n: int, rows: int) -> tuple[PulkaRecord, ...]:
    records = []
    for item in array(value, "pulkas"):
        record = _object(item, "pulkas", _PULKA_FIELDS)
        records.append(
            PulkaRecord(
                pulka=integer(record["pulka"], "pulkas", 1, 4),
                first=integer(record["first"], "pulkas", 0, rows - 1),
                last=integer(record["last"], "pulkas", 0, rows - 1),
                premium=frozenset(integers(record["premium"], "pulkas", 0, n - 1)),
                bonus=tuple(integers(record["bonus"], "pulkas", -_POINTS, _POINTS, n)),
                doubled=_seats_or_none(record["doubled"], n, rows),
                struck=_seats_or_none(record["struck"], n, rows),
                subtotal=tuple(integers(record["subtotal"], "pulkas", -_POINTS, _POINTS, n)),
                totals=tuple(integers(record["totals"], "pulkas", -_POINTS, _POINTS, n)),
            )
        )
    return tuple(records)


def load(cls: type[J], data: Mapping[str, JSON]) -> J:
    return read_state(cls, data, lambda: _load(cls, data))


def _load(cls: type[J], data: Mapping[str, JSON]) -> J:
    rules = JokerRules.from_json(data["rules"])
    n = integer(data["seats"], "seats", 2, 4)
    if n not in seat_range(rules):
        raise StateFormatError(f"{n} seats")
    game = cls.__new__(cls)
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise StateFormatError("seed: expected an integer")
    game._init(rules, n, seed)
    game._deal = integer(data["deal"], "deal", 0, len(game._cards) - 1)
    phase = data["phase"]
    if not isinstance(phase, str) or phase not in _PHASES:
        raise StateFormatError(f"phase: {phase!r}")
    game._phase = _PHASES[phase]
    game._dealer = integer(data["dealer"], "dealer", 0, n - 1)
    game._turn = integer(data["turn"], "turn", 0, n - 1)
    game._hands = [_mask(_bits(h, "hands"), "hands") for h in array(data["hands"], "hands", n)]
    game._stock = _bits(data["stock"], "stock")[::-1]
    game._trump = integer(data["trump"], "trump", -1, 3)
    trump_card = data["trump_card"]
    game._trump_card = -1 if trump_card is None else _bits([trump_card], "trump_card")[0]
    game._chooser = integer(data["chooser"], "chooser", -1, n - 1)
    game._bids = integers(data["bids"], "bids", -1, 9, n)
    game._tricks = integers(data["tricks"], "tricks", 0, 9, n)
    trick = []
    for entry in array(data["trick"], "trick"):
        seat, code, mode, suit = array(entry, "trick", 4)
        bit = _bits([code], "trick")[0]
        trick.append(
            (
                integer(seat, "trick", 0, n - 1),
                bit,
                integer(mode, "trick", 0, 5),
                integer(suit, "trick", -1, 3),
            )
        )
    if len(trick) > n:
        raise StateFormatError("trick: too many cards")
    game._trick = trick
    game._done = boolean(data["trick_done"], "trick_done")
    game._lead_suit = integer(data["lead_suit"], "lead_suit", -1, 3)
    game._lead_high = boolean(data["lead_high"], "lead_high")
    game._taken = _mask(_bits(data["taken"], "taken"), "taken")
    game._void = integers(data["void"], "void", 0, 15, n)
    draw = []
    for entry in array(data["draw"], "draw"):
        seat, code = array(entry, "draw", 2)
        draw.append((integer(seat, "draw", -1, n - 1), _bits([code], "draw")[0]))
    game._draw = draw
    game._rows = _sheet(data["sheet"], n, len(game._cards))
    game._pulkas = _pulkas(data["pulkas"], n, len(game._rows))
    game._totals = integers(data["totals"], "totals", -_POINTS, _POINTS, n)
    game._resigned = integer(data["resigned"], "resigned", -1, n - 1)
    everything = [b for h in game._hands for b in bits_of(h)] + list(game._stock)
    everything += [e[1] for e in trick] + bits_of(game._taken) + [b for _, b in draw]
    if game._trump_card >= 0:
        everything.append(game._trump_card)
    if Counter(everything) != Counter(BIT[c] for c in DECK):
        raise StateFormatError("the cards do not make up the deck")
    game._tm = NOBODY if game._phase is Phase.OVER else ONLY[game._turn]
    return game

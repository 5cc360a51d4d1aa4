"""Blind durak (seed 003): nobody sees his own hand, so a player names a
*position* in it (the order his cards came in), never a card; the card there
decides the move, and a card that does not fit is shown and its player takes
the bout.

Functions over the engine's state; :class:`~games.durak.engine.Durak` calls
them only when ``rules.blind`` is on.
"""

from __future__ import annotations

from games.core import Event, IllegalAction
from games.durak.actions import (
    ATTACKS,
    BEATS,
    BLIND_BEATS,
    BLIND_THROWS,
    BLIND_TRANSFERS,
    PASS,
    TAKE,
    THROWS,
    TRANSFERS,
    BlindBeat,
    BlindLead,
    BlindThrow,
    BlindTransfer,
    DurakAction,
)
from games.durak.beating import CARD_BY_ORDER
from games.durak.state import DurakState

__all__ = ["actions", "beat", "lead", "throw", "transfer"]


def actions(game: DurakState, seat: int) -> list[DurakAction]:
    """Once the bout is led: moves by position, the same whatever the cards
    (a player's moves must not tell him his cards)."""
    att = game._att
    count = game._hands[seat].bit_count()
    if seat == game._defender:
        if game._taking or not game._unbeaten:
            return []
        out: list[DurakAction] = [
            BLIND_BEATS[(a << 6) | i]
            for a, c in zip(att, game._dfn, strict=True)
            if c < 0
            for i in range(count)
        ]
        if game._transfers and game._transfer_room()[1] > 0:
            out.extend(BLIND_TRANSFERS[:count])
        out.append(TAKE)
        return out
    if not _may_throw(game, seat):
        return []
    out = list(BLIND_THROWS[:count])
    if game._taking or not game._unbeaten:
        out.append(PASS)
    return out


def _may_throw(game: DurakState, seat: int) -> bool:
    """Whether ``seat`` is one who may throw in now (holding a fitting card
    or not)."""
    if seat == game._defender or seat not in game._thrower_table[game._defender]:
        return False
    if len(game._att) >= game._cap or not game._hands[seat]:
        return False
    return not ((game._taking or not game._unbeaten) and game._passed >> seat & 1)


def _card_at(game: DurakState, seat: int, position: int) -> int:
    held = game.in_order(seat)
    if not 0 <= position < len(held):
        raise IllegalAction("illegal.no_such_position")
    return held[position]


def lead(game: DurakState, seat: int, action: BlindLead) -> list[Event]:
    if game._att:
        raise IllegalAction("illegal.bout_in_progress")
    if seat != game._attacker:
        raise IllegalAction("illegal.not_your_turn")
    o = _card_at(game, seat, action.position)
    return game._attack(seat, ATTACKS[((o >> 2) << 4) | (1 << (o & 3))])


def beat(game: DurakState, seat: int, action: BlindBeat) -> list[Event]:
    game._open_attack(seat, action.attack)
    a = action.attack.order
    c = _card_at(game, seat, action.position)
    if not game._beaters[a] >> c & 1:
        return _wrong(game, seat, c, "cover")
    return game._beat(seat, BEATS[(a << 6) | c])


def transfer(game: DurakState, seat: int, action: BlindTransfer) -> list[Event]:
    att = game._att
    if not game._transfers:
        raise IllegalAction("illegal.no_transfer")
    if not att or seat != game._defender:
        raise IllegalAction("illegal.not_defender")
    if game._transfer_room()[1] <= 0:
        raise IllegalAction("illegal.transfer_too_many")
    c = _card_at(game, seat, action.position)
    if c >> 2 != att[0] >> 2:
        return _wrong(game, seat, c, "transfer")
    return game._transfer(seat, TRANSFERS[((c >> 2) << 4) | (1 << (c & 3))])


def throw(game: DurakState, seat: int, action: BlindThrow) -> list[Event]:
    if not game._att:
        raise IllegalAction("illegal.no_bout")
    if not _may_throw(game, seat):
        raise IllegalAction("illegal.not_your_turn")
    c = _card_at(game, seat, action.position)
    if not game._table_ranks >> c & 1:
        return _wrong(game, seat, c, "throw")
    return game._throw(seat, THROWS[c])


def _wrong(game: DurakState, seat: int, card: int, move: str) -> list[Event]:
    """A blind player's card did not fit: everybody sees it, and he takes
    every card of the bout (the card itself never left his hand)."""
    events = [Event("wrong", seat, (CARD_BY_ORDER[card],), value=move)]
    game._known[seat] |= 1 << card
    game._close(events, taker=seat)
    return events

"""Believe / don't believe (seed 003): the defender covers each attack card
with any card face down, or takes; then the attacker believes the covers or
doubts them, and turning them up decides who takes the table.

Functions over the engine's state; :class:`~games.durak.engine.Durak` calls
them only under ``Covers.FACE_DOWN`` (``cover``, ``believe`` and ``doubt``
refuse otherwise).
"""

from __future__ import annotations

from games.core import Event, IllegalAction
from games.durak.actions import BELIEVE, COVERS, DOUBT, TAKE, Believe, Cover, Doubt, DurakAction
from games.durak.beating import CARD_BY_ORDER
from games.durak.state import DurakState

__all__ = ["actions", "believe", "cover", "doubt"]


def actions(game: DurakState, seat: int) -> list[DurakAction]:
    """Once the bout is led: the defender puts any card face down on each
    attack card, or takes; then the attacker believes or doubts."""
    if game._taking:
        return []
    if not game._unbeaten:
        return [BELIEVE, DOUBT] if seat == game._attacker else []
    if seat != game._defender:
        return []
    out: list[DurakAction] = []
    hand = game._hands[seat]
    for a, c in zip(game._att, game._dfn, strict=True):
        if c < 0:
            row = a << 6
            m = hand
            while m:
                low = m & -m
                out.append(COVERS[row | (low.bit_length() - 1)])
                m ^= low
    out.append(TAKE)
    return out


def cover(game: DurakState, seat: int, action: Cover) -> list[Event]:
    if not game._face_down:
        raise IllegalAction("illegal.covers_face_up")
    i = game._open_attack(seat, action.attack)
    c = action.card.order
    hand = game._hands[seat]
    if not hand >> c & 1:
        raise IllegalAction("illegal.not_in_hand")
    hand ^= 1 << c
    game._hands[seat] = hand
    # A card everybody saw him take is now known to lie face down (which
    # one of the covers it is, only he knows).
    game._seen_covers |= game._known[seat] & 1 << c
    game._known[seat] &= hand
    game._dfn[i] = c
    game._unbeaten -= 1
    return [Event("cover", seat, (action.attack,))]  # the card stays face down


def believe(game: DurakState, seat: int, action: Believe) -> list[Event]:
    return _verdict(game, seat, believed=True)


def doubt(game: DurakState, seat: int, action: Doubt) -> list[Event]:
    return _verdict(game, seat, believed=False)


def _verdict(game: DurakState, seat: int, *, believed: bool) -> list[Event]:
    """The covers are turned up.  Believed and right: beaten off.  Believed
    and wrong, or doubted and right: the attacker takes the table.
    Doubted and wrong: the defender takes it."""
    if not game._face_down:
        raise IllegalAction("illegal.unknown_action")
    if not game._att or game._unbeaten or game._taking:
        raise IllegalAction("illegal.no_verdict")
    if seat != game._attacker:
        raise IllegalAction("illegal.not_your_turn")
    pairs = list(zip(game._att, game._dfn, strict=True))
    right = all(game._beaters[a] >> c & 1 for a, c in pairs)
    shown = tuple(CARD_BY_ORDER[o] for pair in pairs for o in pair)
    events = [
        Event("believe" if believed else "doubt", seat),
        Event("reveal", game._defender, shown, value="right" if right else "wrong"),
    ]
    if believed and right:
        game._close(events)
    elif not believed and not right:
        game._taking = True
        game._close(events)
    else:
        game._close(events, taker=game._attacker)
    return events

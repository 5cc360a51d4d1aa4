"""Determinization for search players: the game as one observer could
believe it to be, the cards he cannot see dealt anew (see
:meth:`games.core.Game.determinize`).
"""

from __future__ import annotations

import random
from typing import TypeVar

from games.durak.beating import cards_of
from games.durak.state import NOBODY, DurakState

__all__ = ["determinize"]

_DEAL_TRIES = 20
"""Random deals :func:`determinize` tries before it deals to order."""

G = TypeVar("G", bound=DurakState)


def determinize(source: G, observer: int, rng: random.Random) -> G:
    """Deal anew the cards ``observer`` cannot see: the other hands, but for
    the cards everybody knows to be in them, the stock (the turned-up
    trump card stays under it, and so do the spades diamonds durak's option
    5.a turned up and put into it; the discard pile is known, every card in it
    was seen beaten off) and the cards set aside by players who left (in
    blind durak he saw those, and they stay).  Hand sizes stay, and so does what the table sees
    of the hands: a thrower asked to throw in (or who passed) still holds a
    card of a rank on the table, one not asked still holds none.  Face-down
    covers are dealt anew too, but for the defender (the cards everybody
    saw him take that he laid face down stay among them)."""
    n = source._n
    if not 0 <= observer < n:
        raise IndexError(f"no seat {observer}")
    game = source.clone()
    game._tm = None
    if source._blind:
        _deal_own_hand(game, observer, rng)
        return game
    hands = game._hands
    known = game._known
    pool = game._stock  # the stock's cards, then the hidden cards of the hands
    # Turned spades put into the stock (diamonds durak, option 5.a) stay
    # where everybody saw them go.
    seen_in_stock = game._seen_in_stock
    fixed = []
    if seen_in_stock:
        fixed = [(i, o) for i, o in enumerate(pool) if seen_in_stock >> o & 1]
        pool[:] = [o for o in pool if not seen_in_stock >> o & 1]
    seats: list[int] = []
    sizes: list[int] = []
    for s in range(n):
        hidden = hands[s] & ~known[s]
        if s == observer or not hidden:
            continue
        seats.append(s)
        sizes.append(hidden.bit_count())
        hands[s] = known[s]
        while hidden:
            low = hidden & -hidden
            pool.append(low.bit_length() - 1)
            hidden ^= low
    if game._aside:  # dealt like one more hand
        seats.append(NOBODY)
        sizes.append(game._aside.bit_count())
        pool.extend(c.order for c in cards_of(game._aside))
        game._aside = 0
    # Face-down covers are hidden from everybody but the defender; those
    # everybody saw him take stay among them.
    covered = []
    seen_covers = source._seen_covers
    if source._face_down and observer != source._defender:
        covered = [i for i, o in enumerate(game._dfn) if o >= 0]
        pool.extend(game._dfn[i] for i in covered if not seen_covers >> game._dfn[i] & 1)
    # What the table sees: whether each thrower holds a card of a rank on
    # the table (he is in to_move, or has passed), unless his known cards
    # already say so.  -1: nothing to keep.
    ranks = source._table_ranks
    wants = [-1] * len(seats)
    if source._att and len(source._att) < source._cap:
        throwers = source._thrower_table[source._defender]
        for i, s in enumerate(seats):
            if s in throwers and not known[s] & ranks:
                wants[i] = 1 if source._hands[s] & ranks else 0
    pool.sort()  # what the observer knows decides the deal, never where cards lie
    constrained = any(w >= 0 for w in wants)
    for _ in range(_DEAL_TRIES if constrained else 1):
        rng.shuffle(pool)
        masks: list[int] = []
        i = 0
        for k, want in zip(sizes, wants, strict=True):
            mask = 0
            for o in pool[i : i + k]:
                mask |= 1 << o
            i += k
            if want >= 0 and bool(mask & ranks) != bool(want):
                break
            masks.append(mask)
        if len(masks) == len(seats):
            del pool[:i]
            break
    else:
        masks = _deal_wanted(pool, sizes, wants, ranks, rng)
    for s, mask in zip(seats, masks, strict=True):
        if s == NOBODY:
            game._aside = mask
        else:
            hands[s] |= mask
    if covered:
        rng.shuffle(pool)
        covers = [o for o in range(64) if seen_covers >> o & 1]
        covers += [pool.pop() for _ in range(len(covered) - len(covers))]
        rng.shuffle(covers)
        for i, o in zip(covered, covers, strict=True):
            game._dfn[i] = o
    for i, o in fixed:
        pool.insert(i, o)
    return game


def _deal_own_hand(game: DurakState, observer: int, rng: random.Random) -> None:
    """Blind durak: the observer sees every hand but his own, so his cards
    (but those everybody saw go in) and the stock are what is dealt anew;
    his positions keep their order of arrival."""
    known = game._known[observer]
    positions = [o for o in game.in_order(observer) if not known >> o & 1]
    pool = sorted(positions + game._stock)
    rng.shuffle(pool)
    mine, game._stock = pool[: len(positions)], pool[len(positions) :]
    arrivals = [game._arrival[o] for o in positions]
    mask = known
    for o, when in zip(mine, arrivals, strict=True):
        mask |= 1 << o
        game._arrival[o] = when
    game._hands[observer] = mask


def _deal_wanted(
    pool: list[int], sizes: list[int], wants: list[int], ranks: int, rng: random.Random
) -> list[int]:
    """Hands of ``sizes`` cards from ``pool`` (what is left stays in it, in
    random order) such that hand ``i`` holds a card of ``ranks`` when
    ``wants[i]`` is 1 and none when it is 0; the position dealt from holds
    such a deal.  For when dealing at random keeps missing one."""
    rng.shuffle(pool)
    match = [o for o in pool if ranks >> o & 1]
    plain = [o for o in pool if not ranks >> o & 1]
    dealt: list[list[int]] = [[] for _ in sizes]
    for i, want in enumerate(wants):
        if want == 1:
            dealt[i].append(match.pop())
        elif want == 0:
            dealt[i].extend(plain[len(plain) - sizes[i] :])
            del plain[len(plain) - sizes[i] :]
    rest = match + plain
    rng.shuffle(rest)
    for i, k in enumerate(sizes):
        while len(dealt[i]) < k:
            dealt[i].append(rest.pop())
    pool[:] = rest
    masks = []
    for cards in dealt:
        mask = 0
        for o in cards:
            mask |= 1 << o
        masks.append(mask)
    return masks

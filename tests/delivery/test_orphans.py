"""Which message ids a sweep for copies probes, and when."""

from __future__ import annotations

import itertools

from delivery.orphans import Orphans, Sweep

CHAT = 42


def _ids(sweep: Sweep | None, count: int = 4) -> list[int]:
    assert sweep is not None
    return list(itertools.islice(sweep.ids(), count))


def _known(orphans: Orphans, message_id: int) -> None:
    ticket = orphans.begin(CHAT)
    orphans.made(CHAT, message_id, ticket)
    orphans.end(CHAT)


def test_a_doubtful_send_makes_the_ids_after_the_newest_known_worth_probing() -> None:
    orphans = Orphans()
    _known(orphans, 7)
    doubtful = orphans.begin(CHAT)
    assert orphans.due(CHAT) is None  # a send is in flight: ids may still appear
    orphans.doubtful(CHAT, doubtful)
    orphans.end(CHAT)
    assert orphans.owed(CHAT)
    sweep = orphans.due(CHAT)
    assert _ids(sweep) == [8, 9, 10, 11]
    assert sweep is not None
    assert sweep.before is None
    assert orphans.due(CHAT) is None  # handed out once


def test_a_send_begun_after_the_doubt_bounds_the_range_and_holes_are_passed() -> None:
    orphans = Orphans()
    _known(orphans, 3)
    lost = orphans.begin(CHAT)
    orphans.doubtful(CHAT, lost)  # made 4 unseen, or nothing
    orphans.end(CHAT)
    sweep = orphans.due(CHAT)
    assert sweep is not None
    orphans.empty_at(CHAT, 4, sweep)  # 4 is empty: deleted since, or never made?
    assert not orphans.owed(CHAT)
    assert orphans.due(CHAT) is None  # nothing to go on until a later send bounds it
    later = orphans.begin(CHAT)
    orphans.made(CHAT, 6, later)
    orphans.end(CHAT)
    bounded = orphans.due(CHAT)
    assert bounded is not None
    assert list(bounded.ids()) == [4, 5]  # past the hole at 4, up to the bound


def test_a_cut_short_sweep_is_owed_again_with_its_bound() -> None:
    orphans = Orphans()
    _known(orphans, 3)
    lost = orphans.begin(CHAT)
    orphans.doubtful(CHAT, lost)
    orphans.end(CHAT)
    retried = orphans.begin(CHAT)
    orphans.made(CHAT, 9, retried)
    orphans.end(CHAT)
    sweep = orphans.due(CHAT)
    assert sweep is not None
    assert list(sweep.ids()) == [4, 5, 6, 7, 8]
    orphans.cut_short(CHAT, 5, sweep)  # deleting 6 failed
    assert orphans.owed(CHAT)
    again = orphans.due(CHAT)
    assert again is not None
    assert list(again.ids()) == [6, 7, 8]


def test_a_new_doubt_drops_the_bound_of_the_old_one() -> None:
    orphans = Orphans()
    _known(orphans, 3)
    first = orphans.begin(CHAT)
    orphans.doubtful(CHAT, first)
    orphans.end(CHAT)
    second = orphans.begin(CHAT)  # begun after the doubt, but lost too: no bound
    orphans.doubtful(CHAT, second)
    orphans.end(CHAT)
    sweep = orphans.due(CHAT)
    assert sweep is not None
    assert sweep.before is None


def test_without_a_known_message_there_is_nothing_to_look_after() -> None:
    orphans = Orphans()
    ticket = orphans.begin(CHAT)
    orphans.doubtful(CHAT, ticket)
    orphans.end(CHAT)
    assert not orphans.owed(CHAT)
    assert orphans.due(CHAT) is None

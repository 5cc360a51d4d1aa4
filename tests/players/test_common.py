"""The confidence bound used by the strength tests."""

from __future__ import annotations

import pytest

from tests.players.common import wilson


def test_wilson_bounds_the_rate() -> None:
    low, high = wilson(90, 100)
    assert low < 0.9 < high
    assert low == pytest.approx(0.796, abs=0.002)
    assert high == pytest.approx(0.954, abs=0.002)
    assert wilson(100, 100)[1] == pytest.approx(1.0)
    assert wilson(0, 100)[0] == pytest.approx(0.0)

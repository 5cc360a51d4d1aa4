""":func:`games.core.view_builder`: a view made field by field through its
slots is the view its dataclass constructor makes, and as frozen.  (Durak's
views are made so; the engine suites check what they show.)"""

from __future__ import annotations

import dataclasses

import pytest

from games.core import View, view_builder


@dataclasses.dataclass(frozen=True, slots=True)
class _Base(View):
    a: int
    b: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class _Derived(_Base):
    c: frozenset[int]
    d: str | None = None


def test_it_makes_what_the_constructor_makes_inherited_fields_first() -> None:
    build = view_builder(_Derived)
    made = build(1, ("x",), frozenset({2}), "y")
    assert type(made) is _Derived
    assert made == _Derived(1, ("x",), frozenset({2}), "y")
    assert made.to_json() == {"a": 1, "b": ["x"], "c": [2], "d": "y"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        build(1, ("x",), frozenset())  # every field, defaults included


@dataclasses.dataclass(frozen=True, slots=True)
class _Checked(View):
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


def test_a_view_that_checks_its_fields_is_refused() -> None:
    with pytest.raises(TypeError, match="__post_init__"):
        view_builder(_Checked)

"""The contract every game engine fulfils.

A game is a deterministic state machine.  Chance comes only from the
``random.Random`` handed to :meth:`Game.new` (engines that shuffle again later
draw a seed from it once and derive every later shuffle from that seed, so the
whole state stays JSON).  A game is therefore fully described by its rules, its
seat count, its seed and its action log: replaying the log reproduces it.

Seats are numbered ``0..seats-1`` clockwise; "next" always means ``seat + 1``.

Invariants the conformance suite (``tests/engines/test_conformance.py``) checks
for every registered game:

* ``to_move()`` is empty exactly when ``outcome()`` is not None;
* every action from ``legal_actions(seat)`` applies; anything else raises
  :class:`IllegalAction` and leaves the state untouched;
* the multiset of cards over :meth:`Game.zones` never changes;
* ``view(seat)`` contains no card code outside the zones visible to that seat,
  ``public_view()`` none outside the zones visible to everybody;
* ``load(dump())`` and ``clone()`` are equal to the original (by dump), and
  ``position_key()`` is equal exactly when the dumps are;
* events carry only cards that everybody could see just before or just after
  the action (a card played, cards taken from the table), never a drawn card;
* ``waits()`` names only seats in ``to_move()``, and ``default_action(seat)``
  is one of ``legal_actions(seat)`` for each of them;
* ``determinize(observer, rng)`` keeps ``view(observer)``, the multiset of
  cards and the cards of every zone the observer sees, deals the cards hidden
  from the observer anew (cards he saw go into a face-down pile may stay
  there), and gives a state that round-trips and plays on; for one rng it
  gives the same world from any state the observer cannot tell apart;
* no action in ``legal_actions(seat)`` names a card hidden from that seat;
* ``resign(seat)`` keeps every invariant above, and a game whose seats all
  resign but one is over; a move log with :data:`RESIGN` entries replays
  through :func:`perform`;
* ``decode_action`` refuses with :class:`ActionParseError` any text that is
  not exactly the code of an action.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from games.cards import Card

__all__ = [
    "JSON",
    "RESIGN",
    "Action",
    "ActionParseError",
    "Event",
    "Game",
    "GameError",
    "GamePackage",
    "IllegalAction",
    "Outcome",
    "Place",
    "Progress",
    "Rules",
    "RulesError",
    "StateFormatError",
    "View",
    "Wait",
    "Zone",
    "option",
    "perform",
    "view_builder",
]

JSON = Any
"""A value made only of dict/list/str/int/float/bool/None."""


class GameError(Exception):
    """Base class of every error an engine raises on bad input."""


class IllegalAction(GameError):
    """The action is well formed but not allowed now.

    ``reason`` is a translation key (``illegal.<code>``); ``params`` fill it.
    """

    def __init__(self, reason: str, **params: str | int) -> None:
        super().__init__(reason, params)
        self.reason = reason
        self.params = params


class ActionParseError(GameError):
    """Encoded action text that no action encodes to (garbled or forged)."""


class StateFormatError(GameError):
    """A dump that this code cannot load."""


class RulesError(GameError):
    """Rules that are inconsistent, or not valid for the seat count."""


def option(default: Any, *choices: Any) -> Any:
    """Declare a rules field that a lobby may change, with its allowed values.

    Booleans need no choices; enum fields default to all members.
    """
    return dataclasses.field(default=default, metadata={"choices": tuple(choices)})


@dataclass(frozen=True)
class Rules:
    """Base of every game's frozen rules dataclass.

    Fields declared with :func:`option` are the lobby's options; their values
    are bools, ints, strs or ``enum.Enum`` members with str values.
    """

    @classmethod
    def options(cls) -> list[tuple[str, tuple[Any, ...]]]:
        """``(field name, allowed values)`` for every lobby option, in order."""
        hints = typing.get_type_hints(cls)
        out: list[tuple[str, tuple[Any, ...]]] = []
        for f in dataclasses.fields(cls):
            if "choices" not in f.metadata:
                continue
            choices: tuple[Any, ...] = f.metadata["choices"]
            kind = hints[f.name]
            if not choices:
                if kind is bool:
                    choices = (False, True)
                elif isinstance(kind, type) and issubclass(kind, enum.Enum):
                    choices = tuple(kind)
                else:
                    raise TypeError(f"{cls.__name__}.{f.name} needs explicit choices")
            out.append((f.name, choices))
        return out

    def to_json(self) -> dict[str, JSON]:
        return {
            f.name: (v.value if isinstance(v, enum.Enum) else v)
            for f in dataclasses.fields(self)
            for v in (getattr(self, f.name),)
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Self:
        """Rebuild rules, checking every value; unknown keys are refused."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object")
        fields = _fields_and_types(cls)
        unknown = set(data) - {f.name for f, _ in fields}
        if unknown:
            raise RulesError(f"unknown rules fields: {sorted(unknown)}")
        values: dict[str, Any] = {}
        for f, kind in fields:
            if f.name not in data:
                continue
            raw = data[f.name]
            if isinstance(kind, type) and issubclass(kind, enum.Enum):
                try:
                    values[f.name] = kind(raw)
                except ValueError:
                    raise RulesError(f"{f.name}: bad value {raw!r}") from None
            elif kind is bool:
                if not isinstance(raw, bool):
                    raise RulesError(f"{f.name}: expected a boolean")
                values[f.name] = raw
            elif kind is int:
                if isinstance(raw, bool) or not isinstance(raw, int):
                    raise RulesError(f"{f.name}: expected an integer")
                values[f.name] = raw
            elif kind is str:
                if not isinstance(raw, str):
                    raise RulesError(f"{f.name}: expected a string")
                values[f.name] = raw
            else:
                raise TypeError(f"{cls.__name__}.{f.name}: unsupported field type {kind!r}")
            choices = f.metadata.get("choices")
            if choices and values[f.name] not in choices:
                raise RulesError(f"{f.name}: {raw!r} is not one of the allowed values")
        rules = cls(**values)
        rules.validate()
        return rules

    def validate(self) -> None:
        """Raise :class:`RulesError` if the combination of values is inconsistent."""

    def applies(self, name: str) -> bool:
        """Whether the option ``name`` matters under the other values (a lobby
        hides the options that do not)."""
        return True

    def replace(self, **changes: Any) -> Self:
        new = dataclasses.replace(self, **changes)
        new.validate()
        return new


_FIELD_TYPES: dict[type[Rules], tuple[tuple[dataclasses.Field[Any], Any], ...]] = {}


def _fields_and_types(cls: type[Rules]) -> tuple[tuple[dataclasses.Field[Any], Any], ...]:
    """A rules class's fields with their resolved types, resolved once:
    resolving the string annotations costs more than the rest of
    :meth:`Rules.from_json`, which runs on every read of a table."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _FIELD_TYPES[cls] = tuple((f, hints[f.name]) for f in dataclasses.fields(cls))
    return found


class Place(enum.Enum):
    """Where a seat makes a move."""

    HAND = "hand"
    """On the seat's own screen, beside its private cards (a DM)."""
    TABLE = "table"
    """On the table everybody watches (the group message), e.g. "next round"."""


class Action(ABC):
    """A move.  Concrete actions are frozen dataclasses; :meth:`encode` gives
    the compact text used in the action log and in callback data (at most 24
    characters), and ``Game.decode_action`` parses it back."""

    __slots__ = ()

    place: ClassVar[Place] = Place.HAND
    """Where this kind of move is made."""

    @abstractmethod
    def encode(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for rendering and the log.

    Events are public: they never carry a card that any seat may not see.
    ``kind`` is the game's own name for what happened; each game's screens
    say how it reads.
    """

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    target: int | None = None
    value: int | str | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cards:
            out["cards"] = [c.code for c in self.cards]
        if self.target is not None:
            out["target"] = self.target
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Event:
        return cls(
            kind=str(data["kind"]),
            seat=data.get("seat"),
            cards=tuple(Card.parse(c) for c in data.get("cards", ())),
            target=data.get("target"),
            value=data.get("value"),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``places`` lists seats best first, tied seats sharing one tuple.  ``winners``
    and ``losers`` feed the leaderboard (in Durak everybody but the durak
    wins).  ``scores`` is the final per-seat score for games that keep one.
    """

    places: tuple[tuple[int, ...], ...]
    winners: frozenset[int]
    losers: frozenset[int]
    draw: bool = False
    scores: tuple[int, ...] | None = None

    def sole_winner(self, seats: int) -> int | None:
        """The one winner, when there is exactly one and he sits among
        ``seats`` (the next game of a match-length game starts with him)."""
        if len(self.winners) != 1:
            return None
        (winner,) = self.winners
        return winner if 0 <= winner < seats else None

    def to_json(self) -> dict[str, JSON]:
        return {
            "places": [list(p) for p in self.places],
            "winners": sorted(self.winners),
            "losers": sorted(self.losers),
            "draw": self.draw,
            "scores": None if self.scores is None else list(self.scores),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Outcome:
        scores = data.get("scores")
        return cls(
            places=tuple(tuple(int(s) for s in p) for p in data["places"]),
            winners=frozenset(int(s) for s in data["winners"]),
            losers=frozenset(int(s) for s in data["losers"]),
            draw=bool(data["draw"]),
            scores=None if scores is None else tuple(int(s) for s in scores),
        )


class Wait(enum.Enum):
    """How the game waits on a seat (see :meth:`Game.waits`)."""

    DECIDE = "decide"
    """The seat must choose; letting its time run out is a timeout."""
    CONSENT = "consent"
    """The game only waits for the seat to let it go on (a thrower who may
    still throw in, "next round"); silence is consent, not a timeout."""


RESIGN = "-"
"""The move-log code of :meth:`Game.resign` (no action encodes to it)."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A place cards lie in, and who may see them.

    ``visible_to`` is None when everybody sees the zone's cards, otherwise the
    set of seats that do (a hand: its owner; the stock: nobody).
    """

    name: str
    cards: tuple[Card, ...]
    visible_to: frozenset[int] | None
    remembered: bool = False
    """Nobody may look at these cards now, but everybody saw each one go in
    (Durak's discard pile: every card of it was beaten off in view), so a world
    ``determinize`` makes keeps them where they are."""


class View:
    """Base of every game's views: frozen, slotted dataclasses of plain values,
    cards, enums, tuples and nested views.  Screens, computer players and the
    bench read their fields (mypy checks each one); :meth:`to_json` gives the
    plain form the secrecy probes scan and the playground shows."""

    __slots__ = ()

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The view's fields, in order (worked out once per class)."""
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(
                f.name
                for f in dataclasses.fields(cls)  # type: ignore[arg-type]
            )
        return names

    def to_json(self) -> dict[str, JSON]:
        return {name: _plain(getattr(self, name)) for name in self.field_names()}


_FIELD_NAMES: dict[type[View], tuple[str, ...]] = {}

VT = TypeVar("VT", bound=View)


def view_builder(cls: type[VT]) -> Callable[..., VT]:
    """A function that makes a ``cls`` from all its field values in order, as
    ``cls(*values)`` does, at a third of the cost.  A frozen dataclass's
    ``__init__`` calls ``object.__setattr__`` for every field; this sets each
    slot through its descriptor instead, so a view with a ``__post_init__``
    is refused.  For views built at every move of a search's rollouts
    (Durak's seat view has 30 fields)."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} checks its fields in __post_init__")
    names = cls.field_names()
    values = ", ".join(f"v{i}" for i in range(len(names)))
    sets = "".join(f"    set{i}(view, v{i})\n" for i in range(len(names)))
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    namespace.update((f"set{i}", getattr(cls, name).__set__) for i, name in enumerate(names))
    exec(f"def build({values}):\n    view = new(cls)\n{sets}    return view\n", namespace)  # noqa: S102
    build: Callable[..., VT] = namespace["build"]
    return build


_AS_IS = frozenset({int, str, bool, float, type(None)})


def _plain(value: Any) -> JSON:
    """A view's value as JSON.  Games save their states through here (Joker's
    score sheet), so the common kinds are told apart by exact type first: an
    ``isinstance`` chain, ABCs above all, cost more than the rest of a dump."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is tuple or kind is list:
        return [_plain(v) for v in value]
    if kind is Card:
        return value.code
    if isinstance(value, View):
        return value.to_json()
    if isinstance(value, enum.Enum):
        return value.value
    if kind is frozenset or kind is set:
        return sorted(_plain(v) for v in value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Progress:
    """What generic code (the bench, the search's horizon, replays) reads of
    any game, whatever its views look like."""

    phase: str
    """The value of the game's ``Phase``."""
    number: int
    """The deal, round or race under way, from 1 (a game of one deal: 1)."""
    totals: tuple[int, ...] | None = None
    """Each seat's running points in a match of deals (None: the game keeps
    none between deals)."""


R = TypeVar("R", bound=Rules)
A = TypeVar("A", bound=Action)
P = TypeVar("P")
"""A game's public view."""
S = TypeVar("S")
"""A game's view for one seat."""


class Game(ABC, Generic[R, A, P, S]):
    """One game in progress (or finished).  See the module docstring."""

    key: ClassVar[str]
    """Registry key, e.g. ``"durak"``."""
    FORMAT: ClassVar[int]
    """Version of :meth:`dump`'s layout; bump it when the layout changes."""

    rules: R

    @classmethod
    @abstractmethod
    def new(
        cls, rules: R, seats: int, rng: random.Random, *, previous: Outcome | None = None
    ) -> Self:
        """Deal a new game.  ``previous`` is the outcome of the game these seats
        played just before, for rules like "the loser deals"."""

    @property
    @abstractmethod
    def seats(self) -> int: ...

    @abstractmethod
    def to_move(self) -> frozenset[int]:
        """Seats that may act now (several in Durak while others may throw in)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[A]:
        """Every action ``seat`` may take now; empty when it may not act."""

    def waits(self) -> Mapping[int, Wait]:
        """The seats the game cannot go on without, and how it waits on each.

        A subset of :meth:`to_move`: in Durak a player may throw in while the
        defender is still beating, but the game waits on throwers only once
        everything is beaten or taken.  Turn timers run for these seats.  By
        default every seat that may act must decide."""
        return dict.fromkeys(self.to_move(), Wait.DECIDE)

    @abstractmethod
    def default_action(self, seat: int) -> A:
        """The safe move a turn timer makes for ``seat`` (a seat in
        :meth:`waits`); always one of ``legal_actions(seat)``."""

    @abstractmethod
    def determinize(self, observer: int, rng: random.Random) -> Self:
        """A complete state that ``observer`` cannot tell from this one.

        Same ``view(observer)`` and the same cards overall, but every card
        hidden from the observer dealt anew at random among the places it
        could be, respecting everything the observer knows (cards seen picked
        up, for instance); later shuffles are re-seeded from ``rng`` too.  The
        world depends only on what the observer knows and on ``rng``, never on
        where the hidden cards really lie.  The hook search players sample
        possible worlds with."""

    @abstractmethod
    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the game (removed from the table, or absent where
        absentees are removed), as the game's rules require.  Raise
        :class:`IllegalAction` (state unchanged) when the game is over or the
        seat is no longer in play.  The move log records it as :data:`RESIGN`."""

    @abstractmethod
    def apply(self, seat: int, action: A) -> list[Event]:
        """Validate and perform ``action``; raise :class:`IllegalAction` (state
        unchanged) when it is not legal for ``seat`` now."""

    @abstractmethod
    def view(self, seat: int) -> S:
        """Everything ``seat`` may see."""

    @abstractmethod
    def public_view(self) -> P:
        """Everything the whole table may see."""

    @abstractmethod
    def progress(self) -> Progress:
        """Phase, deal number and running totals, the same for every game."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def zones(self) -> list[Zone]:
        """Every card of the game, each in exactly one zone."""

    @abstractmethod
    def known_cards(self, observer: int) -> dict[int, list[Card]]:
        """Cards that ``observer`` knows to be in other seats' hands (for
        instance cards they picked up from the table), keyed by seat."""

    @abstractmethod
    def dump(self) -> dict[str, JSON]:
        """The complete state as JSON, including ``"format": FORMAT``."""

    @classmethod
    @abstractmethod
    def load(cls, data: Mapping[str, JSON]) -> Self:
        """Inverse of :meth:`dump`; raise :class:`StateFormatError` on a
        format this code does not know."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy, cheaper than dump/load."""

    def position_key(self) -> Hashable:
        """The state as a hashable value, equal exactly when the dumps are:
        the key of a search's table of positions already valued.  By default
        the dump itself; an engine searched exactly offers a cheaper one."""
        return repr(self.dump())

    @classmethod
    @abstractmethod
    def decode_action(cls, text: str) -> A:
        """Parse :meth:`Action.encode` output; raise :class:`ActionParseError`."""

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None


class ViewsModule(Protocol):
    """What a game package's ``views`` module offers (a module is the value)."""

    def public_view(self, game: Any, /) -> Any: ...

    def seat_view(self, game: Any, seat: int, /) -> Any: ...

    def progress(self, game: Any, /) -> Progress: ...


class PersistenceModule(Protocol):
    """What a game package's ``persistence`` module offers."""

    def dump(self, game: Any, /) -> dict[str, JSON]: ...

    def load(self, cls: Any, data: Mapping[str, JSON], /) -> Any: ...


class GamePackage(Generic[P, S]):
    """The part of an engine every game package writes alike (see "The shape
    of a game package" in ``docs/architecture.md``).

    Listed before the game's state class among an engine's bases, it gives
    :meth:`Game.view`, :meth:`Game.public_view`, :meth:`Game.progress`,
    :meth:`Game.dump` and
    :meth:`Game.load` by delegating to the package's ``views`` and
    ``persistence`` modules (``_VIEWS``, ``_PERSISTENCE``), and
    :meth:`Game.clone` from a declaration: every field is shared with the copy
    except those named in ``_COPIED`` (a list or dict that moves change in
    place, or None: copied one level) and ``_COPIED_TWICE`` (a list of lists).
    ``P`` and ``S`` are the package's public and seat view types: the state
    class, which its views module imports, cannot name them, so the engine
    does (``class Durak(GamePackage[DurakPublicView, DurakSeatView], DurakState)``).
    The clone is compiled per class into plain attribute copies, as fast as
    one written out by hand; a class with ``__slots__`` copies its slots, any
    other copies its ``__dict__``.
    """

    __slots__ = ()

    _VIEWS: ViewsModule
    _PERSISTENCE: PersistenceModule
    _COPIED: ClassVar[tuple[str, ...]] = ()
    _COPIED_TWICE: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        setattr(cls, "clone", _compile_clone(cls))  # noqa: B010 - a method replaced

    def public_view(self) -> P:
        return cast(P, self._VIEWS.public_view(self))

    def view(self, seat: int) -> S:
        return cast(S, self._VIEWS.seat_view(self, seat))

    def progress(self) -> Progress:
        return self._VIEWS.progress(self)

    def dump(self) -> dict[str, JSON]:
        return self._PERSISTENCE.dump(self)

    @classmethod
    def load(cls, data: Mapping[str, JSON]) -> Self:
        return cast(Self, cls._PERSISTENCE.load(cls, data))

    def clone(self) -> Self:
        """An independent copy (replaced per class by the compiled one)."""
        return cast(Self, _compile_clone(type(self))(self))


def _compile_clone(cls: type[GamePackage[Any, Any]]) -> Callable[[Any], Any]:
    """``cls``'s clone as straight-line code: shared fields assigned, copied
    ones copied (a loop of ``getattr``/``setattr`` would be three times slower)."""
    slots = [name for base in reversed(cls.__mro__) for name in base.__dict__.get("__slots__", ())]
    copied = set(cls._COPIED) | set(cls._COPIED_TWICE)
    lines = ["def clone(self):", "    new = new_object(cls)"]
    if slots:
        lines += [f"    new.{name} = self.{name}" for name in slots if name not in copied]
    else:
        lines.append("    new.__dict__.update(self.__dict__)")
    for name in cls._COPIED:
        lines.append(f"    value = self.{name}")
        lines.append(f"    new.{name} = None if value is None else value.copy()")
    lines += [f"    new.{name} = [inner[:] for inner in self.{name}]" for name in cls._COPIED_TWICE]
    lines.append("    return new")
    scope: dict[str, Any] = {"new_object": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102 - source built from field names only
    clone: Callable[[Any], Any] = scope["clone"]
    clone.__doc__ = Game.clone.__doc__
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    return clone


def perform(game: Game[Any, Any, Any, Any], seat: int, code: str) -> list[Event]:
    """Apply a move-log entry: an encoded action, or :data:`RESIGN`."""
    if code == RESIGN:
        return game.resign(seat)
    return game.apply(seat, type(game).decode_action(code))


def check_format(cls: type[Game[Any, Any, Any, Any]], data: Mapping[str, JSON]) -> None:
    """Refuse dumps of another game or an unknown format version."""
    if not isinstance(data, Mapping):
        raise StateFormatError("state must be an object")
    if data.get("game") != cls.key:
        raise StateFormatError(f"not a {cls.key} state: {data.get('game')!r}")
    if data.get("format") != cls.FORMAT:
        raise StateFormatError(f"{cls.key} state format {data.get('format')!r} is not {cls.FORMAT}")

"""Inline-button payloads: typed, compact, and never over Telegram's 64 bytes.

Forms (integers in base 36)::

    m:<table>:<at_move>:<action>   a move (from a DM hand or the group's table message)
    u:<table>:<at_move>:<focus>    a sub-menu of one's own screen ("back" closes it)
    l:<table>:<command>[:<arg>]    a lobby button (see LobbyCommand)
    n:<owner>:<game>[:<preset>]    choosing a game for /newgame (only its owner may)
    r:<table>                      rematch
    p:<table>:<at>:<owner>         a replay's step to the frame after move ``at``
                                   (only its owner, who asked for it, steps it)
    d:<table>                      the same deal, seats turned (a duplicate)
    a:<table>                      an analysis of the presser's play, in his DM
    c:<table>                      "my cards": one's hand shown in the group, to oneself alone
    h:<table>                      one's hands to one's DM from now on (from the group's)
    i:<language>                   choosing the chat's language

``at_move`` is the table's move count when the buttons were drawn: a button
drawn before its presser's own last move is stale.  Everything is validated on
the way in: callback data can be forged.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

__all__ = [
    "AnalysisButton",
    "Button",
    "CallbackDataError",
    "CardsButton",
    "DmButton",
    "DuplicateButton",
    "LanguageButton",
    "LobbyButton",
    "LobbyCommand",
    "MenuButton",
    "MoveButton",
    "NewGameButton",
    "RematchButton",
    "ReplayButton",
    "pack",
    "parse",
]

MAX_BYTES = 64
_TOKEN = re.compile(r"^[A-Za-z0-9_]{1,24}$")
_B36 = re.compile(r"^[0-9a-z]{1,10}$")


class LobbyCommand(enum.StrEnum):
    """A lobby button's command: its value is the letter on the wire, which
    must never change (buttons drawn long ago stay in chats)."""

    JOIN = "j"
    LEAVE = "v"
    START = "s"
    CANCEL = "c"
    OPTIONS = "o"
    """Show the options."""
    BACK = "b"
    """Back from the options."""
    PRESET = "p"
    """The next preset."""
    ADD_COMPUTER = "a"
    REMOVE_COMPUTER = "x"
    OPTION = "t"
    """The next value of the game option named by the argument."""
    SETTING = "g"
    """The next value of the table setting named by the argument."""
    SHUFFLE_TEAMS = "h"
    SWITCH_TEAM = "w"
    """Move the player at the seat given by the argument to the other team."""

    @property
    def takes_arg(self) -> bool:
        return self in _WITH_ARG


_WITH_ARG = frozenset({LobbyCommand.OPTION, LobbyCommand.SETTING, LobbyCommand.SWITCH_TEAM})


class CallbackDataError(ValueError):
    """Not a payload this bot makes."""


@dataclass(frozen=True, slots=True)
class MoveButton:
    table_id: int
    at_move: int
    action: str


@dataclass(frozen=True, slots=True)
class MenuButton:
    table_id: int
    at_move: int
    focus: str


@dataclass(frozen=True, slots=True)
class LobbyButton:
    table_id: int
    command: LobbyCommand
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class NewGameButton:
    owner: int
    """The user who asked for the game chooser: only he chooses."""
    game: str
    preset: str | None = None


@dataclass(frozen=True, slots=True)
class RematchButton:
    table_id: int


@dataclass(frozen=True, slots=True)
class ReplayButton:
    table_id: int
    at: int
    """The frame to show: after this many moves (0: the deal)."""
    owner: int
    """The user who asked for the replay: only he steps this message."""


@dataclass(frozen=True, slots=True)
class DuplicateButton:
    table_id: int
    """The finished table whose deal is played again, seats turned."""


@dataclass(frozen=True, slots=True)
class AnalysisButton:
    table_id: int


@dataclass(frozen=True, slots=True)
class LanguageButton:
    language: str


@dataclass(frozen=True, slots=True)
class CardsButton:
    """The table message's "my cards": the presser's hand as an ephemeral
    message in the group."""

    table_id: int


@dataclass(frozen=True, slots=True)
class DmButton:
    """On a hand in the group: the presser's hands go to his DM from now on."""

    table_id: int


Button = (
    MoveButton
    | MenuButton
    | LobbyButton
    | NewGameButton
    | RematchButton
    | ReplayButton
    | DuplicateButton
    | AnalysisButton
    | LanguageButton
    | CardsButton
    | DmButton
)


def _b36(n: int) -> str:
    if n < 0:
        raise ValueError("negative number in callback data")
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def _int(text: str) -> int:
    if not _B36.match(text):
        raise CallbackDataError("bad number")
    return int(text, 36)


def _token(text: str) -> str:
    if not _TOKEN.match(text):
        raise CallbackDataError("bad token")
    return text


def pack(button: Button) -> str:
    match button:
        case MoveButton(table_id, at_move, action):
            text = f"m:{_b36(table_id)}:{_b36(at_move)}:{_token(action)}"
        case MenuButton(table_id, at_move, focus):
            text = f"u:{_b36(table_id)}:{_b36(at_move)}:{_token(focus)}"
        case LobbyButton(table_id, command, arg):
            if command.takes_arg is not (arg is not None):
                raise ValueError(f"bad lobby command {command!r} {arg!r}")
            text = f"l:{_b36(table_id)}:{command.value}" + (
                "" if arg is None else f":{_token(arg)}"
            )
        case NewGameButton(owner, game, preset):
            text = f"n:{_b36(owner)}:{_token(game)}" + (
                "" if preset is None else f":{_token(preset)}"
            )
        case RematchButton(table_id):
            text = f"r:{_b36(table_id)}"
        case ReplayButton(table_id, at, owner):
            text = f"p:{_b36(table_id)}:{_b36(at)}:{_b36(owner)}"
        case DuplicateButton(table_id):
            text = f"d:{_b36(table_id)}"
        case AnalysisButton(table_id):
            text = f"a:{_b36(table_id)}"
        case LanguageButton(language):
            text = f"i:{_token(language)}"
        case CardsButton(table_id):
            text = f"c:{_b36(table_id)}"
        case DmButton(table_id):
            text = f"h:{_b36(table_id)}"
    if len(text.encode()) > MAX_BYTES:
        raise ValueError(f"callback data over {MAX_BYTES} bytes: {text!r}")
    return text


def parse(data: str | None) -> Button:
    if not isinstance(data, str) or not data or len(data.encode()) > MAX_BYTES:
        raise CallbackDataError("empty or oversized")
    kind, *args = data.split(":")
    if kind == "m" and len(args) == 3:
        return MoveButton(_int(args[0]), _int(args[1]), _token(args[2]))
    if kind == "u" and len(args) == 3:
        return MenuButton(_int(args[0]), _int(args[1]), _token(args[2]))
    if kind == "l" and len(args) in (2, 3):
        arg = _token(args[2]) if len(args) == 3 else None
        try:
            command = LobbyCommand(args[1])
        except ValueError:
            raise CallbackDataError("bad lobby command") from None
        if command.takes_arg is not (arg is not None):
            raise CallbackDataError("bad lobby command")
        return LobbyButton(_int(args[0]), command, arg)
    if kind == "n" and len(args) in (2, 3):
        preset = _token(args[2]) if len(args) == 3 else None
        return NewGameButton(_int(args[0]), _token(args[1]), preset)
    if kind == "r" and len(args) == 1:
        return RematchButton(_int(args[0]))
    if kind == "p" and len(args) == 3:
        return ReplayButton(_int(args[0]), _int(args[1]), _int(args[2]))
    if kind == "d" and len(args) == 1:
        return DuplicateButton(_int(args[0]))
    if kind == "a" and len(args) == 1:
        return AnalysisButton(_int(args[0]))
    if kind == "i" and len(args) == 1:
        return LanguageButton(_token(args[0]))
    if kind == "c" and len(args) == 1:
        return CardsButton(_int(args[0]))
    if kind == "h" and len(args) == 1:
        return DmButton(_int(args[0]))
    raise CallbackDataError("unknown form")

"""Inline-button payloads: typed, compact, and never over Telegram's 64 bytes.

Forms (integers in base 36)::

    m:<table>:<keyboard>:<action>   a move from a DM hand keyboard
    g:<table>:<moves>:<action>      a move from the group's table message
    u:<table>:<keyboard>:<focus>    a DM sub-menu (e.g. which card to beat)
    l:<table>:<command>             a lobby button (j, v, s, o, c, b, p, t<n>)
    n:<game>[:<preset>]             choosing a game for /newgame
    r:<table>                       rematch

Everything is validated on the way in: callback data can be forged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "CallbackDataError",
    "LobbyButton",
    "MenuButton",
    "MoveButton",
    "NewGameButton",
    "RematchButton",
    "pack",
    "parse",
]

MAX_BYTES = 64
_TOKEN = re.compile(r"^[A-Za-z0-9_]{1,24}$")
_B36 = re.compile(r"^[0-9a-z]{1,10}$")
LOBBY_COMMANDS = ("j", "v", "s", "o", "c", "b", "p")


class CallbackDataError(ValueError):
    """Not a payload this bot makes."""


@dataclass(frozen=True, slots=True)
class MoveButton:
    table_id: int
    version: int
    action: str
    group: bool = False


@dataclass(frozen=True, slots=True)
class MenuButton:
    table_id: int
    keyboard: int
    focus: str


@dataclass(frozen=True, slots=True)
class LobbyButton:
    table_id: int
    command: str
    option: int | None = None


@dataclass(frozen=True, slots=True)
class NewGameButton:
    game: str
    preset: str | None = None


@dataclass(frozen=True, slots=True)
class RematchButton:
    table_id: int


Button = MoveButton | MenuButton | LobbyButton | NewGameButton | RematchButton


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
        case MoveButton(table_id, version, action, group):
            text = f"{'g' if group else 'm'}:{_b36(table_id)}:{_b36(version)}:{_token(action)}"
        case MenuButton(table_id, keyboard, focus):
            text = f"u:{_b36(table_id)}:{_b36(keyboard)}:{_token(focus)}"
        case LobbyButton(table_id, command, option):
            if command == "t" and option is not None:
                text = f"l:{_b36(table_id)}:t{_b36(option)}"
            elif command in LOBBY_COMMANDS and option is None:
                text = f"l:{_b36(table_id)}:{command}"
            else:
                raise ValueError(f"bad lobby command {command!r}")
        case NewGameButton(game, preset):
            text = f"n:{_token(game)}" + ("" if preset is None else f":{_token(preset)}")
        case RematchButton(table_id):
            text = f"r:{_b36(table_id)}"
    if len(text.encode()) > MAX_BYTES:
        raise ValueError(f"callback data over {MAX_BYTES} bytes: {text!r}")
    return text


def parse(data: str | None) -> Button:
    if not isinstance(data, str) or not data or len(data.encode()) > MAX_BYTES:
        raise CallbackDataError("empty or oversized")
    parts = data.split(":")
    kind, args = parts[0], parts[1:]
    if kind in ("m", "g") and len(args) == 3:
        return MoveButton(_int(args[0]), _int(args[1]), _token(args[2]), group=kind == "g")
    if kind == "u" and len(args) == 3:
        return MenuButton(_int(args[0]), _int(args[1]), _token(args[2]))
    if kind == "l" and len(args) == 2:
        command = args[1]
        if command in LOBBY_COMMANDS:
            return LobbyButton(_int(args[0]), command)
        if command.startswith("t") and len(command) > 1:
            return LobbyButton(_int(args[0]), "t", _int(command[1:]))
        raise CallbackDataError("bad lobby command")
    if kind == "n" and len(args) in (1, 2):
        return NewGameButton(_token(args[0]), _token(args[1]) if len(args) == 2 else None)
    if kind == "r" and len(args) == 1:
        return RematchButton(_int(args[0]))
    raise CallbackDataError("unknown form")

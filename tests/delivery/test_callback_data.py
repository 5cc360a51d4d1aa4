from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from delivery import callback_data as cd
from handlers import callbacks

ids = st.integers(min_value=0, max_value=36**10 - 1)
tokens = st.from_regex(r"[A-Za-z0-9_]{1,24}", fullmatch=True)


@given(ids, ids, tokens)
def test_move_buttons_round_trip_within_64_bytes(table: int, at_move: int, action: str) -> None:
    button = cd.MoveButton(table, at_move, action)
    data = cd.pack(button)
    assert len(data.encode()) <= 64
    assert cd.parse(data) == button


@given(ids, ids, ids)
def test_replay_buttons_round_trip_within_64_bytes(table: int, at: int, owner: int) -> None:
    button = cd.ReplayButton(table, at, owner)
    data = cd.pack(button)
    assert len(data.encode()) <= 64
    assert cd.parse(data) == button


@pytest.mark.parametrize(
    "data", ["p:1:2", "p:1:2:3:4", "p:-1:2:3", "p:1:2:X", "p:1::3", "p:" + "z" * 11 + ":0:1"]
)
def test_forged_replay_data_is_refused(data: str) -> None:
    with pytest.raises(cd.CallbackDataError):
        cd.parse(data)


@pytest.mark.parametrize(
    "button",
    [
        cd.MenuButton(5, 7, "c9s"),
        cd.LobbyButton(12, cd.LobbyCommand.JOIN),
        cd.LobbyButton(12, cd.LobbyCommand.OPTION, "later_first_attack"),
        cd.LobbyButton(12, cd.LobbyCommand.SETTING, "turn"),
        cd.NewGameButton(7, "durak"),
        cd.NewGameButton(123456789, "101", "pentagon"),
        cd.LanguageButton("en"),
        cd.RematchButton(99),
    ],
)
def test_every_kind_round_trips(button: cd.Button) -> None:
    assert cd.parse(cd.pack(button)) == button


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "m",
        "m:1:2",
        "m:1:2:b6s:x",
        "m:-1:2:k",
        "m:1:2:k k",
        "m:Z:2:k",
        "l:1:zz",
        "l:1:t",
        "n:",
        "n:1:durak:x:y",
        "n:durak",
        "i:",
        "r:",
        "q:1",
        "m:1:2:" + "a" * 25,
        "é" * 40,
        "l:1:tZ",
        "l:1:j:x",
        "l:1:g",
        "g:1:2:k",
    ],
)
def test_garbage_is_refused(data: str | None) -> None:
    with pytest.raises(cd.CallbackDataError):
        cd.parse(data)


@given(st.text(max_size=80))
def test_parse_never_crashes_otherwise(data: str) -> None:
    try:
        button = cd.parse(data)
    except cd.CallbackDataError:
        return
    assert cd.parse(cd.pack(button)) == button


def test_pack_refuses_what_it_cannot_encode() -> None:
    with pytest.raises(ValueError, match="negative"):
        cd.pack(cd.RematchButton(-1))
    with pytest.raises(cd.CallbackDataError):
        cd.pack(cd.MoveButton(1, 1, "bad action!"))
    with pytest.raises(ValueError, match="lobby"):
        cd.pack(cd.LobbyButton(1, cd.LobbyCommand.JOIN, "x"))
    with pytest.raises(ValueError, match="lobby"):
        cd.pack(cd.LobbyButton(1, cd.LobbyCommand.SWITCH_TEAM))


def test_lobby_buttons_keep_their_letters_on_the_wire() -> None:
    """Lobby messages drawn by earlier versions stay in chats: their buttons
    must still mean what they meant."""
    wire = {cd.pack(cd.LobbyButton(40, c, "1" if c.takes_arg else None)) for c in cd.LobbyCommand}
    assert wire == {
        *(f"l:14:{letter}" for letter in "jvscobpaxh"),
        *(f"l:14:{letter}:1" for letter in "tgw"),
    }


def test_every_lobby_command_has_its_handler() -> None:
    assert set(callbacks._LOBBY_HANDLERS) == set(cd.LobbyCommand)

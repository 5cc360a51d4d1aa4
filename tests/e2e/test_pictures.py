"""A table shown as a picture: sent as a photo, edited in place with its caption."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

from bot.catalog import CATALOG, Catalog, Listing
from games.durak.views import DurakPublicView
from playground.botapi import FakeTelegram
from screens.base import Picture, Screen
from screens.durak import DurakScreens
from tests.e2e.harness import bot_config, running_bot, seat_players


def png(width: int, height: int, shade: int) -> bytes:
    """A plain grey PNG, made without an imaging library."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    rows = (b"\x00" + bytes([shade]) * width) * height
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class PictureTable(DurakScreens):
    """Durak whose table is a picture: its shade changes with the stock."""

    drawn = 0

    def table(
        self, lang: str, view: DurakPublicView, names: Sequence[str], *, live: bool
    ) -> Screen:
        text = super().table(lang, view, names, live=live).text
        shade = 100 + view.stock

        def draw() -> bytes:
            PictureTable.drawn += 1
            return png(64, 40, shade)

        return Screen(text, picture=Picture(f"stock{shade}", draw))


async def test_a_picture_table_is_a_photo_edited_in_place(
    server: FakeTelegram, db_path: Path
) -> None:
    durak = CATALOG.listings[0]
    catalog = Catalog(Listing(durak.spec, PictureTable(), durak.computer))
    async with running_bot(bot_config(server, db_path), catalog=catalog) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        photos = [m for m in table.group_messages() if m.kind == "photo"]
        assert len(photos) == 1  # the lobby (a text) gave way to a photo table
        table_message = photos[0]
        assert "Дурак" in table_message.caption
        assert table_message.width == 64
        for _ in range(30):
            await table.play_random_move()
        shown = server.bot_message(table.group_id, table_message.message_id)
        assert len(shown.photo_history) > 1  # edited in place, picture and all
        assert shown.photo_history[-1].data != shown.photo_history[0].data
        assert len(shown.caption) <= 1024
        assert server.calls_to("editMessageMedia")
        # The lobby message that was a text now points below.
        lobby = next(m for m in table.group_messages() if m.kind == "text" and "ниже" in m.text)
        assert lobby.rows == []
        # A picture is drawn only when what it shows changed.
        assert PictureTable.drawn <= len(shown.photo_history) + 1

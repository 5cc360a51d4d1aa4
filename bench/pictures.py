"""How long the pictures take: Joker's score sheet and Daytona's track, drawn
with Pillow.

The sheet of a whole game (24 deals, four players, a fixed seed) and of a
game in its first pulka, and the track of a four-car race in progress (drawn
after every turn: aim under 30 ms), are drawn again and again; each line
prints the mean and the median milliseconds per image and the JPEG's size
(:func:`screens.drawing.encoded`)::

    .venv/bin/python -m bench.pictures            # 50 images per line
    .venv/bin/python -m bench.pictures --quick    # 5 images per line

The publisher draws a picture off the event loop (a worker thread), once per
change of what it shows.  Plain Python, one process: the times are per core.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from games.daytona import Daytona, DaytonaRules
from games.joker import Joker, JokerRules
from players import JokerHeuristic
from players.arena import play
from screens.base import Picture
from screens.daytona import track_picture
from screens.joker import sheet_picture

__all__ = ["Line", "main"]

NAMES = ["Аня", "Борис", "Вера", "Глеб"]


@dataclass(frozen=True)
class Line:
    picture: str
    images: int
    mean_ms: float
    median_ms: float
    jpeg_bytes: int
    width: int
    height: int


def _game(deals: int, seats: int = 4, seed: int = 1) -> Joker:
    """A game of computers, ``deals`` deals into it (24: to the end)."""
    rng = random.Random(seed)
    game = Joker.new(JokerRules(), seats, rng)
    if deals >= 24:
        play(game, [JokerHeuristic()] * seats, rng)
        return game
    player = JokerHeuristic()
    while len(game.public_view().sheet) < deals:
        (seat,) = game.to_move()
        legal = game.legal_actions(seat)
        choice = player.choose(game.rules, game.view(seat), legal, rng)
        game.apply(seat, next(a for a in legal if a == choice))
    return game


def _race(turns: int = 40, seats: int = 4, seed: int = 1) -> Daytona:
    """A Daytona race ``turns`` draws in."""
    game = Daytona.new(DaytonaRules(), seats, random.Random(seed))
    for _ in range(turns):
        seat = min(game.to_move())
        game.apply(seat, game.default_action(seat))
    return game


def measure(name: str, game: Joker | Daytona, images: int) -> Line:
    names = NAMES[: game.seats]
    picture: Picture = (
        track_picture("ru", game.public_view(), names)
        if isinstance(game, Daytona)
        else sheet_picture("ru", game.public_view(), names)
    )
    picture.draw()  # warm up: fonts loaded, caches filled
    times = []
    data = b""
    for _ in range(images):
        start = time.perf_counter()
        data = picture.draw()
        times.append((time.perf_counter() - start) * 1000)
    image = Image.open(io.BytesIO(data))
    return Line(
        name,
        images,
        statistics.fmean(times),
        statistics.median(times),
        len(data),
        image.width,
        image.height,
    )


def main(argv: Sequence[str] | None = None) -> list[Line]:
    parser = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="5 images per line")
    parser.add_argument("--images", type=int, help="images per line (default 50)")
    args = parser.parse_args(argv)
    images = args.images or (5 if args.quick else 50)
    header = (
        f"{'picture':<28} {'images':>6} {'ms mean':>8} {'ms median':>9} {'JPEG KiB':>8} {'size':>9}"
    )
    print(header)
    print("-" * len(header))
    lines = []
    games: tuple[tuple[str, Joker | Daytona], ...] = (
        ("joker sheet, 24 deals, 4", _game(24)),
        ("joker sheet, 5 deals, 4", _game(5)),
        ("joker sheet, 24 deals, 3", _game(24, seats=3)),
        ("daytona track, 4 cars", _race()),
    )
    for name, game in games:
        line = measure(name, game, images)
        lines.append(line)
        print(
            f"{line.picture:<28} {line.images:>6} {line.mean_ms:>8.1f} {line.median_ms:>9.1f} "
            f"{line.jpeg_bytes / 1024:>8.1f} {line.width:>4}×{line.height:<4}",
            flush=True,
        )
    return lines


if __name__ == "__main__":
    main(sys.argv[1:])

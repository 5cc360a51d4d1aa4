"""The ratings as people read them, in every language: the standings with the
asker's own place below the top, computers by level, provisional marks and
the plural of the footnote; a result's rating line and achievements; /stats'
lines; a season's end; the history picture."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.catalog import CATALOG
from i18n import LANGUAGES
from screens.drawing import fit as drawn_to_fit
from screens.ratings import (
    card_lines,
    game_ticks,
    grid_values,
    history_picture,
    result_lines,
    season_text,
    standings_text,
)
from services.ratings import (
    PROVISIONAL_GAMES,
    SHOWN,
    Card,
    Change,
    FamilyCard,
    SeasonEnd,
    TableRatings,
)
from services.ratings.standings import board
from storage import RatingRow

SPECS = CATALOG.specs


def rows(n: int) -> list[RatingRow]:
    """``n`` people, the first the strongest; the last a newcomer."""
    return [
        RatingRow(f"u{i}", f"P{i}", 40.0 - i, 2.0, 12 if i < n - 1 else 1) for i in range(1, n + 1)
    ]


def test_rating_standings_show_the_top_and_the_askers_own_place_below_it() -> None:
    standings = board("durak/perevodnoy", rows(SHOWN + 2), f"u{SHOWN + 2}")
    assert [line.place for line in standings.top] == list(range(1, SHOWN + 1))
    assert standings.own is not None
    assert (standings.own.place, standings.own.name) == (SHOWN + 2, f"P{SHOWN + 2}")
    text = standings_text("ru", [standings], SPECS, season="2027-01")
    assert "📈 <b>Рейтинг чата · сезон: январь 2027</b>" in text  # a month, by name
    assert "<b>Дурак · переводной</b>" in text
    assert "1. P1 — 2320\n" in text  # 1000 + 40 (39 - 3 x 2)
    assert text.split("…\n")[1].startswith("12. P12 — 1880?")  # one game: provisional
    assert "меньше 10 партий" in text
    assert "\n11. " not in text, "only the asker is shown below the top"
    inside = board("durak/perevodnoy", rows(SHOWN + 2), "u3")
    assert inside.own is None


MONTH = {"ru": "январь 2027", "uk": "січень 2027", "en": "January 2027", "ka": "იანვარი 2027"}
"""January 2027 as each language names the month standing alone (Babel)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_season_is_named_by_its_month(lang: str) -> None:
    text = standings_text(lang, [board("joker", rows(2), None)], SPECS, season="2027-01")
    assert MONTH[lang] in text.splitlines()[0]
    assert "2027-01" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rating_texts_read_in_every_language(lang: str) -> None:
    computer = RatingRow("chard", None, 30.0, 2.0, 40)
    top = board("joker", [*rows(2), computer], None)
    text = standings_text(lang, [top], SPECS, season=None)
    assert "🤖 " in text
    assert "{" not in text
    changes = TableRatings(
        [Change(1, 1000, 1138, True), Change(2, 1000, 927, True)], [(2, "pogony")]
    )
    lines = result_lines(lang, changes, {1: "Anna", 2: "Boris"})
    assert "Anna 1000 → 1138? (+138)" in lines[0]
    assert "Boris 1000 → 927? (−73)" in lines[0]
    assert lines[1].startswith("<i>«?»" if lang in ("ru", "uk") else "<i>")
    assert "?" in lines[1], "the '?' beside a rating is explained where it is shown"
    assert lines[2].startswith("🏅 Boris: ")
    settled = result_lines(lang, TableRatings([Change(1, 1400, 1420, False)], []), {1: "Anna"})
    assert len(settled) == 1, "no legend without a '?'"
    assert "{" not in "".join(lines)
    card = Card([FamilyCard("durak/podkidnoy", 1300, 21, 1320, 2, [1000, 1138, 1300])], ["dry"])
    stats = "\n".join(card_lines(lang, card, SPECS))
    assert "1300" in stats
    assert "1320" in stats
    assert " 21 " in stats
    fresh = Card([FamilyCard("durak/podkidnoy", 927, 1, 1000, None, [1000, 927])], [])
    legend = "\n".join(card_lines(lang, fresh, SPECS))
    assert "927?" in legend
    assert "10" in legend.splitlines()[-1], "the '?' is explained under the ratings"
    assert "{" not in stats
    ended = SeasonEnd(-1, "2027-01", [board("durak/podkidnoy", rows(3), None)])
    season = season_text(lang, ended, SPECS)
    assert "2027-01" not in season
    assert MONTH[lang] in season
    assert "P1 (2320)" in season
    assert "{" not in season


def test_rating_a_trivial_game_says_it_is_not_rated() -> None:
    lines = result_lines("ru", TableRatings(skipped="trivial"), {})
    assert lines == ["📈 Без рейтинга: при этих правилах всё решает случай."]
    assert result_lines("ru", TableRatings(skipped="computers"), {}) == []


def test_rating_history_is_drawn_once_there_is_a_line() -> None:
    single = Card([FamilyCard("101", 1000, 0, 1000, None, [1000])], [])
    assert history_picture("ru", single, SPECS) is None
    card = Card(
        [
            FamilyCard("durak/podkidnoy", 1300, 3, 1320, None, [1000, 1138, 1320, 1300]),
            FamilyCard("daytona", 950, 1, 1000, None, [1000, 950]),
        ],
        [],
    )
    picture = history_picture("ka", card, SPECS)
    assert picture is not None
    image = Image.open(io.BytesIO(picture.draw()))
    assert image.size == (900, 480)


@pytest.mark.parametrize(
    ("low", "high", "grid"),
    [
        (980, 1158, [950, 1000, 1050, 1100, 1150, 1200]),
        (887, 1178, [800, 900, 1000, 1100, 1200]),
        (1000, 1020, [1000, 1005, 1010, 1015, 1020]),
    ],
)
def test_the_rating_charts_grid_is_drawn_at_round_numbers(
    low: int, high: int, grid: list[int]
) -> None:
    assert grid_values(low, high) == grid


@pytest.mark.parametrize(
    ("games", "ticks"),
    [(1, [0, 1]), (3, [0, 1, 2, 3]), (20, [0, 5, 10, 15, 20]), (37, [0, 10, 20, 30])],
)
def test_the_rating_chart_counts_the_games_along_the_bottom(games: int, ticks: list[int]) -> None:
    """The bottom axis says after how many games each value was: round
    counts from the start, never past the last game."""
    assert game_ticks(games) == ticks


def test_the_rating_charts_legend_marks_a_provisional_rating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As the lines of /stats do: a "?" after a rating of too few games."""
    written: list[str] = []

    def fit(pen: Any, text: str, font: Any, width: float) -> str:
        written.append(text)
        return drawn_to_fit(pen, text, font, width)

    monkeypatch.setattr("screens.ratings.fit", fit)
    settled = [1000 + 10 * n for n in range(PROVISIONAL_GAMES + 1)]
    card = Card(
        [
            FamilyCard(
                "durak/podkidnoy", settled[-1], PROVISIONAL_GAMES, settled[-1], None, settled
            ),
            FamilyCard("101", 990, 1, 1000, None, [1000, 990]),
        ],
        [],
    )
    picture = history_picture("ru", card, SPECS)
    assert picture is not None
    picture.draw()
    assert written == [f"Дурак · подкидной: {settled[-1]}", "101: 990?"]

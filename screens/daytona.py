"""Daytona on screen: the track as a picture with a caption, moves on the table
message (Daytona has no private hands), a line per draw, the races' results."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from games.core import JSON, Action, Event, Outcome, Rules
from games.daytona.actions import Deuce, Draw, Next
from games.daytona.rules import DaytonaRules
from games.daytona.state import Phase
from games.daytona.track import BEFORE_START, FINISHED, ON_START, TRACK_CARDS
from games.daytona.views import DaytonaPublicView, DaytonaSeatView, DrawMove
from i18n import t, tn
from screens.base import GameScreens, Picture, Screen
from screens.daytona_track import Car, TrackLabels, draw_track
from screens.drawing import plain
from screens.faces import face
from services import ScoreRow

__all__ = ["DaytonaScreens"]

_MOVE_KEYS = {
    DrawMove.FORWARD: "daytona.move_forward",
    DrawMove.BACK: "daytona.move_back",
    DrawMove.STAY: "daytona.move_stay",
    DrawMove.PIT: "daytona.move_pit",
    DrawMove.FINISH: "daytona.move_finish",
    DrawMove.CHOOSE: "daytona.move_choose",
}
_AS_KEYS = {"two": "daytona.as_two", "joker": "daytona.as_joker"}
_RACING = (Phase.DRAW, Phase.DEUCE)


def _where(lang: str, view: DaytonaPublicView, seat: int) -> str:
    """Where a car is, for the caption and the legend."""
    if view.out[seat]:
        return t(lang, "daytona.where_out")
    position = view.positions[seat]
    if position >= FINISHED:
        return t(lang, "daytona.where_finished", place=view.finished.index(seat) + 1)
    if position == BEFORE_START:
        where = t(lang, "daytona.where_grid")
    elif position == ON_START:
        where = t(lang, "daytona.where_start")
    else:
        where = t(lang, "daytona.where_track", n=position - ON_START, of=TRACK_CARDS)
    pits = view.pits[seat]
    if pits:
        where += " · " + tn(lang, "daytona.where_pit", pits)
    return where


def _last_line(lang: str, view: DaytonaPublicView, names: Sequence[str]) -> str | None:
    last = view.last
    if last is None:
        return None
    name = names[last.seat]
    card = face(last.card.code)
    if last.move is DrawMove.CHOOSE:
        return t(lang, "daytona.last_choose", name=name, card=card)
    what = t(lang, _MOVE_KEYS[last.move])
    if last.counted_as is not None:
        what = t(lang, _AS_KEYS[last.counted_as.value]) + " — " + what
    return t(lang, "daytona.last", name=name, card=card, what=what)


def _standings(lang: str, view: DaytonaPublicView, names: Sequence[str]) -> list[str]:
    """The match score, best first; equal scores share a place."""
    scores = view.scores
    return [
        f"{_place(scores, s)}. {names[s]} — {tn(lang, 'daytona.points', scores[s])}"
        for s in sorted(range(len(names)), key=lambda s: -scores[s])
    ]


def _place(points: Sequence[int], seat: int) -> int:
    return 1 + sum(p > points[seat] for p in points)


def _race_places(view: DaytonaPublicView, names: Sequence[str]) -> list[str]:
    """The race just over, best first (cars side by side when the limit
    ended it share a place)."""
    points = view.race_points
    if points is None:
        return []
    order = sorted(range(len(names)), key=lambda s: -points[s])
    return [f"{_place(points, s)}. {names[s]} +{points[s]}" for s in order]


def track_picture(lang: str, view: DaytonaPublicView, names: Sequence[str]) -> Picture:
    """The track with the cars, drawn on demand."""
    shown = [plain(n) for n in names]
    moving = set(view.to_move) if view.phase in _RACING else set()
    statuses = [_where(lang, view, s) for s in range(len(names))]
    last = view.last
    last_text = ""
    if last is not None and last.move is not DrawMove.CHOOSE:
        last_text = f"{shown[last.seat]}: {t(lang, _MOVE_KEYS[last.move])}"
    rounds = view.rounds
    over = ""
    if view.phase is Phase.RACE_OVER:
        over = t(lang, "daytona.picture_race_over", n=view.race)
    elif view.phase is Phase.OVER:
        over = t(lang, "daytona.picture_match_over")
    labels = TrackLabels(
        pit=t(lang, "daytona.picture_pit"),
        start=t(lang, "daytona.picture_start"),
        drawn=t(lang, "daytona.picture_drawn"),
        stock=t(lang, "daytona.picture_stock", n=view.stock),
        round=t(lang, "daytona.picture_round", n=view.round, of=rounds) if rounds else "",
        last=last_text,
        over=over,
    )
    keyed: list[JSON] = [lang, shown, statuses, sorted(moving), _shown(view)]
    if over:  # (the key of a picture of a race going on is as it always was)
        keyed.append(over)
    data = json.dumps(keyed, sort_keys=True)
    key = "daytona-" + hashlib.blake2b(data.encode(), digest_size=10).hexdigest()
    cars = [
        Car(shown[s], view.positions[s], statuses[s], view.scores[s], s in moving)
        for s in range(len(names))
    ]
    track = list(view.track)
    start, pit = view.start, view.pit
    drawn = None if last is None else (last.card, last.seat)

    def draw() -> bytes:
        return draw_track(track, start, pit, drawn, cars, labels)

    return Picture(key, draw)


def _shown(view: DaytonaPublicView) -> list[JSON]:
    """What the picture shows besides its labels, as JSON for its key (laid
    out as the key has always been, so a picture drawn before is not sent
    again)."""
    last: JSON = None
    if view.last is not None:
        last = {
            "seat": view.last.seat,
            "card": view.last.card.code,
            "as": None if view.last.counted_as is None else view.last.counted_as.value,
            "move": view.last.move.value,
            "from": view.last.before,
        }
        if view.last.after is not None:
            last["to"] = view.last.after
    return [
        [c.code for c in view.track],
        view.start.code,
        view.pit.code,
        list(view.positions),
        list(view.scores),
        view.stock,
        last,
        view.round,
        view.rounds,
    ]


class DaytonaScreens(GameScreens[DaytonaPublicView, DaytonaSeatView]):
    # --- the group's table ----------------------------------------------------

    def table(
        self, lang: str, view: DaytonaPublicView, names: Sequence[str], *, live: bool
    ) -> Screen:
        """The race; the last draw is for the table message's log of recent
        moves to tell (it said the same twice)."""
        lines = self._race(lang, view, names, live=live)
        if live and view.phase is Phase.RACE_OVER:
            lines += ["", t(lang, "daytona.next_race")]
        return Screen("\n".join(lines), picture=track_picture(lang, view, names))

    def _race(
        self, lang: str, view: DaytonaPublicView, names: Sequence[str], *, live: bool
    ) -> list[str]:
        lines = [
            t(lang, "daytona.race", race=view.race, target=view.target),
            t(
                lang,
                "daytona.cards",
                start=face(view.start.code),
                pit=face(view.pit.code),
                stock=view.stock,
            ),
        ]
        if view.rounds and view.phase in _RACING:
            lines.append(t(lang, "daytona.round", n=view.round, of=view.rounds))
        lines.append("")
        turn = view.to_move if live and view.phase in _RACING else frozenset()
        for seat, name in enumerate(names):
            line = f"{name} — {_where(lang, view, seat)} · {view.scores[seat]}"
            lines.append(f"▶️ <b>{line}</b>" if seat in turn else f"• {line}")
        return lines

    def hand(
        self,
        lang: str,
        view: DaytonaSeatView,
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
        *,
        live: bool,
    ) -> Screen:
        """Daytona has no hands: a player's own screen only says how the race
        stands and what the last draw did (the moves are on the table message)."""
        lines = self._race(lang, view, names, live=live)
        last = _last_line(lang, view, names)
        if last:
            lines += ["", last]
        if live and view.phase is Phase.RACE_OVER:
            lines += ["", t(lang, "daytona.next_race")]
        return Screen("\n".join(lines))

    def held(self, lang: str, views: Sequence[DaytonaSeatView], seat: int) -> str:
        return ""  # no hands: every card is drawn on the table

    def turn(self, lang: str, view: DaytonaPublicView, names: Sequence[str]) -> str | None:
        if view.phase not in _RACING or not view.to_move:
            return None
        return t(lang, "daytona.turn", name=names[min(view.to_move)])

    def table_key(self, lang: str, action: Action, view: DaytonaPublicView) -> str:
        if isinstance(action, Draw):
            return t(lang, "daytona.btn_draw")
        if isinstance(action, Deuce):
            return t(lang, "daytona.btn_joker" if action.joker else "daytona.btn_two")
        if isinstance(action, Next):
            return t(lang, "daytona.btn_next")
        raise ValueError(f"not a Daytona move: {action!r}")

    def move_name(self, lang: str, event: Event) -> str | None:
        # A deuce's reading, the one choice a Daytona player makes, by the
        # key he pressed: its event line names him in the third person.
        if event.kind == "deuce":
            key = "daytona.btn_joker" if event.value == "joker" else "daytona.btn_two"
            return t(lang, "analysis.move_key", label=t(lang, key))
        return None

    def event(
        self, lang: str, event: Event, names: Sequence[str], viewer: int | None = None
    ) -> str | None:
        seat = event.seat
        name = names[seat] if seat is not None and 0 <= seat < len(names) else ""
        match event.kind:
            case "draw":
                return t(lang, "daytona.ev_draw", name=name, card=face(event.cards[0].code))
            case "deuce":
                return t(
                    lang,
                    "daytona.ev_deuce",
                    name=name,
                    what=t(lang, _AS_KEYS["joker" if event.value == "joker" else "two"]),
                )
            case "forward":
                return t(lang, "daytona.ev_forward", name=name)
            case "back":
                return t(lang, "daytona.ev_back", name=name)
            case "stay":
                return t(lang, "daytona.ev_stay", name=name)
            case "pit":
                return t(lang, "daytona.ev_pit", name=name)
            case "wait":
                return t(lang, "daytona.ev_wait", name=name)
            case "finish":
                return t(lang, "daytona.ev_finish", name=name, place=event.value)
            case "race":
                return t(lang, "daytona.ev_race", race=event.value)
            case "tie":
                return t(lang, "daytona.ev_tie", points=event.value)
            case "time_up":
                return t(lang, "daytona.ev_time_up")
            case "resign":
                return t(lang, "daytona.ev_resign", name=name)
        return None

    announced_after: frozenset[str] = frozenset({"points"})
    round_opened_by: frozenset[str] = frozenset({"race"})

    def announcements(
        self,
        lang: str,
        events: Sequence[Event],
        view: DaytonaPublicView,
        names: Sequence[str],
    ) -> list[Screen]:
        """The places and points after each race but the last (the result
        has those)."""
        points = view.race_points
        if (
            view.phase is not Phase.RACE_OVER
            or points is None
            or not any(e.kind == "points" for e in events)
        ):
            return []
        lines = [t(lang, "daytona.race_over", race=view.race)]
        if any(e.kind == "time_up" for e in events):
            lines.append(t(lang, "daytona.ev_time_up"))
        lines += _race_places(view, names)
        lines += ["", t(lang, "daytona.standings"), *_standings(lang, view, names)]
        if any(e.kind == "tie" for e in events):
            lines += ["", t(lang, "daytona.tie")]
        return [Screen("\n".join(lines))]

    def result(
        self, lang: str, outcome: Outcome, view: DaytonaPublicView, names: Sequence[str]
    ) -> Screen:
        winners = ", ".join(names[s] for s in sorted(outcome.winners))
        lines = [tn(lang, "daytona.result", view.race, name=winners)]
        lines += ["", *_standings(lang, view, names)]
        last = _race_places(view, names)
        if last:  # the last race has no post of its own
            lines += ["", t(lang, "daytona.race_over", race=view.race), *last]
        return Screen("\n".join(lines))

    def own_result(
        self, lang: str, outcome: Outcome, view: DaytonaSeatView, names: Sequence[str]
    ) -> str:
        seat = view.seat
        if seat in outcome.winners:
            return t(lang, "daytona.own_winner")
        place = next(i for i, group in enumerate(outcome.places, 1) if seat in group)
        return t(lang, "daytona.own_place", place=place, n=len(names))

    def summary(self, lang: str, rules: Rules) -> str:
        assert isinstance(rules, DaytonaRules)
        back = "daytona.summary.back_wins" if rules.back_wins else "daytona.summary.forward_wins"
        parts = [t(lang, "daytona.summary", target=rules.target), t(lang, back)]
        if rules.draw_limit.draws:
            parts.append(t(lang, "daytona.summary.limit", n=rules.draw_limit.draws))
        return " · ".join(parts)

    def score_line(self, lang: str, place: int, name: str, row: ScoreRow) -> str:
        return t(
            lang, "daytona.score_row", place=place, name=name, played=row.played, wins=row.wins
        )

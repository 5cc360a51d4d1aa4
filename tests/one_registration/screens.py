"""High card on screen: the trick and the score on the group's table message,
each player's hand with a key per card in his DM."""

from __future__ import annotations

from collections.abc import Sequence

from games.core import Action, Event, Outcome, Rules
from i18n import t, tn
from screens.base import Key, Screen
from screens.faces import face, faces
from screens.rows import fit_rows
from services import ScoreRow
from tests.one_registration.actions import Play
from tests.one_registration.rules import HighCardRules
from tests.one_registration.state import Phase
from tests.one_registration.views import HighCardSeat, HighCardTable

__all__ = ["HighCardScreens"]


class HighCardScreens:
    def table(self, lang: str, view: HighCardTable, names: Sequence[str], *, live: bool) -> Screen:
        lines = [t(lang, "highcard.stock", stock=view.stock), ""]
        turn = set(view.to_move) if live else set()
        for seat, name in enumerate(names):
            score = tn(lang, "highcard.points", view.scores[seat])
            line = f"{name} — {score}" + (" 🚪" if view.out[seat] else "")
            lines.append(f"▶️ <b>{line}</b>" if seat in turn else f"• {line}")
        if view.trick:
            played = ", ".join(f"{names[p.seat]} {face(p.card.code)}" for p in view.trick)
            if view.taken is None:
                lines += ["", t(lang, "highcard.trick", cards=played)]
            else:
                lines += ["", t(lang, "highcard.taken", name=names[view.taken], cards=played)]
        return Screen("\n".join(lines))

    def hand(
        self,
        lang: str,
        view: HighCardSeat,
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
        *,
        live: bool,
    ) -> Screen:
        lines = [self.table(lang, view, names, live=live).text, ""]
        lines.append(t(lang, "highcard.hand", cards=faces(c.code for c in view.hand) or "—"))
        keys = [Key(face(a.card.code), action=a.encode()) for a in actions if isinstance(a, Play)]
        if keys:
            lines.append(t(lang, "highcard.your_move"))
        return Screen("\n".join(lines), fit_rows(keys) if live else ())

    def held(self, lang: str, views: Sequence[HighCardSeat], seat: int) -> str:
        return faces(c.code for c in views[seat].hand)

    def turn(self, lang: str, view: HighCardTable, names: Sequence[str]) -> str | None:
        if view.phase is Phase.OVER or not view.to_move:
            return None
        return t(lang, "highcard.turn", name=names[view.to_move[0]])

    def table_key(self, lang: str, action: Action, view: HighCardTable) -> str:
        raise ValueError(f"High card makes no move on the table: {action!r}")

    def move_name(self, lang: str, event: Event) -> str | None:
        return None

    def event(
        self, lang: str, event: Event, names: Sequence[str], viewer: int | None = None
    ) -> str | None:
        name = names[event.seat] if event.seat is not None else ""
        match event.kind:
            case "play":
                return t(lang, "highcard.ev_play", name=name, card=face(event.cards[0].code))
            case "trick":
                return t(lang, "highcard.ev_trick", name=name)
            case "resign":
                return t(lang, "highcard.ev_resign", name=name)
        return None

    announced_after: frozenset[str] = frozenset()
    round_opened_by: frozenset[str] = frozenset()

    def announcements(
        self, lang: str, events: Sequence[Event], view: HighCardTable, names: Sequence[str]
    ) -> list[Screen]:
        return []

    def result(
        self, lang: str, outcome: Outcome, view: HighCardTable, names: Sequence[str]
    ) -> Screen:
        winners = ", ".join(names[s] for s in sorted(outcome.winners))
        lines = [t(lang, "highcard.result", name=winners), ""]
        for place, group in enumerate(outcome.places, 1):
            for seat in group:
                points = tn(lang, "highcard.points", view.scores[seat])
                lines.append(f"{place}. {names[seat]} — {points}")
        return Screen("\n".join(lines))

    def own_result(
        self, lang: str, outcome: Outcome, view: HighCardSeat, names: Sequence[str]
    ) -> str:
        if view.seat in outcome.winners:
            return t(lang, "highcard.own_winner")
        place = next(i for i, group in enumerate(outcome.places, 1) if view.seat in group)
        return t(lang, "highcard.own_place", place=place)

    def score_line(self, lang: str, place: int, name: str, row: ScoreRow) -> str:
        return t(
            lang, "highcard.score_row", place=place, name=name, played=row.played, wins=row.wins
        )

    def summary(self, lang: str, rules: Rules) -> str:
        assert isinstance(rules, HighCardRules)
        return tn(lang, "highcard.summary", rules.hand)

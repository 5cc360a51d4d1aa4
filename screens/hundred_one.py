"""101 on screen: top card and ordered suit, hands, the score sheet."""

from __future__ import annotations

from collections.abc import Sequence

from games.cards import Card
from games.core import Action, Event, Outcome, Rules
from games.hundred_one.actions import Draw, NextRound, Order, Pass, Play
from games.hundred_one.rules import AceMode, HundredOneRules, Master, Scoring
from games.hundred_one.state import ROUND_MOVES, Phase
from games.hundred_one.views import HundredOnePublicView, HundredOneSeatView, LastRound
from i18n import t, tn
from screens.base import GameScreens, Key, Screen, Tone
from screens.faces import face, faces, suit_symbol
from screens.numbers import number, signed
from screens.rows import fit_rows
from services import ScoreRow

__all__ = ["HundredOneScreens"]


_IN_ROUND = (Phase.PLAY, Phase.ORDER)


def _top_line(lang: str, view: HundredOnePublicView) -> str:
    if view.top is None:
        return t(lang, "101.top_none")
    line = t(lang, "101.top", card=face(view.top.code))
    if view.ordered is not None:
        line += " · " + t(lang, "101.ordered", suit=suit_symbol(view.ordered.value))
    return line


def _pending_line(
    lang: str, view: HundredOnePublicView, names: Sequence[str], viewer: int | None = None
) -> str | None:
    """An effect still to come; in the DM of the seat it hits, in the second person."""
    pending = view.pending
    if pending is None:
        return None
    you = pending.seat == viewer
    name = names[pending.seat]
    if pending.answer:
        return (
            t(lang, "101.you_pending_answer") if you else t(lang, "101.pending_answer", name=name)
        )
    parts = []
    if pending.draw:
        key = "101.you_pending_draw" if you else "101.pending_draw"
        parts.append(tn(lang, key, pending.draw, name=name))
    if pending.skip:
        parts.append(t(lang, "101.you_pending_skip" if you else "101.pending_skip", name=name))
    return " ".join(parts) or None


def _points(lang: str, total: int) -> str:
    """A total in points, below zero with a real minus sign."""
    return ("−" if total < 0 else "") + tn(lang, "101.points", abs(total))


def _round_lost(lang: str, winner: str, penalty: int) -> str:
    """How a round someone else won ended for the reader: its winner and the
    points he scored from it."""
    points = ("" if penalty < 0 else "+") + _points(lang, penalty)
    return t(lang, "101.ev_you_round", name=winner, points=points)


def _gone(lang: str, view: HundredOnePublicView, seat: int) -> str | None:
    """When an eliminated seat left the match (None: still in it): after
    the round whose score put him out, or the round he left the match in."""
    when = view.out[seat]
    if seat not in view.eliminated or not when:
        return None
    if seat in view.resigned:
        return t(lang, "101.out_left", round=when)
    return t(lang, "101.out_after", round=when)


def _out_key(view: HundredOneSeatView, seat: int) -> str:
    """Why ``seat`` is out of the match, in his own words: he left it (or
    was removed), or a jack put him out, or his total."""
    if seat in view.resigned:
        return "101.you_left"
    return "101.you_are_out_jack" if seat in view.jack_out else "101.you_are_out"


def _round_row(lang: str, record: LastRound, names: Sequence[str]) -> str:
    """One scored round on the match's sheet: each player's points, and his
    total after it (reset to 0, or out)."""
    cells = []
    for seat, name in enumerate(names):
        penalty = record.penalties[seat]
        if penalty is None:
            continue
        cell = f"{name} {signed(penalty)}"
        if record.totals:
            cell += f" → {number(record.totals[seat])}"
        if seat in record.reset:
            cell += f" ({t(lang, '101.sheet_reset')})"
        if seat in record.eliminated:
            cell += " ✗"
        cells.append(cell)
    title = t(lang, "101.sheet_round", round=record.round, name=names[record.winner])
    return title + "\n" + " · ".join(cells)


class HundredOneScreens(GameScreens[HundredOnePublicView, HundredOneSeatView]):
    def table(
        self, lang: str, view: HundredOnePublicView, names: Sequence[str], *, live: bool
    ) -> Screen:
        lines = [
            t(lang, "101.round", round=view.round) + " · " + t(lang, "101.stock", stock=view.stock),
            _top_line(lang, view),
        ]
        pending = _pending_line(lang, view, names) if live else None
        if pending:
            lines.append(f"⚡ {pending}")
        lines.append("")
        eliminated = set(view.eliminated)
        to_move = view.to_move
        playing = live and view.phase in _IN_ROUND
        for seat, name in enumerate(names):
            total = _points(lang, view.totals[seat])
            if seat in eliminated:
                lines.append(f"✗ <s>{name}</s> — {t(lang, '101.eliminated', total=total)}")
                continue
            line = f"{name} — {tn(lang, '101.n_cards', view.hands[seat])} · {total}"
            line = f"▶️ <b>{line}</b>" if playing and seat in to_move else f"• {line}"
            lines.append(line)
        if live and view.phase is Phase.ROUND_OVER:
            lines += ["", t(lang, "101.next_round_hint")]
        if view.phase is Phase.OVER:  # the last one left won the match
            winner = next(s for s in range(len(names)) if s not in eliminated)
            lines += ["", t(lang, "101.result", name=names[winner])]
        return Screen("\n".join(lines))

    def turn(self, lang: str, view: HundredOnePublicView, names: Sequence[str]) -> str | None:
        if view.phase is Phase.ROUND_OVER:
            return t(lang, "101.round_over_dm")
        if view.phase not in _IN_ROUND or not view.to_move:
            return None
        return t(lang, "101.turn", name=names[min(view.to_move)])

    def hand(
        self,
        lang: str,
        view: HundredOneSeatView,
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
        *,
        live: bool,
    ) -> Screen:
        seat = view.seat
        lines = [
            t(
                lang,
                "101.your_cards",
                cards=faces(c.code for c in view.hand) or t(lang, "101.no_cards"),
            ),
            t(lang, "101.your_total", total=_points(lang, view.totals[seat])),
        ]
        keys = self._keys(lang, actions, view.hand)
        if not keys:
            return Screen("\n".join(lines))
        if any(isinstance(a, NextRound) for a in actions):
            lines.append(f"<i>{t(lang, '101.prompt_next_round')}</i>")
            return Screen("\n".join(lines), keys)
        lines.insert(0, _top_line(lang, view))
        pending = _pending_line(lang, view, names, seat)
        if pending and view.pending is not None and view.pending.seat == seat:
            lines.append(f"⚡ {pending}")
        if any(isinstance(a, Order) for a in actions):
            prompt = t(lang, "101.prompt_order")
        elif view.follow is not None:
            prompt = t(lang, "101.prompt_follow", suit=suit_symbol(view.follow.value))
        else:
            prompt = t(lang, "101.prompt_play")
        lines.append(f"<i>{prompt}</i>")
        return Screen("\n".join(lines), keys)

    def out(self, lang: str, view: HundredOneSeatView, names: Sequence[str]) -> Screen | None:
        """An eliminated player's own screen for the rest of the match: how
        the round that put him out ended for him, his total and that he is
        out; nothing in it changes while the others play on."""
        seat = view.seat
        if seat not in view.eliminated:
            return None
        lines = []
        record = next((r for r in view.rounds if r.round == view.out[seat]), None)
        if record is not None and seat in record.eliminated:
            ended = _round_lost(lang, names[record.winner], record.penalties[seat] or 0)
            lines.append(f"<i>{ended}</i>")
        lines += [
            t(lang, "101.your_total", total=_points(lang, view.totals[seat])),
            t(lang, _out_key(view, seat)),
        ]
        return Screen("\n".join(lines))

    def held(self, lang: str, views: Sequence[HundredOneSeatView], seat: int) -> str:
        return faces(c.code for c in views[seat].hand)

    def _keys(
        self, lang: str, actions: Sequence[Action], hand: Sequence[Card]
    ) -> tuple[tuple[Key, ...], ...]:
        playable = {a.card: a for a in actions if isinstance(a, Play)}
        # While he may play, the cards that do not fit are shown too, disabled.
        cards = (
            [
                Key(face(card.code), action=playable[card].encode())
                if card in playable
                else Key(face(card.code))
                for card in hand
            ]
            if playable
            else []
        )
        suits = [
            Key(f"{suit_symbol(a.suit.value)} {t(lang, f'suit.{a.suit.value}')}", action=a.encode())
            for a in actions
            if isinstance(a, Order)
        ]
        last: list[Key] = []
        for a in actions:
            if isinstance(a, Draw):
                last.append(Key(t(lang, "101.btn_draw"), action=a.encode()))
            elif isinstance(a, Pass):
                last.append(Key(t(lang, "101.btn_pass"), action=a.encode(), tone=Tone.DONE))
            elif isinstance(a, NextRound):
                last.append(Key(t(lang, "101.btn_next_round"), action=a.encode()))
        return (*fit_rows(cards), *fit_rows(suits, 2), *fit_rows(last))

    def move_name(self, lang: str, event: Event) -> str | None:
        return faces(c.code for c in event.cards) if event.kind == "play" else None

    def event(
        self, lang: str, event: Event, names: Sequence[str], viewer: int | None = None
    ) -> str | None:
        name = names[event.seat] if event.seat is not None else ""
        you = viewer is not None and event.seat == viewer
        # The DM of the seat that moved (or was hit) reads in the second person.
        own = "101.ev_you_" if you else "101.ev_"
        match event.kind:
            case "deal":
                return t(lang, own + "deal", round=event.value, name=name)
            case "play":
                return t(lang, own + "play", name=name, cards=faces(c.code for c in event.cards))
            case "order" if isinstance(event.value, str):
                return t(lang, own + "order", name=name, suit=suit_symbol(event.value))
            case "draw" | "penalty_draw" if isinstance(event.value, int):
                return tn(lang, own + event.kind, event.value, name=name)
            case "pass" | "skip" | "again" | "reset" | "eliminated" | "resign":
                return t(lang, own + event.kind, name=name)
            case "reshuffle":
                return t(lang, "101.ev_reshuffle")
            case "round_over" if you and isinstance(event.value, int):
                return self._own_round(lang, event, names)
        return None

    @staticmethod
    def _own_round(lang: str, event: Event, names: Sequence[str]) -> str:
        """How the round ended for the seat whose DM this is (the group gets
        the whole score sheet)."""
        if event.target == event.seat:
            return t(lang, "101.ev_you_won_round")
        value = event.value if isinstance(event.value, int) else 0
        winner = names[event.target] if event.target is not None else "—"
        line = _round_lost(lang, winner, value)
        if event.cards:
            line += f" ({faces(c.code for c in event.cards)})"
        return line

    def table_key(self, lang: str, action: Action, view: HundredOnePublicView) -> str:
        if isinstance(action, NextRound):
            return t(lang, "101.btn_next_round")
        raise ValueError(f"not a move made on the table: {action!r}")

    announced_after: frozenset[str] = frozenset({"round_over"})
    round_opened_by: frozenset[str] = frozenset({"deal"})

    def announcements(
        self,
        lang: str,
        events: Sequence[Event],
        view: HundredOnePublicView,
        names: Sequence[str],
    ) -> list[Screen]:
        """The score sheet after each round (not after the last: the result
        message has it, and the final totals)."""
        if view.phase is not Phase.ROUND_OVER or not any(e.kind == "round_over" for e in events):
            return []
        return [Screen(self._score_sheet(lang, view, names))]

    def _score_sheet(self, lang: str, view: HundredOnePublicView, names: Sequence[str]) -> str:
        last = view.last_round
        if last is None:
            raise ValueError("no round has been scored")
        lines = [t(lang, "101.sheet_title", round=view.round, name=names[last.winner])]
        if last.doubled:
            lines.append(t(lang, "101.sheet_doubled"))
        if last.blocked:
            if last.too_long:
                lines.append(tn(lang, "101.sheet_too_long", ROUND_MOVES))
            else:
                lines.append(t(lang, "101.sheet_blocked"))
        for seat, name in enumerate(names):
            penalty = last.penalties[seat]
            if penalty is None:
                continue
            total = view.totals[seat]
            line = f"{name}: {signed(penalty)} → {number(total)}"
            shown = view.revealed[seat] if view.revealed else ()
            if shown:
                line += f"  ({faces(c.code for c in shown)})"
            elif seat == last.winner and penalty < 0 and view.top is not None:
                # The winner's minus: the queen he finished on.
                line += " · " + t(lang, "101.sheet_queen_finish", card=face(view.top.code))
            if seat in last.reset:
                line += " · " + t(lang, "101.sheet_reset")
            if seat in last.eliminated:
                gone = "101.sheet_jack_out" if seat in view.jack_out else "101.sheet_eliminated"
                line += " · " + t(lang, gone)
            lines.append(line)
        return "\n".join(lines)

    def sheet(self, lang: str, view: HundredOnePublicView, names: Sequence[str]) -> Screen | None:
        """The match's sheet for ``/sheet``: every round scored so far, each
        player's points and total after it, then the totals and who is out."""
        scored = view.round if view.phase in (Phase.ROUND_OVER, Phase.OVER) else view.round - 1
        if scored < 1:
            return None
        lines = [t(lang, "101.sheet_match_title", rounds=scored)]
        first = view.rounds[0].round if view.rounds else scored + 1
        if first > 1:  # a match saved before its rounds were kept
            lines.append(t(lang, "101.sheet_unrecorded", round=first))
        for record in view.rounds:
            lines += ["", _round_row(lang, record, names)]
        lines += ["", t(lang, "101.sheet_totals")]
        for seat, name in enumerate(names):
            total = _points(lang, view.totals[seat])
            gone = _gone(lang, view, seat)
            lines.append(f"✗ <s>{name}</s> — {total}, {gone}" if gone else f"• {name} — {total}")
        return Screen("\n".join(lines))

    def result(
        self, lang: str, outcome: Outcome, view: HundredOnePublicView, names: Sequence[str]
    ) -> Screen:
        winner = next(iter(outcome.winners), None)
        lines = [t(lang, "101.result", name=names[winner] if winner is not None else "—")]
        lines.append(f"<i>{t(lang, '101.result_order')}</i>")
        totals = outcome.scores or view.totals
        for place, group in enumerate(outcome.places, 1):
            for seat in group:
                line = f"{place}. {names[seat]} — {_points(lang, totals[seat])}"
                gone = _gone(lang, view, seat)
                lines.append(f"{line}, {gone}" if gone else line)
        if view.last_round is not None:  # the last round has no sheet of its own
            lines += ["", self._score_sheet(lang, view, names)]
        return Screen("\n".join(lines))

    def own_result(
        self, lang: str, outcome: Outcome, view: HundredOneSeatView, names: Sequence[str]
    ) -> str:
        seat = view.seat
        if seat in outcome.winners:
            return t(lang, "101.own_winner")
        winner = next(iter(outcome.winners), None)
        place = next(i for i, group in enumerate(outcome.places, 1) if seat in group)
        totals = outcome.scores or view.totals
        return t(
            lang,
            "101.own_place",
            name=names[winner] if winner is not None else "—",
            place=place,
            n=len(names),
            points=_points(lang, totals[seat]),
        )

    def summary(self, lang: str, rules: Rules) -> str:
        assert isinstance(rules, HundredOneRules)
        master = t(lang, f"optval.101.master.{rules.master.value}")
        return t(
            lang,
            "101.summary",
            cards=tn(lang, "101.n_cards", rules.deck),
            hand=rules.hand,
            master=master,
            ceiling=rules.ceiling,
        )

    def details(self, lang: str, rules: Rules) -> list[str]:
        """What the master jack, suit only, the order's skip, the English ace
        and pentagon's card values change, which the general rules do not say."""
        assert isinstance(rules, HundredOneRules)
        keys = [
            ("jack", rules.master is Master.JACK),
            ("english", rules.ace is AceMode.ENGLISH),
            ("suit_only", rules.suit_only),
            ("order_skip", rules.order_skip),
            ("pentagon", rules.scoring is Scoring.PENTAGON),
        ]
        return [t(lang, f"101.detail.{key}") for key, on in keys if on]

    def score_line(self, lang: str, place: int, name: str, row: ScoreRow) -> str:
        return t(lang, "101.score_row", place=place, name=name, played=row.played, wins=row.wins)

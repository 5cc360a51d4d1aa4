"""Joker on screen: the table with bids and the trick, the hand with a key per
bid or card (a joker's declaration in a sub-menu), a line after each deal and
the score sheet, as a picture, after each pulka and at the end."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from games.cards import Card, Rank, Suit
from games.core import Action, Event, Outcome, Rules
from games.joker.actions import Bid, ChooseTrump, Deal, FaceValue, FollowJoker, LeadJoker, Play
from games.joker.rules import JokerRules
from games.joker.scoring import is_khisht
from games.joker.views import (
    JokerMode,
    JokerPublicView,
    JokerSeatView,
    Phase,
)
from i18n import t, tn
from screens.base import GameScreens, Key, Picture, Screen
from screens.drawing import plain
from screens.faces import face, faces, suit_symbol
from screens.joker_sheet import SheetLabels, draw_sheet
from screens.numbers import number, signed
from screens.rows import fit_rows
from services import ScoreRow

__all__ = ["JokerScreens", "sheet_text"]

TRUMP_MARK = "★"
"""Marks a trump on a button (buttons cannot be bold)."""


def _suit(lang: str, letter: str) -> str:
    """An event's trump: a suit letter or ``none``."""
    if letter == "none":
        return t(lang, "joker.no_trump")
    return suit_symbol(letter)


def _trump(lang: str, view: JokerPublicView) -> str:
    if not view.trump_known:
        return "?"
    if view.trump is None:
        return t(lang, "joker.no_trump")
    return suit_symbol(view.trump.value)


def _trump_line(lang: str, view: JokerPublicView, names: Sequence[str]) -> str:
    if view.phase is Phase.TRUMP:
        assert view.chooser is not None  # the trump phase has its chooser
        return t(lang, "joker.trump_choosing", name=names[view.chooser])
    if view.trump_card is not None:
        return t(
            lang,
            "joker.trump_turned",
            trump=_trump(lang, view),
            card=face(view.trump_card.code),
        )
    return t(lang, "joker.trump_named", trump=_trump(lang, view))


def _deal_line(lang: str, view: JokerPublicView) -> str:
    return t(
        lang,
        "joker.deal",
        deal=view.deal,
        deals=view.deals,
        pulka=view.pulka,
        cards=tn(lang, "joker.n_cards", view.cards),
    )


def _bids_sum(lang: str, view: JokerPublicView) -> str | None:
    """``Заказано 4 из 5: недобор 1``."""
    bids = [b for b in view.bids if b is not None]
    if not bids:
        return None
    total, cards = sum(bids), view.cards
    if len(bids) < len(view.bids):
        return t(lang, "joker.bids_so_far", total=total, cards=cards)
    if total > cards:
        return t(lang, "joker.bids_over", total=total, cards=cards, n=total - cards)
    return t(lang, "joker.bids_under", total=total, cards=cards, n=cards - total)


def joker_word(lang: str, how: JokerMode | None, suit: Suit | None) -> str:
    """How a played joker was declared (``suit``: the suit a led one named)."""
    if how is None:
        return ""
    if how is JokerMode.FACE and suit is not None:
        return t(lang, "joker.face_value", card=face(Card.of(Rank.SIX, suit).code))
    if suit is not None:
        return t(lang, f"joker.lead_{how.value}", suit=suit_symbol(suit.value))
    return t(lang, f"joker.follow_{how.value}")


def _played(lang: str, card: Card, how: JokerMode | None, suit: Suit | None) -> str:
    shown = face(card.code)
    if how is None:
        return shown
    return f"{shown} {joker_word(lang, how, suit)}"


def _event_played(lang: str, event: Event) -> str:
    """The card of a ``play`` event, with what a joker was played as."""
    how: JokerMode | None = None
    suit: Suit | None = None
    if isinstance(event.value, str):
        mode, _, letter = event.value.partition(":")
        how, suit = JokerMode(mode), Suit(letter) if letter else None
    return _played(lang, event.cards[0], how, suit)


def _trick_line(lang: str, view: JokerPublicView, names: Sequence[str]) -> str | None:
    trick = view.trick
    if not trick:
        return None
    cards = " · ".join(f"{names[e.seat]} {_played(lang, e.card, e.joker, e.suit)}" for e in trick)
    line = t(lang, "joker.on_table", cards=cards)
    if view.trick_done and view.trick_winner is not None:
        line += "\n" + t(lang, "joker.trick_to", name=names[view.trick_winner])
    return line


def _is_trump(card: Card, trump: Suit | None) -> bool:
    return trump is not None and card.suit is trump


def _bid_text(lang: str, bid: int | None) -> str:
    """A bid in a list of bids: ``2``, ``пас``, ``—`` (not yet)."""
    if bid is None:
        return "—"
    return t(lang, "joker.pass") if bid == 0 else str(bid)


def _bid_phrase(lang: str, bid: int) -> str:
    """A bid on its own: ``заказ 2``, ``пас``."""
    return t(lang, "joker.pass") if bid == 0 else t(lang, "joker.bid_n", n=bid)


def _deal_summary(lang: str, view: JokerPublicView, names: Sequence[str]) -> str:
    """One line of the deal played last: each player's bid/tricks and points,
    with a word on what ``1/0`` means (where the scoring has khishts)."""
    row = view.sheet[-1]
    parts = []
    for seat, name in enumerate(names):
        bid, took, points = row.bids[seat], row.tricks[seat], row.points[seat]
        mark = " " + t(lang, "joker.khisht") if view.khisht and is_khisht(bid, took) else ""
        parts.append(f"{name} {bid}/{took} {signed(points)}{mark}")
    head = t(lang, "joker.deal_done", deal=row.deal, cards=tn(lang, "joker.n_cards", row.cards))
    return f"{head}, {t(lang, 'joker.bid_taken')}: " + " · ".join(parts)


def sheet_text(lang: str, view: JokerPublicView, names: Sequence[str]) -> str:
    """The score sheet in a few lines: each pulka's subtotals with its premium
    and what was struck off, then the totals (the picture's caption, and the
    sheet itself where pictures are off)."""
    rows = view.sheet
    lines = [t(lang, "joker.sheet_title", deal=len(rows), deals=view.deals)]
    done = {p.pulka: p for p in view.pulkas}
    pulkas = sorted({r.pulka for r in rows})
    for pulka in pulkas:
        record = done.get(pulka)
        if record is not None:
            sums = record.subtotal
        else:
            sums = tuple(
                sum(r.points[s] for r in rows if r.pulka == pulka) for s in range(len(names))
            )
        body = " · ".join(f"{name} {number(sums[s])}" for s, name in enumerate(names))
        key = "joker.sheet_pulka" if record is not None else "joker.sheet_pulka_open"
        lines.append(f"{t(lang, key, pulka=pulka)}: {body}")
        if record is not None and record.premium:
            got = ", ".join(f"{names[s]} {signed(record.bonus[s])}" for s in sorted(record.premium))
            lost = [f"{names[s]} {signed(b)}" for s, b in enumerate(record.bonus) if b < 0]
            note = t(lang, "joker.sheet_premium", who=got)
            if lost:
                note += "; " + t(lang, "joker.sheet_struck", who=", ".join(lost))
            lines.append(f"   {note}")
    khisht = [
        sum(1 for r in rows if view.khisht and is_khisht(r.bids[s], r.tricks[s]))
        for s in range(len(names))
    ]
    if any(khisht):
        who = ", ".join(f"{names[s]} {k}" for s, k in enumerate(khisht) if k)
        lines.append(t(lang, "joker.sheet_khisht", who=who))
    totals = view.totals
    body = " · ".join(f"{name} {number(totals[s])}" for s, name in enumerate(names))
    lines.append(t(lang, "joker.sheet_totals", totals=body))
    return "\n".join(lines)


def sheet_picture(lang: str, view: JokerPublicView, names: Sequence[str]) -> Picture:
    """The score sheet as Georgian players keep it on paper, drawn on demand."""
    rows = view.sheet
    pulkas = view.pulkas
    winners = sorted(view.winners) if view.phase is Phase.OVER else []
    shown = [plain(n) for n in names]
    labels = SheetLabels(
        title=t(lang, "joker.picture_title"),
        pulka=t(lang, "joker.picture_pulka"),
        total=t(lang, "joker.picture_total"),
        khisht=t(lang, "joker.picture_khisht") if view.khisht else None,
        premium=t(lang, "joker.picture_premium"),
    )
    data = json.dumps(
        [
            lang,
            shown,
            [r.to_json() for r in rows],
            [p.to_json() for p in pulkas],
            winners,
            view.schedule,
            view.khisht,
        ],
        sort_keys=True,
    )
    key = "joker-sheet-" + hashlib.blake2b(data.encode(), digest_size=10).hexdigest()
    schedule = view.schedule

    def draw() -> bytes:
        return draw_sheet(shown, schedule, rows, pulkas, winners, labels)

    return Picture(key, draw)


class JokerScreens(GameScreens[JokerPublicView, JokerSeatView]):
    """Joker's screens (its score sheet too: a :class:`~screens.base.SheetScreens`)."""

    # --- the group's table ----------------------------------------------------

    def table(
        self, lang: str, view: JokerPublicView, names: Sequence[str], *, live: bool
    ) -> Screen:
        phase = view.phase
        sheet = view.sheet
        if phase is Phase.DEAL and not sheet:
            return Screen(self._draw_text(lang, view, names))
        lines = [_deal_line(lang, view)]
        if phase is Phase.DEAL:
            lines[0] = t(lang, "joker.deal_over", deal=sheet[-1].deal, deals=view.deals)
        else:
            dealer = names[view.dealer]
            lines.append(
                t(lang, "joker.dealer", name=dealer) + " · " + _trump_line(lang, view, names)
            )
        if phase in (Phase.BID, Phase.PLAY) and (total := _bids_sum(lang, view)):
            lines.append(total)
        lines.append("")
        turn = view.turn if live else None
        for seat, name in enumerate(names):
            total = number(view.totals[seat])
            bid = view.bids[seat]
            if phase in (Phase.DEAL, Phase.OVER) and sheet:
                row = sheet[-1]
                part = t(
                    lang,
                    "joker.player_done",
                    bid=_bid_phrase(lang, row.bids[seat]),
                    took=row.tricks[seat],
                    points=signed(row.points[seat]),
                )
            elif bid is None:
                part = t(lang, "joker.player_no_bid")
            elif phase is not Phase.PLAY:
                # Bidding still goes on: no trick is played yet, nothing taken to tell.
                part = t(lang, "joker.player_bid_only", bid=_bid_phrase(lang, bid))
            else:
                part = t(
                    lang,
                    "joker.player_bid",
                    bid=_bid_phrase(lang, bid),
                    took=view.tricks[seat],
                )
            line = f"{name} — {part} · {total}"
            if seat == turn and phase is not Phase.DEAL:
                line = f"▶️ <b>{line}</b>"
            elif seat == view.dealer and phase not in (Phase.DEAL, Phase.OVER):
                line = f"🂠 {line}"
            else:
                line = f"• {line}"
            lines.append(line)
        trick = _trick_line(lang, view, names)
        if trick:
            lines += ["", trick]
        if phase in (Phase.TRUMP, Phase.BID, Phase.PLAY) and sheet:
            # The deal before, in place of a group message after every deal.
            lines += ["", "<i>" + _deal_summary(lang, view, names) + "</i>"]
        if phase is Phase.DEAL and live:
            nxt = tn(lang, "joker.n_cards", view.cards)
            lines += [
                "",
                t(
                    lang,
                    "joker.next_deal",
                    deal=view.deal,
                    cards=nxt,
                    name=names[view.dealer],
                ),
            ]
        if phase is Phase.OVER:
            lines += ["", self._winner_line(lang, view, names)]
        return Screen("\n".join(lines))

    def _draw_text(self, lang: str, view: JokerPublicView, names: Sequence[str]) -> str:
        """Before the first deal: the draw for the first dealer."""
        lines = [t(lang, "joker.draw_title")]
        for entry in view.draw:
            if entry.seat is None:
                lines.append(t(lang, "joker.draw_middle", card=face(entry.card.code)))
            else:
                lines.append(f"• {names[entry.seat]}: {face(entry.card.code)}")
        lines += ["", t(lang, "joker.draw_dealer", name=names[view.dealer])]
        return "\n".join(lines)

    def _winner_line(self, lang: str, view: JokerPublicView, names: Sequence[str]) -> str:
        winners = sorted(view.winners)
        who = ", ".join(names[s] for s in winners)
        return t(lang, "joker.winner", name=who, points=number(view.totals[winners[0]]))

    def held(self, lang: str, views: Sequence[JokerSeatView], seat: int) -> str:
        view = views[seat]
        return " ".join(
            f"<b>{face(c.code)}</b>" if _is_trump(c, view.trump) else face(c.code)
            for c in view.hand
        )

    def turn(self, lang: str, view: JokerPublicView, names: Sequence[str]) -> str | None:
        phase, turn = view.phase, view.turn
        if turn is None or phase is Phase.OVER:
            return None
        name = names[turn]
        match phase:
            case Phase.DEAL:
                return t(lang, "joker.turn_deal", name=name)
            case Phase.TRUMP:
                return t(lang, "joker.turn_trump", name=name)
            case Phase.BID:
                return t(lang, "joker.turn_bid", name=name)
        return t(lang, "joker.turn_play", name=name)

    # --- a player's own screen ------------------------------------------------

    def hand(
        self,
        lang: str,
        view: JokerSeatView,
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
        *,
        live: bool,
    ) -> Screen:
        seat = view.seat
        phase = view.phase
        trump = view.trump
        lines: list[str] = []
        if phase is Phase.DEAL and view.sheet:
            lines.append(_deal_summary(lang, view, names))
            lines.append(t(lang, "joker.your_total", total=number(view.totals[seat])))
        elif phase is Phase.DEAL:
            lines.append(self._draw_text(lang, view, names))
        elif phase is Phase.OVER:
            lines.append(t(lang, "joker.your_total", total=number(view.totals[seat])))
        else:
            lines.append(_deal_line(lang, view))
            if phase is not Phase.TRUMP:
                # While it is named, the turn line (or the chooser's prompt) says
                # who names it: the table's "naming the trump" line would repeat it.
                lines.append(_trump_line(lang, view, names))
            if phase in (Phase.BID, Phase.PLAY):
                bids = " · ".join(
                    f"{names[s]} {_bid_text(lang, b)}" for s, b in enumerate(view.bids)
                )
                line = t(lang, "joker.bids", bids=bids)
                if total := _bids_sum(lang, view):
                    line += f" ({total})"
                lines.append(line)
            trick = _trick_line(lang, view, names)
            if trick:
                lines.append(trick)
            shown = " ".join(
                f"<b>{face(c.code)}</b>" if _is_trump(c, trump) else face(c.code) for c in view.hand
            )
            lines.append(t(lang, "joker.your_cards", cards=shown or "—"))
            if phase is Phase.PLAY:
                lines.append(
                    t(
                        lang,
                        "joker.your_bid",
                        bid=_bid_text(lang, view.bids[seat]),
                        took=view.tricks[seat],
                    )
                )
        if not actions:
            return Screen("\n".join(lines))
        prompt, keys = self._prompt_and_keys(lang, view, actions, focus)
        lines.append(f"<i>{prompt}</i>")
        return Screen("\n".join(lines), keys)

    def _prompt_and_keys(
        self, lang: str, view: JokerSeatView, actions: Sequence[Action], focus: str | None
    ) -> tuple[str, tuple[tuple[Key, ...], ...]]:
        first = actions[0]
        if isinstance(first, Deal):
            return t(lang, "joker.prompt_deal"), (
                (Key(t(lang, "joker.btn_deal"), first.encode()),),
            )
        if isinstance(first, ChooseTrump):
            keys = [
                Key(
                    t(lang, "joker.no_trump")
                    if a.suit is None
                    else f"{suit_symbol(a.suit.value)} {t(lang, f'suit.{a.suit.value}')}",
                    a.encode(),
                )
                for a in actions
                if isinstance(a, ChooseTrump)
            ]
            return t(lang, "joker.prompt_trump"), (*fit_rows(keys[:4], 2), *fit_rows(keys[4:]))
        if isinstance(first, Bid):
            bids = [a for a in actions if isinstance(a, Bid)]
            keys = [
                Key(t(lang, "joker.btn_pass") if a.tricks == 0 else str(a.tricks), a.encode())
                for a in bids
            ]
            prompt = t(lang, "joker.prompt_bid", cards=view.cards)
            forbidden = view.forbidden
            if forbidden is not None:
                prompt += "\n" + t(lang, "joker.forbidden", n=forbidden, cards=view.cards)
            return prompt, fit_rows(keys, 5)
        return self._play_keys(lang, view, actions, focus)

    def _play_keys(
        self, lang: str, view: JokerSeatView, actions: Sequence[Action], focus: str | None
    ) -> tuple[str, tuple[tuple[Key, ...], ...]]:
        trump = view.trump
        back = Key(t(lang, "joker.btn_back"), focus="back")
        leads = [a for a in actions if isinstance(a, LeadJoker)]
        follows = [a for a in actions if isinstance(a, FollowJoker)]
        if focus is not None and focus.startswith("j") and len(focus) >= 3:
            code = focus[1:3]
            mode = focus[3:]
            mine_leads = [a for a in leads if a.card.code == code]
            mine_follows = [a for a in follows if a.card.code == code]
            at_face = tuple(
                Key(
                    face(a.card.code) + " " + joker_word(lang, JokerMode.FACE, a.counts_as.suit),
                    a.encode(),
                )
                for a in actions
                if isinstance(a, FaceValue) and a.card.code == code
            )
            if mine_leads and mode in ("h", "t"):
                high = mode == "h"
                suits = [
                    Key(
                        t(
                            lang,
                            f"joker.lead_{'high' if high else 'takes'}",
                            suit=suit_symbol(a.suit.value),
                        ),
                        a.encode(),
                    )
                    for a in mine_leads
                    if a.high is high
                ]
                prompt = t(lang, "joker.prompt_lead_high" if high else "joker.prompt_lead_takes")
                return prompt, (*fit_rows(suits, 2), (back,))
            if mine_leads:
                modes = (
                    Key("🃏 " + t(lang, "joker.btn_high"), focus=f"j{code}h"),
                    Key("🃏 " + t(lang, "joker.btn_takes"), focus=f"j{code}t"),
                )
                rows = (*fit_rows(modes), *fit_rows(at_face), (back,))
                return t(lang, "joker.prompt_lead_joker"), rows
            if mine_follows:
                choices = tuple(
                    Key(
                        f"🃏 {t(lang, 'joker.follow_high' if a.high else 'joker.follow_low')}",
                        a.encode(),
                    )
                    for a in mine_follows
                )
                rows = (*fit_rows(choices), *fit_rows(at_face), (back,))
                return t(lang, "joker.prompt_follow_joker"), rows
            if at_face:
                return t(lang, "joker.prompt_face_value"), (*fit_rows(at_face), (back,))
        # One key per card, in the order of the hand.
        by_card: dict[Card, Key] = {}
        for a in actions:
            if isinstance(a, Play):
                code = a.card.code
                by_card[a.card] = Key(
                    face(code) + (TRUMP_MARK if _is_trump(a.card, trump) else ""), a.encode()
                )
            elif isinstance(a, LeadJoker | FollowJoker | FaceValue):
                by_card.setdefault(a.card, Key(face(a.card.code), focus="j" + a.card.code))
        # The cards that may not be played to this trick are shown, disabled.
        keys = [
            by_card.get(c) or Key(face(c.code) + (TRUMP_MARK if _is_trump(c, trump) else ""))
            for c in view.hand
        ]
        leading = not view.trick or view.trick_done
        prompt = t(lang, "joker.prompt_lead" if leading else "joker.prompt_follow")
        led = None if leading else view.trick[0]
        if led is not None and led.joker is JokerMode.HIGH and led.suit is not None:
            # «Хочу ♠»: his highest spade, which is why the others are disabled.
            prompt = t(lang, "joker.prompt_follow_want", suit=suit_symbol(led.suit.value))
        return prompt, fit_rows(keys)

    # --- what happened --------------------------------------------------------

    def move_name(self, lang: str, event: Event) -> str | None:
        match event.kind:
            case "bid" if isinstance(event.value, int):
                return _bid_phrase(lang, event.value)
            case "play" if event.cards:
                return _event_played(lang, event)
        return None

    def event(
        self, lang: str, event: Event, names: Sequence[str], viewer: int | None = None
    ) -> str | None:
        name = names[event.seat] if event.seat is not None else ""
        you = viewer is not None and event.seat == viewer
        # The DM of the seat concerned reads in the second person.
        own = "joker.ev_you_" if you else "joker.ev_"
        match event.kind:
            case "deal" if isinstance(event.value, int):
                return t(lang, own + "deal", deal=event.value, name=name)
            case "trump" if isinstance(event.value, str):
                card = faces(c.code for c in event.cards)
                return t(lang, "joker.ev_trump", trump=_suit(lang, event.value), card=card)
            case "trump_chosen" if isinstance(event.value, str):
                return t(lang, own + "trump_chosen", name=name, trump=_suit(lang, event.value))
            case "bid" if isinstance(event.value, int):
                return t(lang, own + "bid", name=name, bid=_bid_phrase(lang, event.value))
            case "play" if event.cards:
                return t(lang, own + "play", name=name, card=_event_played(lang, event))
            case "trick":
                return (
                    t(lang, "joker.ev_trick_you") if you else t(lang, "joker.ev_trick", name=name)
                )
            case "premium" | "struck" if isinstance(event.value, int):
                return t(lang, own + event.kind, name=name, points=signed(event.value))
            case "pulka_over" if isinstance(event.value, int):
                return t(lang, "joker.ev_pulka", pulka=event.value)
            case "resign":
                return t(lang, own + "resign", name=name)
        return None

    def table_key(self, lang: str, action: Action, view: JokerPublicView) -> str:
        raise ValueError(f"joker has no moves made on the table: {action!r}")

    announced_after: frozenset[str] = frozenset({"pulka_over"})
    round_opened_by: frozenset[str] = frozenset({"deal"})

    def announcements(
        self, lang: str, events: Sequence[Event], view: JokerPublicView, names: Sequence[str]
    ) -> list[Screen]:
        """After each pulka (but the last: the result has the final sheet) the
        score sheet, the deal's line leading its caption.  A deal's line is
        the table message's, until the next deal's is."""
        pulka = any(e.kind == "pulka_over" for e in events)
        if not pulka or not view.sheet or view.phase is Phase.OVER:
            return []
        line = _deal_summary(lang, view, names)
        text = f"{line}\n\n{sheet_text(lang, view, names)}"
        return [Screen(text, picture=sheet_picture(lang, view, names))]

    def sheet(self, lang: str, view: JokerPublicView, names: Sequence[str]) -> Screen | None:
        """The score sheet so far (``/sheet``); None before the first deal is played."""
        if not view.sheet:
            return None
        return Screen(sheet_text(lang, view, names), picture=sheet_picture(lang, view, names))

    def result(
        self, lang: str, outcome: Outcome, view: JokerPublicView, names: Sequence[str]
    ) -> Screen:
        lines = []
        if view.resigned is not None:
            lines.append(t(lang, "joker.result_resigned", name=names[view.resigned]))
        winners = ", ".join(names[s] for s in sorted(outcome.winners))
        totals = outcome.scores or view.totals
        lines.append(
            t(lang, "joker.result", name=winners, points=number(totals[min(outcome.winners)]))
        )
        if view.sheet:
            if view.resigned is None:
                # The last deal's line, as each pulka's sheet leads with its own.
                lines += ["", _deal_summary(lang, view, names)]
            lines += ["", sheet_text(lang, view, names)]
            return Screen("\n".join(lines), picture=sheet_picture(lang, view, names))
        return Screen("\n".join(lines))

    def own_result(
        self, lang: str, outcome: Outcome, view: JokerSeatView, names: Sequence[str]
    ) -> str:
        seat = view.seat
        totals = outcome.scores or view.totals
        points = number(totals[seat])
        if seat in outcome.winners:
            return t(lang, "joker.own_winner", points=points)
        place = next(i for i, group in enumerate(outcome.places, 1) if seat in group)
        return t(lang, "joker.own_place", place=place, n=len(names), points=points)

    def summary(self, lang: str, rules: Rules) -> str:
        assert isinstance(rules, JokerRules)
        parts = [t(lang, f"joker.summary.{rules.deals.value}")]
        if rules.minus:
            parts.append(t(lang, "joker.summary.minus"))
        else:
            parts.append(
                t(
                    lang,
                    "joker.summary.khisht",
                    khisht=t(lang, f"optval.joker.khisht.{rules.khisht.value}"),
                )
            )
        if rules.joker_lead_last:
            parts.append(t(lang, "joker.summary.joker_lead_last"))
        if rules.first_joker_wins:
            parts.append(t(lang, "joker.summary.first_joker_wins"))
        if rules.face_value:
            parts.append(t(lang, "joker.summary.face_value"))
        if rules.two_players:
            parts.append(t(lang, "joker.summary.two_players"))
        return " · ".join(parts)

    def score_line(self, lang: str, place: int, name: str, row: ScoreRow) -> str:
        return t(lang, "joker.score_row", place=place, name=name, played=row.played, wins=row.wins)

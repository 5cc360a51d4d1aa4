"""Durak on screen: the group's table, a seat's hand and its buttons."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.cards import Card, Rank, Suit
from games.core import Action, Event, Outcome, Rules
from games.durak.actions import (
    Attack,
    Beat,
    Believe,
    BlindAction,
    BlindBeat,
    BlindLead,
    BlindThrow,
    BlindTransfer,
    Cover,
    Doubt,
    NameTrump,
    Pass,
    Take,
    Throw,
    Transfer,
)
from games.durak.rules import Covers, DurakRules, FirstAttack, Shape, Transfers, Trump
from games.durak.state import Phase
from games.durak.views import DurakPublicView, DurakSeatView
from i18n import t, tn
from screens.base import GameScreens, Key, Screen, Tone
from screens.faces import face, faces, suit_symbol
from screens.rows import fit_rows
from services import ScoreRow

__all__ = ["DurakScreens"]

_VERDICT_KEYS = {"believe": "durak.btn_believe", "doubt": "durak.btn_doubt"}
"""Believe / don't believe: a verdict's key, which names it in an analysis."""

_TRANSFER_SUMMARY = {
    Transfers.NONE: "durak.summary.no_transfer",
    Transfers.TRANSFER: "durak.summary.transfer",
    Transfers.REFUSAL: "durak.summary.refusal",
}

TRUMP_MARK = "★"
"""Marks a trump on a button (buttons cannot be bold)."""


def _trump_line(lang: str, view: DurakPublicView) -> str:
    suit = suit_symbol(view.trump.value)
    shown = view.trump_card
    if view.phase is Phase.NAME:
        if shown is None and not view.blind:
            # No stock: the spade shown is the dealer's last card, known to all.
            spades = [c for c in view.known[view.dealer] if c.suit is Suit.SPADES]
            shown = spades[0] if len(spades) == 1 else None
        return t(lang, "durak.trump_to_name", card=face(shown.code) if shown else "♠")
    if shown is not None and shown.suit is not view.trump:  # a trump named over a spade
        return t(lang, "durak.trump_named_over", suit=suit, card=face(shown.code))
    if view.trump_card is not None:
        return t(lang, "durak.trump_card", card=face(view.trump_card.code), suit=suit)
    return t(lang, "durak.trump_suit", suit=suit)


FACE_DOWN = "🂠"
"""A card lying face down (believe / don't believe)."""


def _table_cards(view: DurakPublicView) -> str:
    """The bout's cards; the defender of believe / don't believe sees what he
    put face down (``my_covers``), the others a card's back."""
    mine = view.my_covers if isinstance(view, DurakSeatView) else ()
    pairs = []
    for row, own in zip(view.table, mine or (None,) * len(view.table), strict=True):
        attack = face(row.attack.code)
        if row.defense is not None:
            pairs.append(f"{attack} ← {face(row.defense.code)}")
        elif own is not None:
            pairs.append(f"{attack} ← {FACE_DOWN}{face(own.code)}")
        elif row.covered:
            pairs.append(f"{attack} ← {FACE_DOWN}")
        else:
            pairs.append(attack)
    return " · ".join(pairs)


def _in_order(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order an action's code lists them."""
    return sorted(cards, key=lambda card: card.order)


def _codes(cards: Iterable[Card]) -> str:
    return "".join(c.code for c in cards)


def _label(card: Card, trump: Suit) -> str:
    """A card on a button: its face, and a mark if it is a trump."""
    return face(card.code) + (TRUMP_MARK if card.suit is trump else "")


def _beat_label(cover: Card, attack: Card | None, trump: Suit) -> str:
    """A defender's card and what it covers (``?``: a menu of what it may
    cover), kept short to show whole two to a row: ``10♦️★→10♥️``."""
    return _label(cover, trump) + "→" + (face(attack.code) if attack else "?")


def _pass_label(lang: str, view: DurakSeatView) -> str:
    """A thrower's "no more": let the taker take, or call the bout beaten."""
    if view.taking:
        return t(lang, "durak.btn_pass_taking")
    if all(row.defense is not None for row in view.table):
        return t(lang, "durak.btn_done")
    return t(lang, "durak.btn_pass")


def _closing_rows(
    lang: str, view: DurakSeatView, actions: Sequence[Action]
) -> tuple[tuple[Key, ...], ...]:
    """The hand's last rows, under its cards: take, and the thrower's "no more"."""
    keys = []
    for a in actions:
        if isinstance(a, Take):
            keys.append(Key(t(lang, "durak.btn_take"), action=a.encode(), tone=Tone.GIVE_UP))
        elif isinstance(a, Pass):
            keys.append(Key(_pass_label(lang, view), action=a.encode(), tone=Tone.DONE))
    return fit_rows(keys)


def _team_line(lang: str, view: DurakSeatView, names: Sequence[str]) -> str | None:
    """Teams: who the seat's partners are, and who plays whose place."""
    seat = view.seat
    team = next((team for team in view.teams if seat in team), None)
    if team is None:
        return None
    partners = [s for s in team if s != seat]
    line = tn(lang, "durak.partners", len(partners), names=", ".join(names[s] for s in partners))
    for proxy in view.plays_for:
        if proxy.seat == seat:
            line += " · " + t(lang, "durak.partner_plays_for_you", name=names[proxy.partner])
        elif proxy.partner == seat:
            line += " · " + t(lang, "durak.you_play_for", name=names[proxy.seat])
    return line


class DurakScreens(GameScreens[DurakPublicView, DurakSeatView]):
    def table(
        self, lang: str, view: DurakPublicView, names: Sequence[str], *, live: bool
    ) -> Screen:
        lines = [
            _trump_line(lang, view),
            t(lang, "durak.stock", stock=view.stock, discard=view.discard),
            "",
            t(lang, "durak.on_table", cards=_table_cards(view))
            if view.table
            else t(lang, "durak.table_empty"),
            "",
        ]
        active = view.active
        left = set(view.left)
        to_move = view.to_move if live else frozenset()
        played_by = {proxy.seat: proxy.partner for proxy in view.plays_for}
        if view.teams:
            first, second = (", ".join(names[s] for s in team) for team in view.teams)
            lines[-1:-1] = ["", t(lang, "durak.teams", first=first, second=second)]
        for seat, name in enumerate(names):
            if seat == view.attacker:
                mark = "⚔️"
            elif seat == view.defender:
                mark = "🛡"
            elif seat in active:
                mark = "•"
            else:
                mark = "✓"
            line = f"{mark} {name} — {tn(lang, 'durak.n_cards', view.hands[seat])}"
            if view.known[seat] and not view.blind:
                # Cards everybody saw him pick up (or draw face up), as the
                # computers remember them; in blind durak he may not see his own.
                line += " · " + t(
                    lang, "durak.known_cards", cards=faces(c.code for c in view.known[seat])
                )
            if seat in left:
                line = f"🚪 {name} — {t(lang, 'durak.left')}"
            elif seat not in active and view.durak != seat:
                line = f"{mark} {name} — {t(lang, 'durak.out')}"
                if seat in played_by:
                    line += " · " + t(lang, "durak.played_by", name=names[played_by[seat]])
            if seat in to_move:
                line = f"<b>{line}</b> ⏳"
            lines.append(line)
        if view.durak is not None:
            lines += ["", t(lang, "durak.is_durak", name=names[view.durak])]
        elif view.losing_team is not None:
            losers = ", ".join(names[s] for s in view.teams[view.losing_team])
            lines += ["", t(lang, "durak.team_lost", names=losers)]
        elif view.draw:
            lines += ["", t(lang, "durak.draw")]
        elif live and (status := self.turn(lang, view, names)):
            lines += ["", status]
        return Screen("\n".join(lines))

    def turn(self, lang: str, view: DurakPublicView, names: Sequence[str]) -> str | None:
        if view.phase is Phase.NAME:
            viewer = view.seat if isinstance(view, DurakSeatView) else None
            if viewer == view.dealer:
                return t(lang, "durak.prompt_name_trump")
            return t(lang, "durak.status_naming", name=names[view.dealer])
        if view.defender is None or view.attacker is None:
            return None
        viewer = view.seat if isinstance(view, DurakSeatView) else None
        defender = names[view.defender]
        you_defend = viewer == view.defender
        if not view.table:
            if you_defend:
                return t(lang, "durak.status_attack_you", name=names[view.attacker])
            return t(lang, "durak.status_attack", name=names[view.attacker], target=defender)
        if view.taking:
            if you_defend:
                return t(lang, "durak.status_you_take")
            if viewer is not None:
                return t(lang, "durak.status_taking_dm", name=defender)
            return t(lang, "durak.status_taking", name=defender)
        if view.phase is Phase.VERDICT:
            key = "durak.status_verdict_you" if you_defend else "durak.status_verdict"
            return t(lang, key, name=names[view.attacker])
        if view.phase is Phase.DEFEND:
            if view.refusable and not you_defend:
                attacker = names[view.attacker]
                return t(lang, "durak.status_defend_or_refuse", name=defender, attacker=attacker)
            return t(lang, "durak.status_defend", name=defender)
        if you_defend:
            return t(lang, "durak.status_you_beat_all")
        if viewer is not None:
            return t(lang, "durak.status_throw_dm", name=defender)
        return t(lang, "durak.status_throw", name=defender)

    def out(self, lang: str, view: DurakSeatView, names: Sequence[str]) -> Screen | None:
        """A seat out of cards, or gone, while the others play on: the trump,
        who plays his place in teams, and that he waits for the end; nothing
        in it changes until the game ends."""
        seat = view.seat
        if seat in view.active:
            return None
        lines = [_trump_line(lang, view)]
        if view.refusable and seat == view.attacker and view.defender is not None:
            # His last cards may yet come back to him: not out yet.
            lines.append(t(lang, "durak.may_be_refused", name=names[view.defender]))
            return Screen("\n".join(lines))
        team = _team_line(lang, view, names)
        if team:
            lines.append(team)
        lines.append(t(lang, "durak.you_left" if seat in view.left else "durak.you_are_out"))
        return Screen("\n".join(lines))

    def hand(
        self,
        lang: str,
        view: DurakSeatView,
        actions: Sequence[Action],
        names: Sequence[str],
        focus: str | None,
        *,
        live: bool,
    ) -> Screen:
        trump = None if view.phase is Phase.NAME else view.trump  # no trump yet
        cards = " ".join(
            f"<b>{face(c.code)}</b>" if c.suit is trump else face(c.code) for c in view.hand
        ) or t(lang, "durak.no_cards")
        own = t(lang, "durak.your_cards", cards=cards)
        if view.blind:
            own = self._blind_hands(lang, view, names)
        team = _team_line(lang, view, names)
        if not actions:
            lines = [_trump_line(lang, view), own]
            if team:
                lines.append(team)
            return Screen("\n".join(lines))
        lines = [_trump_line(lang, view) + " · " + t(lang, "durak.stock_short", stock=view.stock)]
        if view.table:
            lines.append(t(lang, "durak.on_table", cards=_table_cards(view)))
        defender = view.defender
        if defender is not None and defender != view.seat:
            count = tn(lang, "durak.n_cards", view.hands[defender])
            lines.append(t(lang, "durak.defender_count", name=names[defender], cards=count))
        lines.append(own)
        if team:
            lines.append(team)
        lines.append(f"<i>{self._prompt(lang, view, actions, names)}</i>")
        return Screen("\n".join(lines), self._keys(lang, view, actions, focus))

    def held(self, lang: str, views: Sequence[DurakSeatView], seat: int) -> str:
        view = views[seat]
        cards = view.hand
        if view.blind:  # his own are backs to him, face up to everybody else
            cards = next((v.seen[seat] for v in views if v.seat != seat), ())
        trump = None if view.phase is Phase.NAME else view.trump
        return " ".join(
            f"<b>{face(c.code)}</b>" if c.suit is trump else face(c.code) for c in cards
        )

    @staticmethod
    def _blind_hands(lang: str, view: DurakSeatView, names: Sequence[str]) -> str:
        """Blind durak: one's own cards as numbered backs, everybody else's
        face up in the order of their positions."""
        seat = view.seat
        count = view.hands[seat]
        backs = " ".join(f"{FACE_DOWN}{i + 1}" for i in range(count))
        lines = [tn(lang, "durak.blind_own", count, backs=backs)]
        for other, seen in enumerate(view.seen):
            if other != seat and seen:
                cards = faces(c.code for c in seen)
                lines.append(t(lang, "durak.blind_seen", name=names[other], cards=cards))
        return "\n".join(lines)

    def _prompt(
        self, lang: str, view: DurakSeatView, actions: Sequence[Action], names: Sequence[str]
    ) -> str:
        if any(isinstance(a, NameTrump) for a in actions):
            return t(lang, "durak.prompt_name_trump")
        assert view.defender is not None  # a game with moves to make has a defender
        defender = names[view.defender]
        if any(isinstance(a, BlindBeat | BlindTransfer) for a in actions):
            return t(lang, "durak.prompt_blind_defend")
        if any(isinstance(a, BlindLead) for a in actions):
            return t(lang, "durak.prompt_blind_attack", name=defender)
        if any(isinstance(a, BlindThrow) for a in actions):
            return t(lang, "durak.prompt_blind_throw", name=defender)
        if any(isinstance(a, Attack) for a in actions):
            return t(lang, "durak.prompt_attack", name=defender)
        if any(isinstance(a, Believe) for a in actions):
            # One card covered is asked of as one, several as several.
            return tn(lang, "durak.prompt_verdict", len(view.table), name=defender)
        if any(isinstance(a, Cover) for a in actions):
            return t(lang, "durak.prompt_cover")
        if view.seat == view.defender:
            unbeaten = [row.attack.code for row in view.table if row.defense is None]
            refuse = any(isinstance(a, Transfer) for a in actions)
            if refuse and view.refusable and view.attacker is not None:
                attacker = names[view.attacker]
                if all(isinstance(a, Transfer | Take) for a in actions):
                    cards = faces(unbeaten)
                    return t(lang, "durak.nothing_to_beat_refuse", cards=cards, name=attacker)
                return t(lang, "durak.prompt_refuse", name=attacker)
            if all(isinstance(a, Take) for a in actions):
                return t(lang, "durak.nothing_to_beat", cards=faces(unbeaten))
            return t(lang, "durak.prompt_defend")
        if view.taking:
            return t(lang, "durak.prompt_throw_taking", name=defender)
        return t(lang, "durak.prompt_throw", name=defender)

    def _keys(
        self, lang: str, view: DurakSeatView, actions: Sequence[Action], focus: str | None
    ) -> tuple[tuple[Key, ...], ...]:
        trump = view.trump
        beats: dict[Card, list[Beat | Cover]] = {}
        for a in actions:
            if isinstance(a, Beat):
                beats.setdefault(a.cover, []).append(a)
            elif isinstance(a, Cover):
                beats.setdefault(a.card, []).append(a)
        names = [a for a in actions if isinstance(a, NameTrump)]
        if names:
            return fit_rows([Key(suit_symbol(a.suit.value), action=a.encode()) for a in names])
        menu = focus[1:] if focus is not None and focus.startswith("c") else None
        chosen = next((card for card in beats if card.code == menu), None)
        if chosen is not None:
            keys = [
                Key(_beat_label(chosen, a.attack, trump), action=a.encode()) for a in beats[chosen]
            ]
            return (*fit_rows(keys), (Key(t(lang, "durak.btn_back"), focus="back"),))
        if any(isinstance(a, BlindAction) for a in actions):
            return self._blind_keys(lang, view, actions, focus)
        verdict = [a for a in actions if isinstance(a, Believe | Doubt)]
        if verdict:
            labels = {"y": t(lang, "durak.btn_believe"), "n": t(lang, "durak.btn_doubt")}
            return fit_rows([Key(labels[a.encode()], action=a.encode()) for a in verdict])
        suit_leads = {
            a.encode(): a
            for a in actions
            if isinstance(a, Attack) and len({c.suit for c in a.cards}) == 1
        }
        composing = any(len({c.rank for c in a.cards}) > 1 for a in suit_leads.values())
        if composing and focus is not None and focus.startswith("s"):
            return self._compose(lang, view, suit_leads, focus[1:])

        # One key per card, in the order of the hand (trumps last), whatever it does.
        by_card: dict[Card, Key] = {}
        groups: list[Key] = []
        held_of_rank: dict[Rank, int] = {}
        for card in view.hand:
            held_of_rank[card.rank] = held_of_rank.get(card.rank, 0) + 1
        for a in actions:
            if isinstance(a, Attack):
                if len(a.cards) == 1:
                    card = a.cards[0]
                    by_card[card] = Key(_label(card, trump), action=a.encode())
                elif not composing and len(a.cards) == held_of_rank.get(a.cards[0].rank, 0):
                    label = " ".join(_label(c, trump) for c in a.cards)
                    groups.append(Key(label, action=a.encode()))
            elif isinstance(a, Throw):
                by_card[a.card] = Key("+" + _label(a.card, trump), action=a.encode())
            elif isinstance(a, Transfer):
                label = "↪ " + " ".join(_label(c, trump) for c in a.cards)
                groups.append(Key(label, action=a.encode()))
        if composing:
            groups.append(Key(t(lang, "durak.btn_several"), focus="s"))
        for cover, options in beats.items():
            if len(options) == 1:
                only = options[0]
                by_card[cover] = Key(_beat_label(cover, only.attack, trump), action=only.encode())
            else:
                by_card[cover] = Key(_beat_label(cover, None, trump), focus="c" + cover.code)
        # The cards that cannot be played now are shown too, disabled: the
        # hand reads as it is held, and no press of one is ever refused.
        card_keys = [by_card.get(card) or Key(_label(card, trump)) for card in view.hand]
        return (
            *fit_rows(card_keys),
            *fit_rows(groups, 3),
            *_closing_rows(lang, view, actions),
        )

    def _blind_keys(
        self, lang: str, view: DurakSeatView, actions: Sequence[Action], focus: str | None
    ) -> tuple[tuple[Key, ...], ...]:
        """Blind durak: a key per position (the card unseen).  A defender's
        position with more than one use (which attack card, or a transfer)
        opens a menu of them."""
        by_position: dict[int, list[BlindAction]] = {}
        for a in actions:
            if isinstance(a, BlindAction):
                by_position.setdefault(a.position, []).append(a)

        def label(a: BlindAction) -> str:
            back = f"{FACE_DOWN}{a.position + 1}"
            if isinstance(a, BlindBeat):
                return f"{back}→{face(a.attack.code)}"
            if isinstance(a, BlindTransfer):
                return f"↪ {back}"
            if isinstance(a, BlindThrow):
                return f"+{back}"
            return back

        chosen = focus[1:] if focus is not None and focus.startswith("p") else ""
        if chosen.isdigit() and int(chosen) in by_position:
            menu = [Key(label(a), action=a.encode()) for a in by_position[int(chosen)]]
            return (*fit_rows(menu), (Key(t(lang, "durak.btn_back"), focus="back"),))
        keys = []
        for position, options in sorted(by_position.items()):
            if len(options) == 1:
                keys.append(Key(label(options[0]), action=options[0].encode()))
            else:
                keys.append(Key(f"{FACE_DOWN}{position + 1}→?", focus=f"p{position}"))
        return (*fit_rows(keys), *_closing_rows(lang, view, actions))

    def _compose(
        self, lang: str, view: DurakSeatView, leads: Mapping[str, Attack], chosen: str
    ) -> tuple[tuple[Key, ...], ...]:
        """Akulina's lead of several cards of one suit: each key adds or removes
        a card (the screen's focus holds the codes of the cards chosen so far),
        and one key plays them."""
        trump = view.trump
        hand = view.hand
        codes = {chosen[i : i + 2] for i in range(0, len(chosen), 2)}
        picked = [card for card in hand if card.code in codes]
        suit = picked[0].suit if picked else None
        keys = []
        for card in hand:
            if suit is not None and card.suit is not suit:
                continue
            together = [c for c in hand if c in picked or c is card]
            if card not in picked and "a" + _codes(_in_order(together)) not in leads:
                continue  # no lead holds it with the cards chosen (too many)
            rest = [c for c in picked if c is not card] if card in picked else together
            mark = "☑️ " if card in picked else ""
            keys.append(Key(mark + _label(card, trump), focus="s" + _codes(rest)))
        rows = list(fit_rows(keys))
        lead = leads.get("a" + _codes(_in_order(picked))) if picked else None
        last = [Key(t(lang, "durak.btn_back"), focus="back")]
        if lead is not None:
            label = t(lang, "durak.btn_lead", cards=faces(c.code for c in lead.cards))
            last.insert(0, Key(label, action=lead.encode()))
        rows.extend(fit_rows(last))
        return tuple(rows)

    def move_name(self, lang: str, event: Event) -> str | None:
        if event.kind in _VERDICT_KEYS:
            return t(lang, "analysis.move_key", label=t(lang, _VERDICT_KEYS[event.kind]))
        return None

    def event(
        self, lang: str, event: Event, names: Sequence[str], viewer: int | None = None
    ) -> str | None:
        name = names[event.seat] if event.seat is not None else ""
        target = names[event.target] if event.target is not None else ""
        cards = faces(c.code for c in event.cards)
        mine = viewer is not None and event.seat == viewer
        at_me = viewer is not None and event.target == viewer
        # Second person in the DM of the seat that moved ("you_") or was moved
        # against ("at_you_"); the third person for everybody else.
        own = "durak.ev_you_" if mine else "durak.ev_at_you_" if at_me else "durak.ev_"
        match event.kind:
            case "attack" | "throw" | "transfer" | "refuse":
                return t(lang, own + event.kind, name=name, cards=cards, target=target)
            case "beat" if len(event.cards) == 2:
                attack, cover = (face(c.code) for c in event.cards)
                return t(lang, own + "beat", name=name, attack=attack, cover=cover)
            case "cover":
                return t(lang, own + "cover", name=name, attack=cards)
            case "wrong" if event.value in ("cover", "transfer"):
                return t(lang, f"{own}wrong_{event.value}", name=name, card=cards)
            case "wrong":
                return t(lang, own + "wrong_throw", name=name, card=cards)
            case "believe" | "doubt" | "take" | "out" | "resign":
                return t(lang, own + event.kind, name=name)
            case "reveal":
                pairs = [
                    f"{face(a.code)} ← {face(c.code)}"
                    for a, c in zip(event.cards[::2], event.cards[1::2], strict=True)
                ]
                key = "durak.ev_reveal_right" if event.value == "right" else "durak.ev_reveal_wrong"
                return t(lang, key, cards=" · ".join(pairs))
            case "bout_beaten":
                return t(lang, "durak.ev_beaten")
            case "trump_named" if isinstance(event.value, str):
                return t(lang, own + "trump_named", name=name, suit=suit_symbol(event.value))
            case "bout_taken":
                return tn(lang, own + "taken", len(event.cards), name=name, cards=cards)
            case "hand_over" if event.target is not None:
                return t(lang, own + "hand_over", name=name, seat=target)
        return None

    def table_key(self, lang: str, action: Action, view: DurakPublicView) -> str:
        raise ValueError(f"durak has no moves made on the table: {action!r}")

    announced_after: frozenset[str] = frozenset()
    round_opened_by: frozenset[str] = frozenset()

    def announcements(
        self, lang: str, events: Sequence[Event], view: DurakPublicView, names: Sequence[str]
    ) -> list[Screen]:
        return []

    def result(
        self, lang: str, outcome: Outcome, view: DurakPublicView, names: Sequence[str]
    ) -> Screen:
        if outcome.draw:
            return Screen(t(lang, "durak.result_draw"))
        losers = ", ".join(names[s] for s in sorted(outcome.losers))
        if view.teams:
            winners = ", ".join(names[s] for s in sorted(outcome.winners))
            return Screen(t(lang, "durak.result_teams", losers=losers, winners=winners))
        left = set(view.left)
        order = [
            names[s]
            for group in outcome.places
            for s in group
            if s not in outcome.losers and s not in left
        ]
        return Screen(t(lang, "durak.result", durak=losers, order=", ".join(order)))

    def own_result(
        self, lang: str, outcome: Outcome, view: DurakSeatView, names: Sequence[str]
    ) -> str:
        seat = view.seat
        if outcome.draw:
            return t(lang, "durak.own_draw")
        if view.teams:
            won = seat in outcome.winners
            return t(lang, "durak.own_team_won" if won else "durak.own_team_lost")
        if seat in outcome.losers:
            return t(lang, "durak.own_durak")
        if seat in view.left:
            durak = ", ".join(names[s] for s in sorted(outcome.losers))
            return t(lang, "durak.own_left", durak=durak)
        place = next(i for i, group in enumerate(outcome.places, 1) if seat in group)
        durak = ", ".join(names[s] for s in sorted(outcome.losers))
        return t(lang, "durak.own_place", durak=durak, place=place, n=len(names))

    def summary(self, lang: str, rules: Rules) -> str:
        assert isinstance(rules, DurakRules)
        cards = tn(lang, "durak.n_cards", rules.deck_size)
        parts = [cards]
        if rules.teams:
            parts.append(t(lang, "durak.summary.teams"))
        if rules.blind:
            parts.append(t(lang, "durak.summary.blind"))
        if rules.covers is Covers.FACE_DOWN:
            parts.append(t(lang, "durak.summary.believe"))
        if rules.shape is Shape.SUIT:
            parts.append(t(lang, "durak.summary.akulina"))
        if rules.trump is Trump.DIAMONDS:
            parts.append(t(lang, "durak.summary.diamonds"))
        elif rules.trump is Trump.TURNED_NO_SPADES:
            parts.append(t(lang, "durak.summary.diamonds_5a"))
        elif rules.trump is Trump.SPADE_PODKIDNOY:
            parts.append(t(lang, "durak.summary.diamonds_spade_podkidnoy"))
        elif rules.trump is Trump.SPADE_NAMED:
            parts.append(t(lang, "durak.summary.diamonds_spade_named"))
        if rules.applies("transfer"):
            parts.append(t(lang, _TRANSFER_SUMMARY[rules.transfer]))
        if rules.first_bout_five:
            parts.append(t(lang, "durak.summary.first_bout_five"))
        if rules.later_first_attack is FirstAttack.UNDER_LOSER:
            parts.append(t(lang, "durak.summary.under_loser"))
        return " · ".join(parts)

    def score_line(self, lang: str, place: int, name: str, row: ScoreRow) -> str:
        return tn(lang, "durak.score_row", row.losses, place=place, name=name, played=row.played)

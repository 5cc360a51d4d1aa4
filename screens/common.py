"""Texts shared by every game: names, the lobby, the table's frame, scores, help."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from games.core import Action, Rules
from games.spec import GameSpec
from i18n import LANGUAGES, t, tn
from screens.base import GameScreens, RuleDetails
from services import (
    MIN_GAMES,
    SCHEME_V2,
    Actor,
    Analysis,
    Comparison,
    EndReason,
    OnAbsence,
    ScoreRow,
    SeatRow,
    ServiceError,
    Setting,
    Snapshot,
    Standings,
    Status,
    TableRow,
    Verdict,
    win_share,
)

__all__ = [
    "COMMITMENT_SHOWN",
    "absence_label",
    "actor_mark",
    "analysis_text",
    "closed_lobby_text",
    "closed_text",
    "comparison_text",
    "computers_play",
    "deal_line",
    "duplicate_line",
    "duration",
    "game_and_preset",
    "game_title",
    "game_words",
    "help_text",
    "level_about",
    "level_label",
    "lobby_text",
    "luck_text",
    "move_toast",
    "names_of",
    "option_label",
    "options_summary",
    "preset_chooser_text",
    "rules_text",
    "scores_text",
    "seat_name",
    "seated_people",
    "setting_label",
    "settings_line",
    "stats_text",
    "turn_label",
    "variant_lines",
    "verdict_text",
]


_ACTOR_MARKS = {Actor.TIMER: "⏰ ", Actor.COMPUTER: "🤖 ", Actor.ADMIN: "⛔ "}


def actor_mark(table: TableRow, seat: int, actor: Actor) -> str:
    """The mark of a move nobody pressed for, for the line of the mover's own
    action (the group, a DM, a replay); no 🤖 beside a computer's own seat,
    whose name carries one."""
    if actor is Actor.COMPUTER and table.seats[seat].computer is not None:
        return ""
    return _ACTOR_MARKS.get(actor, "")


def seat_name(lang: str, seat: SeatRow) -> str:
    """A seat's display name, HTML-escaped; computers are marked as such."""
    if seat.computer is not None:
        return "🤖 " + t(lang, f"computer.name.{seat.computer}")
    return html.escape(seat.first_name or "?")


def names_of(lang: str, table: TableRow) -> list[str]:
    """Seat names, made unique ("Anna", "Anna (2)")."""
    names: list[str] = []
    for seat in table.seats:
        name = seat_name(lang, seat)
        if name in names:
            name = f"{name} ({seat.seat + 1})"
        names.append(name)
    return names


def seated_people(table: TableRow) -> str:
    """The people at a table as ``/kick`` names them: each first name, with
    the @username where he has one (``Вера (@vera), Борис``)."""
    return ", ".join(
        html.escape(s.first_name or "") + (f" (@{html.escape(s.username)})" if s.username else "")
        for s in table.seats
        if s.is_human
    )


def duration(lang: str, seconds: float) -> str:
    """``45 с``, ``2 мин``, ``1 мин 30 с``."""
    whole = max(round(seconds), 0)
    minutes, rest = divmod(whole, 60)
    if not minutes:
        return t(lang, "time.seconds", n=rest)
    if not rest:
        return t(lang, "time.minutes", n=minutes)
    return t(lang, "time.minutes_seconds", m=minutes, s=rest)


def _value(lang: str, spec: GameSpec, name: str, value: Any) -> str:
    if isinstance(value, bool):
        return t(lang, "common.yes" if value else "common.no")
    if isinstance(value, int):
        return str(value)
    raw = getattr(value, "value", value)
    return t(lang, f"optval.{spec.key}.{name}.{raw}")


def option_label(lang: str, spec: GameSpec, rules: Rules, name: str) -> str:
    """``Колода: 36``; a yes/no option as ``✅ Перевод`` or ``⬜ Перевод``."""
    title = t(lang, f"option.{spec.key}.{name}")
    value = getattr(rules, name)
    if isinstance(value, bool):
        return f"{'✅' if value else '⬜'} {title}"
    return f"{title}: {_value(lang, spec, name, value)}"


def turn_label(lang: str, seconds: int) -> str:
    value = duration(lang, seconds) if seconds else t(lang, "lobby.turn_off")
    return t(lang, "lobby.turn", time=value)


def absence_label(lang: str, on_absence: OnAbsence) -> str:
    return t(lang, "lobby.absence", what=t(lang, f"lobby.absence.{on_absence.value}"))


def level_label(lang: str, level: str) -> str:
    return t(lang, "lobby.level", what=t(lang, f"lobby.level.{level}"))


def level_about(lang: str, snapshot: Snapshot) -> str:
    """What the computers' level means at this table's game."""
    if not snapshot.levels_differ:
        return t(lang, "lobby.level.about.same")
    return t(lang, f"lobby.level.about.{snapshot.table.computer_level}")


def setting_label(lang: str, table: TableRow, setting: Setting) -> str:
    if setting is Setting.TURN:
        return turn_label(lang, table.turn_seconds)
    if setting is Setting.LEVEL:
        return level_label(lang, table.computer_level)
    return absence_label(lang, table.on_absence)


def computers_play(table: TableRow) -> bool:
    """Computers sit at the table, or stand in for absent players."""
    return table.has_computers or (
        bool(table.turn_seconds) and table.on_absence is OnAbsence.COMPUTER
    )


def options_summary(lang: str, spec: GameSpec, rules: Rules, table: TableRow | None) -> str:
    """Every option that matters, one per line, and the table's own settings
    when there is a table (``/rules``)."""
    lines = [
        "• " + option_label(lang, spec, rules, name)
        for name, _ in spec.rules.options()
        if rules.applies(name)
    ]
    if table is not None:
        lines.append("• " + settings_line(lang, table))
    return "\n".join(lines)


def settings_line(lang: str, table: TableRow, *, levels_differ: bool = True) -> str:
    """The table's own settings: the turn time, what absence does, and how
    strong computers play where they do (and where the level changes it)."""
    parts = [turn_label(lang, table.turn_seconds)]
    if table.turn_seconds:
        parts.append(absence_label(lang, table.on_absence))
    if computers_play(table) and levels_differ:
        parts.append(level_label(lang, table.computer_level))
    return "⏳ " + " · ".join(parts)


def game_title(lang: str, spec: GameSpec, rules: Rules) -> str:
    """``Дурак · подкидной``; rules changed by hand read as the variant they
    are based on: ``Дурак · подкидной, свои настройки``."""
    preset = spec.preset_name(rules)
    title = f"<b>{t(lang, spec.name_key)}</b>"
    if preset is not None:
        return f"{title} · {t(lang, f'preset.{spec.key}.{preset}')}"
    base = t(lang, f"preset.{spec.key}.{spec.based_on(rules)}")
    return f"{title} · {t(lang, 'lobby.custom_of', preset=base)}"


def _about(lang: str, spec: GameSpec, rules: Rules, *, changeable: bool) -> str:
    """The variant's one-line hint; for rules changed by hand, which variant
    they are based on, and where to change them while they still may be
    (``changeable``: a lobby)."""
    preset = spec.preset_name(rules)
    if preset is not None:
        return t(lang, f"about.{spec.key}.{preset}")
    base = t(lang, f"preset.{spec.key}.{spec.based_on(rules)}")
    return t(lang, "lobby.custom_about" if changeable else "rules.custom_about", preset=base)


def lobby_text(lang: str, snapshot: Snapshot, screens: GameScreens[Any, Any]) -> str:
    """The lobby: the game and variant in two lines, the table's settings, who sits."""
    table, spec, rules = snapshot.table, snapshot.spec, snapshot.rules
    about = _about(lang, spec, rules, changeable=table.status is Status.LOBBY)
    seats = spec.seat_range(rules)
    lines = [
        f"🃏 {game_title(lang, spec, rules)}",
        f"<i>{about}</i>",
        _sentence(screens.summary(lang, rules)),
        settings_line(lang, table, levels_differ=snapshot.levels_differ),
        *([f"<i>{level_about(lang, snapshot)}</i>"] if computers_play(table) else []),
        "",
        t(lang, "lobby.players", n=len(table.seats), max=seats[-1]) + (":" if table.seats else ""),
    ]
    names = names_of(lang, table)
    for seat, name in zip(table.seats, names, strict=True):
        creator = " 👑" if seat.user_id == table.creator_id else ""
        lines.append(f"{seat.seat + 1}. {name}{creator}")
    teams = spec.teams(rules, len(table.seats)) if len(table.seats) > 1 else ()
    if teams:
        lines.append("")
        for number, team in enumerate(teams, 1):
            members = ", ".join(names[s] for s in team)
            lines.append(t(lang, "lobby.team", n=number, names=members))
    lines.append("")
    if len(table.seats) < seats.start:
        lines.append(tn(lang, "lobby.need_more", seats.start - len(table.seats)))
    else:
        lines.append(t(lang, "lobby.can_start"))
    if table.seed_commitment is not None:
        shown = table.seed_commitment[:COMMITMENT_SHOWN]
        lines.append("")
        lines.append(tn(lang, "lobby.seed_commitment", len(table.contributions), commitment=shown))
    return "\n".join(lines)


def _sentence(line: str) -> str:
    """A game's summary (a run of its options, lower case as they read
    within a line) on a line of its own: its first letter capital, in the
    scripts that have capitals (Georgian has none in running text, where
    ``upper()`` would give a Mtavruli letter)."""
    first = line[:1]
    if "\u10a0" <= first <= "\u10ff":
        return line
    return first.upper() + line[1:]


def closed_text(lang: str, table: TableRow) -> str:
    """Why a table ended without a result: who cancelled it, or that
    everybody left its lobby, or why else it closed."""
    reason = table.end_reason or EndReason.CANCELLED
    if reason is EndReason.CANCELLED:
        if table.ended_by_name is not None:
            return t(lang, "table.closed.cancelled_by", name=html.escape(table.ended_by_name))
        if table.state is None and not any(s.user_id is not None for s in table.seats):
            return t(lang, "table.closed.deserted")  # the last person left the lobby
    return t(lang, f"table.closed.{reason.value}")


def left_text(lang: str, table: TableRow, name: str) -> str:
    """``/leave`` answered in the group: who left the lobby, or the running
    game, where a computer now plays the seat or the player is out of it (and
    the game over, if his leaving ended it: the result is posted first)."""
    if table.state is None:
        return t(lang, "lobby.left_name", name=name)
    if table.status is Status.FINISHED:
        return t(lang, "table.left.over", name=name)
    return t(lang, f"table.left.{table.on_absence.value}", name=name)


def closed_lobby_text(lang: str, snapshot: Snapshot) -> str:
    """A lobby closed before its game was dealt: the game, who sat there and
    why it closed, and nothing of who was still needed or how to start."""
    table, spec, rules = snapshot.table, snapshot.spec, snapshot.rules
    lines = [f"🃏 {game_title(lang, spec, rules)}", ""]
    if any(s.user_id is not None for s in table.seats):
        lines.append(t(lang, "lobby.players_were", n=len(table.seats)) + ":")
        lines += [
            f"{seat.seat + 1}. {name}"
            for seat, name in zip(table.seats, names_of(lang, table), strict=True)
        ]
        lines.append("")
    lines.append(closed_text(lang, table))
    return "\n".join(lines)


COMMITMENT_SHOWN = 16
"""Hex digits of a deal's commitment shown to players (64 bits: enough that
no other deal could be made to match it)."""


def verdict_text(lang: str, verdict: Verdict) -> str:
    """The answer to ``/verify``."""
    params = {
        "id": verdict.table_id,
        "seed": verdict.seed,
        "commitment": verdict.commitment[:COMMITMENT_SHOWN],
        "move": verdict.move,
    }
    if verdict.problem is not None:
        return t(lang, f"fair.bad_{verdict.problem}", **params)
    lines = [t(lang, "fair.ok", **params)]
    origin = verdict.duplicate_of
    if origin is not None:
        # A duplicate never had a lobby: its deal, seed and hash are those of
        # its set's first table, which it is proven by (services/fairness.py).
        lines.append(
            t(lang, "fair.duplicate", id=verdict.table_id, origin=origin, rotation=verdict.rotation)
        )
    if verdict.scheme == SCHEME_V2 and verdict.seed_commitment is not None:
        shown = verdict.seed_commitment[:COMMITMENT_SHOWN]
        mixed = len(verdict.contributions)
        if origin is None:
            lines.append(tn(lang, "fair.ok_mixed", mixed, commitment=shown))
        else:
            lines.append(tn(lang, "fair.ok_mixed_origin", mixed, commitment=shown, origin=origin))
    if verdict.moves:
        lines.append(tn(lang, "fair.ok_moves", verdict.moves))
    else:
        lines.append(t(lang, "fair.no_moves"))
    return "\n".join(lines)


def analysis_text(
    lang: str,
    analysis: Analysis,
    spec: GameSpec,
    screens: GameScreens[Any, Any],
    *,
    replay_link: Callable[[int], str] | None = None,
) -> str:
    """A person's analysis of his play (his DM): his costliest moves with the
    better ones and what they would have changed, and the luck of his cards.
    With ``replay_link`` (a move's number to the link that opens the replay
    at it) each move's number is that link: "Move 82" alone left him pressing
    ▶ 82 times."""
    table = analysis.table
    names = names_of(lang, table)
    seat = analysis.seat
    rules = spec.rules.from_json(table.rules)
    lines = [t(lang, "analysis.title", id=table.id, game=game_title(lang, spec, rules))]
    lines.append(tn(lang, "analysis.decisions", analysis.decisions))
    if analysis.mistakes:
        lines.append(t(lang, "analysis.costly"))
    else:
        lines.append(t(lang, "analysis.clean"))
    for number, mistake in enumerate(analysis.mistakes, 1):
        found = mistake.assessment
        view = mistake.view
        played = _move_text(lang, screens, view, mistake.played, mistake.played_action, names, seat)
        better = _move_text(lang, screens, view, mistake.better, mistake.better_action, names, seat)
        if found.in_points:
            gain = tn(lang, "analysis.points", max(1, round(found.best_value - found.played_value)))
            change = t(lang, "analysis.change_points", points=gain)
        else:
            # Two players: his chance of winning; more: his place on the luck
            # line's scale (1st 100, last 0), no chance of anything.
            key = "analysis.change_chance" if len(table.seats) == 2 else "analysis.change_place"
            change = t(
                lang,
                key,
                played=round(100 * found.played_value),
                better=round(100 * found.best_value),
            )
        move = t(lang, "analysis.at_move", move=mistake.move)
        if replay_link is not None:
            move = f'<a href="{html.escape(replay_link(mistake.move))}">{move}</a>'
        lines.append(
            t(
                lang,
                "analysis.mistake",
                n=number,
                move=move,
                played=played,
                better=better,
                change=change,
            )
        )
    if analysis.mistakes and replay_link is not None:
        lines.append(t(lang, "analysis.replay_hint"))
    lines.append(luck_text(lang, analysis))
    return "\n".join(lines)


LUCK_EVEN = 0.1
"""How far from the table's mean a seat's self-play value may be for its
cards to be called average."""


def luck_text(lang: str, analysis: Analysis) -> str:
    """What the luck figure is, said plainly: the computer played the deal
    for everybody so many times, and what it made of his cards on a scale of
    100 (in Durak for two: the share of games it won); then whether his cards
    were better or worse than the table's mean (by place, always a half: the
    figure itself says nothing about the others)."""
    key = "analysis.luck_points" if analysis.in_points else "analysis.luck"
    if analysis.rounds > 1:
        key = "analysis.luck_rounds"  # the mean over every deal of the game
    lead = analysis.luck - analysis.average
    verdict = "even" if abs(lead) <= LUCK_EVEN else "better" if lead > 0 else "worse"
    line = tn(
        lang,
        key,
        analysis.playouts,
        luck=round(100 * analysis.luck),
        rounds=analysis.rounds,
    )
    return f"{line} {t(lang, f'analysis.luck_{verdict}')}"


def _move_text(
    lang: str,
    screens: GameScreens[Any, Any],
    view: Any,
    events: Sequence[Any],
    action: Action,
    names: Sequence[str],
    seat: int,
) -> str:
    """A move as the seat's DM tells it ("you attack with 7♠"), or by its name
    where that line is no sentence ("7♠" for "You: 7♠"): its first event
    worth a line (what followed from it is not the move), else its key on the
    seat's screen (``view``) then ("Pass")."""
    for event in events:
        line = screens.move_name(lang, event) or screens.event(lang, event, names, seat)
        if line is not None:
            return line
    screen = screens.hand(lang, view, (action,), names, None, live=True)
    code = action.encode()
    keys = (k.label for row in screen.keys for k in row if k.action == code)
    label = next(keys, None)
    if label is None:
        return t(lang, "analysis.move_unnamed")
    return t(lang, "analysis.move_key", label=label)


TOAST_LENGTH = 200
"""The most characters of a press's answer (``answerCallbackQuery``'s text)."""
_TAG = re.compile(r"<[^>]*>")


def move_toast(lang: str, snapshot: Snapshot, screens: GameScreens[Any, Any]) -> str | None:
    """What the table's latest move did, in the lines the table message's log
    gives it, as plain text for the toast that answers the press that made it:
    the table message shows the move only when the group's budget lets its
    edit go, seconds later at people's pace.  None when no event of the move
    has a line."""
    names = names_of(lang, snapshot.table)
    moves = snapshot.table.moves
    lines = [
        html.unescape(_TAG.sub("", line))
        for logged in snapshot.recent
        if logged.move == moves and (line := screens.event(lang, logged.event, names))
    ]
    if not lines:
        return None
    text = " · ".join(lines)
    return text if len(text) <= TOAST_LENGTH else text[: TOAST_LENGTH - 1] + "…"


def duplicate_line(lang: str, table: TableRow) -> str:
    """What a duplicate's table message says it is: whose deal, and which game
    of its set."""
    return t(
        lang,
        "duplicate.line",
        origin=table.duplicate_of or table.id,
        game=table.rotation + 1,
        games=len(table.seats),
    )


def comparison_text(lang: str, comparison: Comparison) -> str:
    """A finished duplicate set: per hand what each person made of it, the
    totals and who did best with the same cards."""
    names = names_of(lang, comparison.first)
    lines = [t(lang, "duplicate.title", first=comparison.first.id)]
    for hand, results in enumerate(comparison.results):
        lines.append(t(lang, "duplicate.hand", seat=hand + 1, name=names[hand]))
        for person, result in enumerate(results):
            points = tn(lang, "duplicate.points", result.points)
            if result.score is None:
                line = t(lang, "duplicate.result", name=names[person], place=result.place)
            else:
                line = t(
                    lang,
                    "duplicate.result_score",
                    name=names[person],
                    place=result.place,
                    score=result.score,
                )
            lines.append(f"  {line}: {points}")
    totals = comparison.totals
    order = sorted(range(len(totals)), key=lambda p: -totals[p])
    summed = ", ".join(f"{names[p]} {tn(lang, 'duplicate.points', totals[p])}" for p in order)
    lines.append(t(lang, "duplicate.total", totals=summed))
    best = [names[p] for p in order if totals[p] == totals[order[0]]]
    if len(best) == len(totals):
        lines.append(t(lang, "duplicate.all_even"))
    else:
        lines.append(t(lang, "duplicate.best", names=", ".join(best)))
    lines.append(t(lang, "duplicate.points_rule"))
    return "\n".join(lines)


def deal_line(lang: str, table: TableRow) -> str | None:
    """The table message's line about its deal: the commitment while the game
    runs, the seed to check it with once it is over."""
    if table.commitment is None or table.seed is None:
        return None
    shown = table.commitment[:COMMITMENT_SHOWN]
    if table.status is Status.PLAYING:
        return t(lang, "table.commitment", commitment=shown)
    return t(lang, "table.revealed", commitment=shown, seed=table.seed, id=table.id)


def scores_text(
    lang: str,
    board: Mapping[str, Standings],
    specs: Mapping[str, GameSpec],
    screens: Mapping[str, GameScreens[Any, Any]],
) -> str:
    """``/scores``: per game the ranked players with their share of wins, then
    those with too few games yet, then how the places are decided."""
    if not board:
        return t(lang, "scores.empty")
    lines = [t(lang, "scores.title")]
    for game, standings in board.items():
        if game not in specs:
            continue  # a game no longer hosted
        lines += ["", f"<b>{t(lang, specs[game].name_key)}</b>"]
        for place, row in enumerate(standings.ranked, start=1):
            line = screens[game].score_line(lang, place, html.escape(row.first_name), row)
            lines.append(f"{line} · {round(100 * win_share(row))}%")
        if standings.newcomers:
            names = ", ".join(
                t(lang, "scores.newcomer", name=html.escape(r.first_name), n=r.played)
                for r in standings.newcomers
            )
            lines.append(tn(lang, "scores.newcomers", MIN_GAMES, names=names))
    lines += ["", tn(lang, "scores.how", MIN_GAMES), t(lang, "scores.people_only")]
    return "\n".join(lines)


def stats_text(
    lang: str, name: str, rows: Sequence[ScoreRow], specs: Mapping[str, GameSpec]
) -> str:
    if not rows:
        return t(lang, "stats.empty", name=html.escape(name))
    lines = [t(lang, "stats.title", name=html.escape(name))]
    for row in rows:
        game = t(lang, specs[row.game].name_key) if row.game in specs else row.game
        key = "stats.row_computers" if row.with_computers else "stats.row"
        # A game of three or more has places between its winners and its
        # losers (101's second of three, Joker's middle seats): counted, so
        # that the figures add up to the games played.
        between = row.played - row.wins - row.losses - row.draws
        lines.append(
            t(
                lang,
                f"{key}_between" if between > 0 else key,
                game=game,
                played=row.played,
                wins=row.wins,
                losses=row.losses,
                draws=row.draws,
                between=between,
            )
        )
    return "\n".join(lines)


def game_and_preset(
    lang: str, games: Mapping[str, GameSpec], words: Sequence[str]
) -> tuple[str, str | None]:
    """The game and variant that ``/newgame`` and ``/rules`` arguments name: by
    key, or by the name players know them by, in any language (``дурак
    переводной``, ``101 малая колода``), or by words of its name that no
    other variant's name has (``101 валет``).  A variant the game lacks is refused
    in ``lang``, with the game's name and its variants as players know them."""

    def names(key: str) -> set[str]:
        # "podkidnoy (throw-in)" is also "podkidnoy".
        full = {t(lang, key).lower() for lang in LANGUAGES}
        return {key} | full | {name.split(" (")[0] for name in full}

    word = words[0].lower()
    spec = next((s for s in games.values() if word in {s.key} | names(s.name_key)), None)
    if spec is None:
        raise ServiceError("error.unknown_game", game=html.escape(words[0]))
    if len(words) == 1:
        return spec.key, None
    wanted = _words(" ".join(words[1:]))
    named = {
        preset: {_words(n) for n in {preset} | names(f"preset.{spec.key}.{preset}")}
        for preset in spec.presets
    }
    for preset, known in named.items():
        if wanted in known:
            return spec.key, preset
    # Words that only one variant's name has name it: «валет» is «валет — козырь».
    partly = [p for p, known in named.items() if any(set(wanted) <= set(n) for n in known)]
    if len(partly) == 1:
        return spec.key, partly[0]
    raise ServiceError(
        "error.unknown_preset",
        preset=html.escape(" ".join(words[1:])),
        game=t(lang, spec.name_key),
        variants=", ".join(t(lang, f"preset.{spec.key}.{p}") for p in spec.presets),
    )


def _words(name: str) -> tuple[str, ...]:
    """A name's words as players may type them: any case, dashes and brackets
    not counted (``валет - козырь`` is ``валет — козырь``)."""
    return tuple(re.sub(r"[^\w]+", " ", name.casefold().replace("ё", "е")).split())


def variant_lines(lang: str, spec: GameSpec) -> list[str]:
    """Each variant of a game by its players' name, with its one-line hint."""
    lines = []
    for preset in spec.presets:
        name, hint = t(lang, f"preset.{spec.key}.{preset}"), t(lang, f"about.{spec.key}.{preset}")
        lines.append(f"• <b>{name}</b> — {hint}")
    return lines


def preset_chooser_text(lang: str, spec: GameSpec) -> str:
    """The /newgame chooser's second step: what each variant is, before choosing."""
    question = t(lang, "newgame.choose_preset", game=t(lang, spec.name_key))
    return "\n".join([question, "", *variant_lines(lang, spec)])


def help_text(lang: str, specs: Iterable[GameSpec]) -> str:
    """Every command, then every game and variant in the players' own words."""
    games: list[str] = []
    for spec in specs:
        games += ["", f"🃏 <b>{t(lang, spec.name_key)}</b>", *variant_lines(lang, spec)]
    return t(lang, "help.text", games="\n".join(games).strip(), min_games=MIN_GAMES)


def rules_text(
    lang: str,
    spec: GameSpec,
    screens: GameScreens[Any, Any],
    rules: Rules | None,
    table: TableRow | None = None,
) -> str:
    """``/rules``: the game's rules; with ``rules`` (a variant, or the table's
    rules), what it is and its options; with a ``table``, its own settings too."""
    if rules is None:
        lines = [f"<b>{t(lang, spec.name_key)}</b>", "", t(lang, f"rules.{spec.key}")]
        variants = t(lang, "rules.variants", game=t(lang, spec.name_key).lower())
        lines += ["", variants, *variant_lines(lang, spec)]
        return "\n".join(lines)
    in_lobby = table is not None and table.status is Status.LOBBY
    preset = spec.preset_name(rules)
    about = _about(lang, spec, rules, changeable=in_lobby)
    lines = [
        game_title(lang, spec, rules),
        f"<i>{about}</i>",
        _sentence(screens.summary(lang, rules)),
    ]
    if isinstance(screens, RuleDetails):
        lines += [f"• {detail}" for detail in screens.details(lang, rules)]
    # The game's general rules are those of its usual game; the variant's
    # differences (its hint and summary above, its options below) override
    # them, and the heading says so.
    if preset is None:
        general = t(lang, "rules.general_custom")
    else:
        general = t(lang, "rules.general", variant=t(lang, f"preset.{spec.key}.{preset}"))
    lines += ["", general, t(lang, f"rules.{spec.key}"), ""]
    if table is None:
        lines.append(t(lang, "rules.this_variant"))
    elif table.is_open:
        lines.append(t(lang, "rules.this_table"))
    else:
        lines.append(t(lang, "rules.last_table", id=table.id))
    lines.append(options_summary(lang, spec, rules, table))
    return "\n".join(lines)


def game_words(lang: str, specs: Iterable[GameSpec]) -> str:
    """The games as players name them, for a usage line."""
    return ", ".join(t(lang, spec.name_key).lower() for spec in specs)

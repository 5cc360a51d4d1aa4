"""Opening a table, seating people and computers, options, starting, rematches.

Every change is one unit of work of the table service
(:meth:`services.tables.Tables.change`): under the table's lock, in one
transaction, ending with its observers told (the Telegram layer repaints the
lobby).  A lobby nobody touches for :data:`~services.turns.LOBBY_TIMEOUT`
closes by itself (the unit of work renews its deadline).
"""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Callable
from typing import Any

from games.core import Rules, RulesError
from games.spec import GameSpec, UnknownPreset
from players.levels import Level
from services.directory import Person
from services.errors import ServiceError
from services.fairness import SCHEME_V2, mixed_seed, new_server_seed, press, word
from services.snapshots import Snapshot, Snapshots
from services.table_change import TableChange
from services.tables import Tables
from storage import OnAbsence, Status, TableRow

__all__ = [
    "COMPUTER_NAMES",
    "DEFAULT_TURN_SECONDS",
    "TURN_SECONDS",
    "Lobby",
    "Setting",
]

TURN_SECONDS = (30, 60, 120, 300, 0)
"""Turn time choices in the lobby, in the order its button cycles through
them: from the shortest up, then none (0: no timer), then round again."""
DEFAULT_TURN_SECONDS = 60
"""A new table's turn time (one of :data:`TURN_SECONDS`)."""
LEVELS = (Level.HARD, Level.NORMAL, Level.EASY)
"""How strong computers play, the default first."""
COMPUTER_NAMES = 8
"""Computer players are named by number (1..8), each name a text of the catalogs."""


class Setting(enum.StrEnum):
    """The table's own lobby settings, beside the game's options."""

    TURN = "turn"
    ABSENCE = "absence"
    LEVEL = "level"


def _next(choices: tuple[Any, ...], current: Any) -> Any:
    position = choices.index(current) if current in choices else -1
    return choices[(position + 1) % len(choices)]


class _Started(Exception):
    """The table :meth:`Lobby.leave` was asked to leave is a running game."""


class Lobby:
    def __init__(
        self,
        tables: Tables,
        snapshots: Snapshots,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        """Deals are nobody's choice (:mod:`services.fairness`, scheme v2): the
        bot's seed is committed when a table opens and mixed with the players'
        contributions at the start.  ``seeds`` is for tests whose deals must
        repeat: each game is then dealt from the seed it gives, the first
        scheme's way (a seed drawn at the start, the deal committed)."""
        self._tables = tables
        self._snapshots = snapshots
        self._fixed_seeds = seeds
        self._shuffler = random.SystemRandom()

    # --- creating ---------------------------------------------------------------

    async def create(
        self,
        chat_id: int,
        thread_id: int,
        creator: Person,
        game_key: str,
        preset: str | None = None,
    ) -> Snapshot:
        """Open a lobby, the creator seated (whether or not he has opened the
        bot: his hands can come to him in the group)."""
        spec = self._snapshots.spec(game_key)
        try:
            rules = spec.preset(preset)
        except UnknownPreset:
            raise ServiceError("error.unknown_preset", preset=preset or "", game=game_key) from None
        async with self._tables.open(
            chat_id,
            thread_id,
            spec.key,
            rules.to_json(),
            creator.id,
            turn_seconds=DEFAULT_TURN_SECONDS,
            on_absence=OnAbsence.COMPUTER,
            computer_level=LEVELS[0],
        ) as change:
            await self._commit_seed(change)
            await change.seat_person(creator.id)
        return change.snapshot

    async def rematch(self, table_id: int, person: Person, press_id: str | None = None) -> Snapshot:
        """A new lobby with the same game, options, settings and players (but
        those who had left the game: :meth:`TableChange.gone_from`); once
        somebody has opened it, a player of the old game pressing "rematch"
        again sits down at it (``press_id``: his press, mixed into the seed
        as a join's is)."""
        old = await self._snapshots.table(table_id)
        if old.status is not Status.FINISHED:
            raise ServiceError("error.not_finished")
        if old.seat_of(person.id) is None:
            raise ServiceError("error.not_seated")
        opened = await self._snapshots.snapshot_in(old.chat_id, old.thread_id)
        if opened is not None and opened.table.previous_id == old.id:
            if opened.table.seat_of(person.id) is not None:
                raise ServiceError("error.already_in_rematch")
            return await self.join(opened.table.id, person, press_id)
        async with self._tables.open(
            old.chat_id,
            old.thread_id,
            old.game,
            old.rules,
            person.id,
            turn_seconds=old.turn_seconds,
            on_absence=old.on_absence,
            computer_level=old.computer_level,
            previous_id=old.id,
        ) as change:
            await self._commit_seed(change)
            # Who had left the game is not sat down again: the new game would
            # wait on him (he sits down as anybody does, by a press of his own).
            gone = await change.gone_from(old)
            for seat in old.seats:
                if seat.user_id is None:
                    assert seat.computer is not None
                    await change.seat_computer(seat.computer)
                elif seat.user_id == person.id or seat.seat not in gone:
                    await change.seat_person(seat.user_id)
        return change.snapshot

    # --- seating ----------------------------------------------------------------

    async def join(self, table_id: int, person: Person, press_id: str | None = None) -> Snapshot:
        """Sit down (no private chat with the bot needed: a person who has none
        gets his hands in the group); ``press_id``, Telegram's id of the press
        that seated him (a button), is mixed into the deal's seed."""
        async with self._tables.change(table_id) as change:
            table = change.table
            self._in_lobby(table)
            if table.seat_of(person.id) is not None:
                raise ServiceError("error.already_seated")
            self._room_for_one_more(table)
            await change.seat_person(person.id)
            if press_id is not None:
                await change.contribute(press(press_id))
            await change.update()
        return change.snapshot

    async def leave(self, table_id: int, person: Person) -> Snapshot:
        """Leave a lobby.  A leaving creator hands the table to the next person
        seated; a lobby left with no person in it closes.  A running game is
        left as by an absent player (:meth:`Tables.leave`), also one started
        as he asked."""
        try:
            async with self._tables.change(table_id) as change:
                table = change.table
                if table.status is Status.PLAYING:
                    raise _Started  # nothing written, nobody told
                if table.status is not Status.LOBBY:
                    raise ServiceError("error.leave_after_start")
                seat = table.seat_of(person.id)
                if seat is None:
                    raise ServiceError("error.not_seated")
                await change.unseat_person(seat)
        except _Started:
            return await self._tables.leave(table_id, person.id)
        return change.snapshot

    async def add_computer(self, table_id: int, person: Person) -> Snapshot:
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_lobby(table, person)
            self._room_for_one_more(table)
            taken = {s.computer for s in table.seats}
            name = next(n for n in range(1, COMPUTER_NAMES + 1) if n not in taken)
            await change.seat_computer(name)
            await change.update()
        return change.snapshot

    async def remove_computer(self, table_id: int, person: Person) -> Snapshot:
        """Remove the computer seated last."""
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_lobby(table, person)
            computers = [s for s in table.seats if s.user_id is None]
            if not computers:
                raise ServiceError("error.no_computer")
            await change.unseat(computers[-1].seat)
            await change.update()
        return change.snapshot

    # --- teams ------------------------------------------------------------------

    async def shuffle_teams(self, table_id: int, person: Person) -> Snapshot:
        """Seat everybody again at random, so the teams are drawn anew."""
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_teams(table, person)
            order = list(range(len(table.seats)))
            self._shuffler.shuffle(order)
            await change.reorder(order)
            await change.update()
        return change.snapshot

    async def switch_team(self, table_id: int, person: Person, seat: int) -> Snapshot:
        """Move the player at ``seat`` to the other team: he changes places
        with the player after him, who sits in it (teams sit alternately)."""
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_teams(table, person)
            n = len(table.seats)
            if not 0 <= seat < n:
                raise ServiceError("error.bad_button")
            order = list(range(n))
            other = (seat + 1) % n
            order[seat], order[other] = other, seat
            await change.reorder(order)
            await change.update()
        return change.snapshot

    def _creator_teams(self, table: TableRow, person: Person) -> None:
        self._creator_lobby(table, person)
        spec = self._snapshots.spec(table.game)
        rules = self._snapshots.rules_of(table)
        if len(table.seats) < 2 or not spec.teams(rules, len(table.seats)):
            raise ServiceError("error.no_teams")

    # --- options ----------------------------------------------------------------

    def check_creator(self, snapshot: Snapshot, person: Person) -> None:
        """Only the creator of a lobby changes its options."""
        self._creator_lobby(snapshot.table, person)

    async def cycle_option(self, table_id: int, person: Person, name: str) -> Snapshot:
        """Move the game option ``name`` to its next value that the rest allow."""
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_lobby(table, person)
            spec = self._snapshots.spec(table.game)
            choices = dict(spec.rules.options()).get(name)
            if choices is None:
                raise ServiceError("error.bad_button")
            rules = self._snapshots.rules_of(table)
            current = getattr(rules, name)
            for _ in choices:
                current = _next(choices, current)
                try:
                    new_rules = rules.replace(**{name: current})
                except RulesError:
                    continue
                break
            else:
                raise ServiceError("error.bad_button")
            await self._save_rules(change, spec, new_rules)
        return change.snapshot

    async def cycle_preset(self, table_id: int, person: Person) -> Snapshot:
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_lobby(table, person)
            spec = self._snapshots.spec(table.game)
            current = spec.preset_name(self._snapshots.rules_of(table))
            # Presets the players seated do not fit (Akulina for five) are passed over.
            names = [
                name
                for name, rules in spec.presets.items()
                if name == current or len(table.seats) <= spec.seat_range(rules)[-1]
            ]
            await self._save_rules(change, spec, spec.presets[_next(tuple(names), current)])
        return change.snapshot

    async def cycle_setting(self, table_id: int, person: Person, setting: Setting) -> Snapshot:
        async with self._tables.change(table_id) as change:
            table = change.table
            self._creator_lobby(table, person)
            if setting is Setting.TURN:
                turn = _next(TURN_SECONDS, table.turn_seconds)
                await change.update(turn_seconds=turn)
            elif setting is Setting.LEVEL:
                if not self._snapshots.levels_differ(table.game):
                    raise ServiceError("error.bad_button")  # a choice that changes nothing
                level = _next(LEVELS, table.computer_level)
                await change.update(computer_level=level)
            else:
                absence = _next(tuple(OnAbsence), table.on_absence)
                await change.update(on_absence=absence)
        return change.snapshot

    @staticmethod
    async def _save_rules(change: TableChange, spec: GameSpec, rules: Rules) -> None:
        seats = spec.seat_range(rules)
        if len(change.table.seats) > seats[-1]:
            raise ServiceError("error.too_many_for_option", n=seats[-1])
        await change.update(rules=rules.to_json())

    # --- starting ---------------------------------------------------------------

    async def salt(self, table_id: int, person: Person, text: str) -> Snapshot:
        """A seated player's word, mixed into the deal's seed."""
        text = " ".join(text.split())
        if not text:
            raise ServiceError("salt.usage")
        async with self._tables.change(table_id) as change:
            table = change.table
            if table.status is not Status.LOBBY:
                raise ServiceError("salt.dealt")  # the seed is fixed, not the seats
            if table.seat_of(person.id) is None:
                raise ServiceError("error.not_seated")
            if not await change.contribute(word(person.id, text)):
                raise ServiceError("salt.not_kept")
            await change.update()
        return change.snapshot

    async def start(
        self, table_id: int, person: Person, *, is_admin: bool, press_id: str | None = None
    ) -> Snapshot:
        """Deal and start; ``press_id``, Telegram's id of the press that started
        it (a button), is the last contribution mixed into the seed."""
        async with self._tables.change(table_id) as change:
            table = change.table
            if table.status is not Status.LOBBY:
                raise ServiceError("error.not_in_lobby")
            if person.id != table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_starts")
            spec = self._snapshots.spec(table.game)
            rules = self._snapshots.rules_of(table)
            seats = spec.seat_range(rules)
            if len(table.seats) < seats.start:
                raise ServiceError("error.not_enough_players", n=seats.start)
            if len(table.seats) > seats[-1]:
                raise ServiceError("error.too_many_for_option", n=seats[-1])
            if len(table.seats) not in seats:
                counts = ", ".join(str(n) for n in seats)
                raise ServiceError("error.seat_counts", counts=counts)
            if not any(s.user_id is not None for s in table.seats):
                raise ServiceError("error.no_people")
            await self._deal(change, press_id)
        return change.snapshot

    # --- the seed (services.fairness) ------------------------------------------

    async def _commit_seed(self, change: TableChange) -> None:
        if self._fixed_seeds is None:
            await change.commit_server_seed(new_server_seed())

    async def _deal(self, change: TableChange, press_id: str | None) -> None:
        table = change.table
        if self._fixed_seeds is not None:
            await change.deal(self._fixed_seeds())
        elif table.scheme == SCHEME_V2 and table.server_seed is not None:
            contributions = table.contributions
            if press_id is not None and await change.contribute(press(press_id)):
                contributions = (*contributions, press(press_id))
            await change.deal(mixed_seed(table.server_seed, contributions), SCHEME_V2)
        else:  # a lobby opened before the bot committed to its seeds
            await change.deal(secrets.randbits(63))

    # --- helpers ----------------------------------------------------------------

    @staticmethod
    def _in_lobby(table: TableRow) -> None:
        if table.status is not Status.LOBBY:
            raise ServiceError("error.not_in_lobby")

    def _room_for_one_more(self, table: TableRow) -> None:
        most = self._snapshots.spec(table.game).seat_range(self._snapshots.rules_of(table))[-1]
        if len(table.seats) >= most:
            raise ServiceError("error.table_full", n=most)

    def _creator_lobby(self, table: TableRow, person: Person) -> None:
        self._in_lobby(table)
        if person.id != table.creator_id:
            raise ServiceError("error.only_creator_options")

"""Opening a table, seating people and computers, options, starting, rematches.

Every change goes through the table service's lock and ends with its observers
told (the Telegram layer repaints the lobby).  A lobby nobody touches for
:data:`~services.turns.LOBBY_TIMEOUT` closes by itself.
"""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from games.core import Rules, RulesError
from games.spec import GameSpec, UnknownPreset
from players.levels import Level
from services.directory import Directory, Person
from services.errors import ServiceError
from services.fairness import commitment, deal
from services.tables import Snapshot, Tables
from storage import (
    Database,
    EndReason,
    OnAbsence,
    Status,
    TableExistsError,
    TableRow,
    Tx,
)

__all__ = [
    "COMPUTER_NAMES",
    "TURN_SECONDS",
    "JoinResult",
    "Lobby",
    "Setting",
]

TURN_SECONDS = (60, 0, 30, 120, 300)
"""Turn time choices in the lobby, the default first (0: no timer)."""
LEVELS = (Level.HARD, Level.NORMAL, Level.EASY)
"""How strong computers play, the default first."""
COMPUTER_NAMES = 8
"""Computer players are named by number (1..8), each name a text of the catalogs."""


class Setting(enum.StrEnum):
    """The table's own lobby settings, beside the game's options."""

    TURN = "turn"
    ABSENCE = "absence"
    LEVEL = "level"


@dataclass(frozen=True, slots=True)
class JoinResult:
    snapshot: Snapshot
    needs_dm: bool
    """The user cannot be messaged yet: send him to the bot by deep link."""


def _next(choices: tuple[Any, ...], current: Any) -> Any:
    position = choices.index(current) if current in choices else -1
    return choices[(position + 1) % len(choices)]


def _secure_seed() -> int:
    return secrets.randbits(63)


class Lobby:
    def __init__(
        self,
        db: Database,
        tables: Tables,
        directory: Directory,
        seeds: Callable[[], int] = _secure_seed,
    ) -> None:
        """``directory`` tells whether the bot can message a person (a game with
        private hands seats only those); ``seeds`` gives each game's shuffle
        seed: the operating system's secure random source, unless a test needs
        its deals to repeat."""
        self._db = db
        self._tables = tables
        self._directory = directory
        self._seeds = seeds
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
        """Open a lobby; the creator is seated if he can play from here."""
        spec = self._tables.spec(game_key)
        try:
            rules = spec.preset(preset)
        except UnknownPreset:
            raise ServiceError("error.unknown_preset", preset=preset or "", game=game_key) from None
        creator_dm_ok = await self._directory.dm_ok(creator.id)
        async with self._db.transaction() as tx:
            try:
                table_id = await tx.tables.create(
                    chat_id,
                    thread_id,
                    spec.key,
                    rules.to_json(),
                    creator.id,
                    turn_seconds=TURN_SECONDS[0],
                    on_absence=OnAbsence.COMPUTER,
                    computer_level=LEVELS[0],
                )
            except TableExistsError:
                raise ServiceError("error.table_exists") from None
            if creator_dm_ok or not spec.private_hands:
                await tx.tables.add_seat(table_id, user_id=creator.id)
            await self._rearm(tx, table_id)
        return await self._tables.changed(table_id)

    async def rematch(self, table_id: int, person: Person) -> Snapshot:
        """A new lobby with the same game, options, settings and players; once
        somebody has opened it, a player of the old game pressing "rematch"
        again sits down at it."""
        async with self._db.transaction() as tx:
            old = await self._tables.get(tx, table_id)
            if old.status is not Status.FINISHED:
                raise ServiceError("error.not_finished")
            if old.seat_of(person.id) is None:
                raise ServiceError("error.not_seated")
            opened = await tx.tables.open_in(old.chat_id, old.thread_id)
            if opened is not None and opened.previous_id == old.id:
                if opened.seat_of(person.id) is not None:
                    raise ServiceError("error.already_in_rematch")
                again = opened.id
            else:
                again = None
        if again is not None:
            return (await self.join(again, person)).snapshot
        async with self._db.transaction() as tx:
            private = self._tables.spec(old.game).private_hands
            try:
                new_id = await tx.tables.create(
                    old.chat_id,
                    old.thread_id,
                    old.game,
                    old.rules,
                    person.id,
                    turn_seconds=old.turn_seconds,
                    on_absence=old.on_absence,
                    computer_level=old.computer_level,
                    previous_id=old.id,
                )
            except TableExistsError:
                raise ServiceError("error.table_exists") from None
            for seat in old.seats:
                if seat.user_id is None:
                    await tx.tables.add_seat(new_id, computer=seat.computer)
                elif seat.dm_ok or not private:
                    await tx.tables.add_seat(new_id, user_id=seat.user_id)
            await self._rearm(tx, new_id)
        return await self._tables.changed(new_id)

    # --- seating ----------------------------------------------------------------

    async def join(self, table_id: int, person: Person) -> JoinResult:
        needs_dm = False
        dm_ok = await self._directory.dm_ok(person.id)

        async def work(tx: Tx, table: TableRow) -> None:
            nonlocal needs_dm
            self._in_lobby(table)
            if table.seat_of(person.id) is not None:
                raise ServiceError("error.already_seated")
            if not dm_ok and self._tables.spec(table.game).private_hands:
                needs_dm = True
                return
            self._room_for_one_more(table)
            await tx.tables.add_seat(table.id, user_id=person.id)
            await tx.tables.update(table.id, table.version)

        snapshot = await self._change(table_id, work)
        return JoinResult(snapshot, needs_dm)

    async def leave(self, table_id: int, person: Person) -> Snapshot:
        """Leave a lobby.  A leaving creator hands the table to the next person
        seated; a lobby left with no person in it closes."""

        async def work(tx: Tx, table: TableRow) -> None:
            if table.status is not Status.LOBBY:
                raise ServiceError("error.leave_after_start")
            seat = table.seat_of(person.id)
            if seat is None:
                raise ServiceError("error.not_seated")
            await tx.tables.remove_seat(table.id, seat)
            people = [s for s in table.seats if s.user_id is not None and s.seat != seat]
            if not people:
                await self._tables.close(tx, table, EndReason.CANCELLED)
                return
            creator = table.creator_id
            if creator == person.id:
                creator = people[0].user_id  # type: ignore[assignment]
            await tx.tables.update(table.id, table.version, creator_id=creator)

        return await self._change(table_id, work)

    async def add_computer(self, table_id: int, person: Person) -> Snapshot:
        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_lobby(table, person)
            self._room_for_one_more(table)
            taken = {s.computer for s in table.seats}
            name = next(n for n in range(1, COMPUTER_NAMES + 1) if n not in taken)
            await tx.tables.add_seat(table.id, computer=name)
            await tx.tables.update(table.id, table.version)

        return await self._change(table_id, work)

    async def remove_computer(self, table_id: int, person: Person) -> Snapshot:
        """Remove the computer seated last."""

        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_lobby(table, person)
            computers = [s for s in table.seats if s.user_id is None]
            if not computers:
                raise ServiceError("error.no_computer")
            await tx.tables.remove_seat(table.id, computers[-1].seat)
            await tx.tables.update(table.id, table.version)

        return await self._change(table_id, work)

    # --- teams ------------------------------------------------------------------

    async def shuffle_teams(self, table_id: int, person: Person) -> Snapshot:
        """Seat everybody again at random, so the teams are drawn anew."""

        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_teams(table, person)
            order = list(range(len(table.seats)))
            self._shuffler.shuffle(order)
            await tx.tables.reorder_seats(table.id, order)
            await tx.tables.update(table.id, table.version)

        return await self._change(table_id, work)

    async def switch_team(self, table_id: int, person: Person, seat: int) -> Snapshot:
        """Move the player at ``seat`` to the other team: he changes places
        with the player after him, who sits in it (teams sit alternately)."""

        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_teams(table, person)
            n = len(table.seats)
            if not 0 <= seat < n:
                raise ServiceError("error.bad_button")
            order = list(range(n))
            other = (seat + 1) % n
            order[seat], order[other] = other, seat
            await tx.tables.reorder_seats(table.id, order)
            await tx.tables.update(table.id, table.version)

        return await self._change(table_id, work)

    def _creator_teams(self, table: TableRow, person: Person) -> None:
        self._creator_lobby(table, person)
        spec = self._tables.spec(table.game)
        if len(table.seats) < 2 or not spec.teams(self._tables.rules_of(table), len(table.seats)):
            raise ServiceError("error.no_teams")

    # --- options ----------------------------------------------------------------

    def check_creator(self, snapshot: Snapshot, person: Person) -> None:
        """Only the creator of a lobby changes its options."""
        self._creator_lobby(snapshot.table, person)

    async def cycle_option(self, table_id: int, person: Person, name: str) -> Snapshot:
        """Move the game option ``name`` to its next value that the rest allow."""

        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_lobby(table, person)
            spec = self._tables.spec(table.game)
            choices = dict(spec.rules.options()).get(name)
            if choices is None:
                raise ServiceError("error.bad_button")
            rules = self._tables.rules_of(table)
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
            await self._save_rules(tx, table, spec, new_rules)

        return await self._change(table_id, work)

    async def cycle_preset(self, table_id: int, person: Person) -> Snapshot:
        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_lobby(table, person)
            spec = self._tables.spec(table.game)
            current = spec.preset_name(self._tables.rules_of(table))
            # Presets the players seated do not fit (Akulina for five) are passed over.
            names = [
                name
                for name, rules in spec.presets.items()
                if name == current or len(table.seats) <= spec.seat_range(rules)[-1]
            ]
            await self._save_rules(tx, table, spec, spec.presets[_next(tuple(names), current)])

        return await self._change(table_id, work)

    async def cycle_setting(self, table_id: int, person: Person, setting: Setting) -> Snapshot:
        async def work(tx: Tx, table: TableRow) -> None:
            self._creator_lobby(table, person)
            if setting is Setting.TURN:
                turn = _next(TURN_SECONDS, table.turn_seconds)
                await tx.tables.update(table.id, table.version, turn_seconds=turn)
            elif setting is Setting.LEVEL:
                level = _next(LEVELS, table.computer_level)
                await tx.tables.update(table.id, table.version, computer_level=level)
            else:
                absence = _next(tuple(OnAbsence), table.on_absence)
                await tx.tables.update(table.id, table.version, on_absence=absence)

        return await self._change(table_id, work)

    async def _save_rules(self, tx: Tx, table: TableRow, spec: GameSpec, rules: Rules) -> None:
        seats = spec.seat_range(rules)
        if len(table.seats) > seats[-1]:
            raise ServiceError("error.too_many_for_option", n=seats[-1])
        await tx.tables.update(table.id, table.version, rules=rules.to_json())

    # --- starting ---------------------------------------------------------------

    async def start(self, table_id: int, person: Person, *, is_admin: bool) -> Snapshot:
        async with self._tables.lock(table_id):
            async with self._db.transaction() as tx:
                table = await self._tables.get(tx, table_id)
                if table.status is not Status.LOBBY:
                    raise ServiceError("error.not_in_lobby")
                if person.id != table.creator_id and not is_admin:
                    raise ServiceError("error.only_creator_starts")
                spec = self._tables.spec(table.game)
                rules = self._tables.rules_of(table)
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
                seed = self._seeds()
                game = await deal(tx, self._tables, table, seed)
                dealt = game.dump()
                version = await tx.tables.update(
                    table_id,
                    table.version,
                    status=Status.PLAYING,
                    seed=seed,
                    state=dealt,
                    deal=dealt,
                    commitment=commitment(table.game, seed, dealt),
                    moves=0,
                )
                started = await self._tables.get(tx, table_id)
                assert started.version == version
                await self._tables.begin(tx, started, game)
            self._tables.remember(table_id, 0, game)
        return await self._tables.changed(table_id)

    # --- helpers ----------------------------------------------------------------

    async def _change(
        self, table_id: int, work: Callable[[Tx, TableRow], Awaitable[None]]
    ) -> Snapshot:
        async with self._tables.lock(table_id), self._db.transaction() as tx:
            await work(tx, await self._tables.get(tx, table_id))
            await self._rearm(tx, table_id)
        return await self._tables.changed(table_id)

    async def _rearm(self, tx: Tx, table_id: int) -> None:
        """A changed lobby expires later; a closed one not at all."""
        table = await self._tables.get(tx, table_id)
        await tx.deadlines.replace(table_id, self._tables.deadlines(table, None))

    @staticmethod
    def _in_lobby(table: TableRow) -> None:
        if table.status is not Status.LOBBY:
            raise ServiceError("error.not_in_lobby")

    def _room_for_one_more(self, table: TableRow) -> None:
        most = self._tables.spec(table.game).seat_range(self._tables.rules_of(table))[-1]
        if len(table.seats) >= most:
            raise ServiceError("error.table_full", n=most)

    def _creator_lobby(self, table: TableRow, person: Person) -> None:
        self._in_lobby(table)
        if person.id != table.creator_id:
            raise ServiceError("error.only_creator_options")

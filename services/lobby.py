"""Opening a table, seating players, options, starting, cancelling, rematches."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any

from games import registry
from games.core import Outcome, Rules, RulesError
from games.spec import GameSpec, UnknownPreset
from services.errors import ServiceError
from services.people import Person
from storage import Database, TableExistsError, TableRow, Tx

__all__ = ["JoinResult", "Lobby", "load_rules"]


@dataclass(frozen=True, slots=True)
class JoinResult:
    table: TableRow
    needs_dm: bool
    """The user cannot be messaged yet: send him to the bot by deep link."""


def spec_of(table: TableRow) -> GameSpec:
    return registry.get(table.game)


def load_rules(table: TableRow) -> Rules:
    return spec_of(table).rules.from_json(table.rules)


class Lobby:
    def __init__(self, db: Database) -> None:
        self._db = db

    # --- reading ----------------------------------------------------------------

    async def table(self, table_id: int) -> TableRow:
        async with self._db.read() as tx:
            table = await tx.get_table(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        return table

    async def open_table(self, chat_id: int, thread_id: int) -> TableRow | None:
        async with self._db.read() as tx:
            return await tx.open_table(chat_id, thread_id)

    async def open_tables(self) -> list[TableRow]:
        async with self._db.read() as tx:
            return await tx.open_tables()

    async def tables_of(self, user_id: int) -> list[TableRow]:
        async with self._db.read() as tx:
            return await tx.open_tables_of_user(user_id)

    # --- creating ---------------------------------------------------------------

    async def create(
        self,
        chat_id: int,
        thread_id: int,
        creator: Person,
        game_key: str,
        preset: str | None = None,
        *,
        creator_dm_ok: bool,
    ) -> TableRow:
        """Open a lobby; the creator is seated if the bot can message him."""
        try:
            spec = registry.get(game_key)
        except registry.UnknownGame:
            raise ServiceError("error.unknown_game", game=game_key) from None
        try:
            rules = spec.preset(preset)
        except UnknownPreset:
            raise ServiceError("error.unknown_preset", preset=preset or "", game=game_key) from None
        async with self._db.transaction() as tx:
            try:
                table_id = await tx.create_table(
                    chat_id, thread_id, spec.key, rules.to_json(), creator.id
                )
            except TableExistsError:
                raise ServiceError("error.table_exists") from None
            if creator_dm_ok:
                await tx.add_seat(table_id, creator.id)
            return await self._get(tx, table_id)

    async def rematch(self, table_id: int, person: Person) -> TableRow:
        """A new lobby with the same game, options and players."""
        async with self._db.transaction() as tx:
            old = await self._get(tx, table_id)
            if old.status != "finished":
                raise ServiceError("error.not_finished")
            if old.seat_of(person.id) is None:
                raise ServiceError("error.not_seated")
            try:
                new_id = await tx.create_table(
                    old.chat_id, old.thread_id, old.game, old.rules, person.id, previous_id=old.id
                )
            except TableExistsError:
                raise ServiceError("error.table_exists") from None
            for seat in old.seats:
                if seat.dm_ok:
                    await tx.add_seat(new_id, seat.user_id)
            return await self._get(tx, new_id)

    # --- seating ----------------------------------------------------------------

    async def join(self, table_id: int, person: Person, *, dm_ok: bool) -> JoinResult:
        async with self._db.transaction() as tx:
            table = await self._get(tx, table_id)
            if table.status != "lobby":
                raise ServiceError("error.not_in_lobby")
            if table.seat_of(person.id) is not None:
                raise ServiceError("error.already_seated")
            if not dm_ok:
                return JoinResult(table, needs_dm=True)
            rules = load_rules(table)
            if len(table.seats) >= spec_of(table).max_seats(rules):
                raise ServiceError("error.table_full", n=spec_of(table).max_seats(rules))
            await tx.add_seat(table_id, person.id)
            await tx.update_table(table_id, table.version)
            return JoinResult(await self._get(tx, table_id), needs_dm=False)

    async def leave(self, table_id: int, person: Person) -> TableRow:
        async with self._db.transaction() as tx:
            table = await self._get(tx, table_id)
            if table.status != "lobby":
                raise ServiceError("error.leave_after_start")
            if not await tx.remove_seat(table_id, person.id):
                raise ServiceError("error.not_seated")
            await tx.update_table(table_id, table.version)
            return await self._get(tx, table_id)

    # --- options ----------------------------------------------------------------

    async def cycle_option(self, table_id: int, person: Person, index: int) -> TableRow:
        """Move option number ``index`` to its next allowed value."""
        async with self._db.transaction() as tx:
            table = await self._creator_lobby(tx, table_id, person)
            spec = spec_of(table)
            options = spec.rules.options()
            if not 0 <= index < len(options):
                raise ServiceError("error.bad_button")
            name, choices = options[index]
            rules = load_rules(table)
            current = getattr(rules, name)
            position = choices.index(current) if current in choices else -1
            for step in range(1, len(choices) + 1):
                candidate = choices[(position + step) % len(choices)]
                try:
                    new_rules = rules.replace(**{name: candidate})
                except RulesError:
                    continue
                break
            else:
                raise ServiceError("error.bad_button")
            return await self._save_rules(tx, table, spec, new_rules)

    async def cycle_preset(self, table_id: int, person: Person) -> TableRow:
        async with self._db.transaction() as tx:
            table = await self._creator_lobby(tx, table_id, person)
            spec = spec_of(table)
            names = list(spec.presets)
            current = spec.preset_name(load_rules(table))
            position = names.index(current) if current in names else -1
            rules = spec.presets[names[(position + 1) % len(names)]]
            return await self._save_rules(tx, table, spec, rules)

    async def _save_rules(self, tx: Tx, table: TableRow, spec: GameSpec, rules: Rules) -> TableRow:
        seats = spec.seat_range(rules)
        if len(table.seats) > seats[-1]:
            raise ServiceError("error.too_many_for_option", n=seats[-1])
        await tx.update_table(table.id, table.version, rules=rules.to_json())
        return await self._get(tx, table.id)

    # --- starting and cancelling ------------------------------------------------

    async def start(self, table_id: int, person: Person, *, is_admin: bool) -> TableRow:
        async with self._db.transaction() as tx:
            table = await self._get(tx, table_id)
            if table.status != "lobby":
                raise ServiceError("error.not_in_lobby")
            if person.id != table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_starts")
            spec = spec_of(table)
            rules = load_rules(table)
            seats = spec.seat_range(rules)
            if len(table.seats) < seats.start:
                raise ServiceError("error.not_enough_players", n=seats.start)
            if len(table.seats) > seats[-1]:
                raise ServiceError("error.too_many_for_option", n=seats[-1])
            seed = secrets.randbits(63)
            previous = await self._previous_outcome(tx, table)
            game = spec.game.new(rules, len(table.seats), random.Random(seed), previous=previous)
            await tx.update_table(
                table_id, table.version, status="playing", seed=seed, state=game.dump(), moves=0
            )
            return await self._get(tx, table_id)

    async def cancel(self, table_id: int, person: Person, *, is_admin: bool) -> TableRow:
        async with self._db.transaction() as tx:
            table = await self._get(tx, table_id)
            if not table.is_open:
                raise ServiceError("error.no_table")
            if person.id != table.creator_id and not is_admin:
                raise ServiceError("error.only_creator_cancels")
            await tx.update_table(table_id, table.version, status="cancelled")
            return await self._get(tx, table_id)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        async with self._db.transaction() as tx:
            await tx.set_table_message(table_id, message_id)

    # --- helpers ----------------------------------------------------------------

    async def _get(self, tx: Tx, table_id: int) -> TableRow:
        table = await tx.get_table(table_id)
        if table is None:
            raise ServiceError("error.no_table")
        return table

    async def _creator_lobby(self, tx: Tx, table_id: int, person: Person) -> TableRow:
        table = await self._get(tx, table_id)
        if table.status != "lobby":
            raise ServiceError("error.not_in_lobby")
        if person.id != table.creator_id:
            raise ServiceError("error.only_creator_options")
        return table

    async def _previous_outcome(self, tx: Tx, table: TableRow) -> Outcome | None:
        """The previous game's outcome, re-expressed in this table's seats; None
        when a player of that game is missing (who dealt no longer matters)."""
        if table.previous_id is None:
            return None
        previous = await tx.get_table(table.previous_id)
        raw = await tx.get_result(table.previous_id)
        if previous is None or raw is None:
            return None
        old = Outcome.from_json(raw)
        new_seat: dict[int, int] = {}
        for seat in previous.seats:
            now = table.seat_of(seat.user_id)
            if now is None:
                return None
            new_seat[seat.seat] = now
        if len(new_seat) != len(table.seats):
            return None

        def remap(seats: Any) -> frozenset[int]:
            return frozenset(new_seat[s] for s in seats)

        return Outcome(
            places=tuple(tuple(new_seat[s] for s in group) for group in old.places),
            winners=remap(old.winners),
            losers=remap(old.losers),
            draw=old.draw,
            scores=None,
        )

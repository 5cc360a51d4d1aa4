"""The tests' PostgreSQL databases (``tests/postgres.py``): a database given
back comes again as the template is, and one whose schema a test changed
never comes again."""

from __future__ import annotations

import psycopg
import pytest

from storage import Database
from tests.postgres import Cluster, execute
from tests.storage.test_storage import seed


async def test_postgres_a_database_given_back_comes_again_empty(postgres: Cluster) -> None:
    url = postgres.create()
    db = await Database.open(url)
    first = await seed(db)
    await db.close()
    left_open = psycopg.connect(url)  # as a killed bot process leaves it
    postgres.drop(url)
    with pytest.raises(psycopg.OperationalError):
        left_open.execute("SELECT 1")
    left_open.close()

    again = postgres.create()
    assert again == url  # the same database, emptied
    assert execute(again, "SELECT count(*) FROM tables") == [(0,)]
    assert execute(again, "SELECT count(*) FROM schema_version") == [(1,)]
    db = await Database.open(again)
    assert await seed(db) == first  # the ids count from 1 again
    await db.close()
    postgres.drop(again)


async def test_postgres_a_database_whose_schema_changed_is_dropped(postgres: Cluster) -> None:
    url = postgres.create()
    execute(url, "ALTER TABLE tables ADD COLUMN extra INTEGER")
    postgres.drop(url)
    again = postgres.create()
    assert again != url
    assert execute(again, "SELECT count(*) FROM tables") == [(0,)]
    columns = execute(
        again, "SELECT column_name FROM information_schema.columns WHERE table_name = 'tables'"
    )
    assert ("extra",) not in columns
    postgres.drop(again)

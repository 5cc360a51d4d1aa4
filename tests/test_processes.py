"""What a killed bot's log may hold that is not its error: only the traceback
of a computers' worker orphaned while it started."""

from __future__ import annotations

from tests.processes import without_orphaned_workers

SPAWN = "/usr/lib/python3.11/multiprocessing/spawn.py"
ORPHANED = f"""Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "{SPAWN}", line 122, in spawn_main
    exitcode = _main(fd, parent_sentinel)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "{SPAWN}", line 130, in _main
    preparation_data = reduction.pickle.load(from_parent)
                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
EOFError: Ran out of input
"""
BEFORE = "2026-11-28 17:41:28,513 INFO delivery.publisher: resuming 4 tables\n"
AFTER = "2026-11-28 17:41:34,715 INFO telegram.ext.Application: Application started\n"


def test_a_worker_orphaned_while_it_started_is_the_kills_doing() -> None:
    assert without_orphaned_workers(BEFORE + ORPHANED + AFTER) == BEFORE + AFTER


def test_any_other_traceback_stays() -> None:
    ours = ORPHANED.replace(
        f'"{SPAWN}", line 130, in _main', '"/koloda/services/thinking.py", line 9, in run'
    )
    other_error = ORPHANED.replace("EOFError: Ran out of input", "ValueError: a bad request")
    for log in (ours, other_error, ORPHANED.replace('"<string>", line 1', '"bot.py", line 1')):
        assert "Traceback" in without_orphaned_workers(BEFORE + log + AFTER)

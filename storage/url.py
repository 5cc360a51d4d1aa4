"""``DATABASE_URL``: which database the bot keeps its state in.

``sqlite:///PATH`` is an SQLite file (the embedded default); everything after
the third slash is the path, so ``sqlite:///data/koloda.sqlite3`` is relative
to the working directory and ``sqlite:////var/lib/koloda/koloda.sqlite3`` is
absolute.  ``postgresql://USER:PASSWORD@HOST:PORT/DATABASE?OPTIONS`` (or
``postgres://``) is a PostgreSQL database, in libpq's URI form: a ``host`` option
that names a folder reaches the server by its unix socket.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["DatabaseUrl", "sqlite_url"]

_SQLITE = "sqlite:///"
_POSTGRES = ("postgresql://", "postgres://")


def sqlite_url(path: Path | str) -> str:
    """The URL of the SQLite file at ``path``."""
    return f"{_SQLITE}{path}"


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    url: str
    path: Path | None
    """The SQLite file; None for PostgreSQL."""

    @property
    def postgres(self) -> bool:
        return self.path is None

    @classmethod
    def parse(cls, target: str | Path) -> DatabaseUrl:
        """A URL as above, or a path (an SQLite file).  Raises ValueError
        with a one-line explanation of what is wrong."""
        if isinstance(target, Path):
            return cls(sqlite_url(target), target)
        text = target.strip()
        if text.startswith(_SQLITE):
            path = text[len(_SQLITE) :]
            if not path:
                raise ValueError(f"{text!r} names no file: write sqlite:///data/koloda.sqlite3")
            return cls(text, Path(path))
        if text.startswith(_POSTGRES):
            parts = urlsplit(text)
            try:
                parts.port  # noqa: B018 - raises ValueError for a port that is not a number
            except ValueError:
                raise ValueError(
                    f"the port of {cls(text, None).safe()!r} is not a number"
                ) from None
            if not parts.path.strip("/") and "dbname=" not in parts.query:
                raise ValueError(
                    f"{cls(text, None).safe()!r} names no database: "
                    "write postgresql://user:password@host:5432/koloda"
                )
            return cls(text, None)
        if "://" in text or text.startswith("sqlite:"):
            raise ValueError(
                f"{text.split(':', 1)[0]!r} is not a database Koloda knows: write "
                "sqlite:///path/to/koloda.sqlite3 or postgresql://user:password@host/database"
            )
        if not text:
            raise ValueError("no database given")
        return cls(sqlite_url(text), Path(text))

    def safe(self) -> str:
        """The URL without its password, to show in logs and messages."""
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))

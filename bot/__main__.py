"""``python -m bot``: start Koloda with long polling (or a webhook if WEBHOOK_URL is set).

Without a BOT_TOKEN (or with ``--playground``) it opens the playground instead:
the real bot on a stand-in Telegram, played in a browser on 127.0.0.1
(:mod:`bot.playground`).  Whatever the operator can fix ends in one line on
stderr and exit code 2; see :mod:`bot.runner`.  The token never reaches the
output (:mod:`bot.logs`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import uvloop
from dotenv import dotenv_values

from bot.config import Config, ConfigError, MissingToken
from bot.logs import setup_logging
from bot.playground import DEFAULT_PORT, run_playground
from bot.runner import Fatal, run
from i18n import normalize


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--playground",
        action="store_true",
        help="play in a browser on a stand-in Telegram (the default without BOT_TOKEN)",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="the playground's port")
    parser.add_argument("--database", type=Path, help="the playground's database (a temporary one)")
    args = parser.parse_args(argv)
    try:
        config = None if args.playground else Config.from_env()
    except MissingToken:
        config = None
    except ConfigError as exc:
        print(f"koloda: {exc}", file=sys.stderr)
        return 2
    try:
        if config is None:
            logging.basicConfig(
                level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
            )
            language = playground_language(os.environ, Path(".env"))
            asyncio.run(run_playground(language=language, database=args.database, port=args.port))
        else:
            watch = setup_logging(config.log_level, config.token)
            # libuv's event loop: less of the bot's CPU per move (see the README).
            uvloop.run(run(config, watch))
    except Fatal as exc:
        print(f"koloda: {exc}", file=sys.stderr)
        return 2
    return 0


def playground_language(env: Mapping[str, str], dotenv: Path) -> str:
    """DEFAULT_LANGUAGE as the bot reads it (the environment over ``.env``);
    anything the catalogs lack, or a ``.env`` it cannot read, is the default
    language."""
    language = env.get("DEFAULT_LANGUAGE")
    if language is None and dotenv.is_file():
        with contextlib.suppress(OSError, UnicodeDecodeError):
            language = dotenv_values(dotenv).get("DEFAULT_LANGUAGE")
    return normalize(language)


if __name__ == "__main__":
    sys.exit(main())

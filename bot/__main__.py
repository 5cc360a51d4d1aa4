"""``python -m bot``: start Koloda with long polling (or a webhook if WEBHOOK_URL is set).

Whatever the operator can fix ends in one line on stderr and exit code 2; see
:mod:`bot.runner`.  The token never reaches the output (:mod:`bot.logs`).
"""

from __future__ import annotations

import asyncio
import sys

from bot.config import Config, ConfigError
from bot.logs import setup_logging
from bot.runner import Fatal, run


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"koloda: {exc}", file=sys.stderr)
        return 2
    watch = setup_logging(config.log_level, config.token)
    try:
        asyncio.run(run(config, watch))
    except Fatal as exc:
        print(f"koloda: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

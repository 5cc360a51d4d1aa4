"""``python -m bot``: start Koloda with long polling (or a webhook if WEBHOOK_URL is set)."""

from __future__ import annotations

import sys
from urllib.parse import urlparse

from telegram import Update

from bot.app import build_application
from bot.config import Config, ConfigError
from bot.logs import setup_logging


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"koloda: {exc}", file=sys.stderr)
        return 2
    setup_logging(config.log_level, config.token)
    application = build_application(config)
    if config.webhook_url:
        application.run_webhook(
            listen=config.webhook_listen,
            port=config.webhook_port,
            # Telegram posts to WEBHOOK_URL; the local server must serve its path.
            url_path=urlparse(config.webhook_url).path.lstrip("/"),
            webhook_url=config.webhook_url,
            secret_token=config.webhook_secret,
            allowed_updates=Update.ALL_TYPES,
        )
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Pure rules engines: standard library only, no Telegram, asyncio or storage."""

"""Koloda without Telegram: a stand-in for the Telegram Bot API on 127.0.0.1
(:mod:`playground.botapi`, which the end-to-end tests use too) and a web page
to play on it in a browser (:mod:`playground.web`)."""

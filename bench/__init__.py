"""Benchmarks (run as modules, e.g. ``python -m bench.engines``); not imported by the bot."""

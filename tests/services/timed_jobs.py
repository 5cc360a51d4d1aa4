"""Jobs for the worker processes that tell when they ran (a worker imports
them by path like any job)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any


def sleep_then_tell(request: Mapping[str, Any]) -> float:
    """Sleep ``request["seconds"]``, then the time it woke."""
    time.sleep(float(request["seconds"]))
    return time.time()


def tell(request: Mapping[str, Any]) -> float:
    """The time it ran."""
    return time.time()


def niceness(request: Mapping[str, Any]) -> int:
    """The worker's CPU priority (its niceness)."""
    return os.nice(0)


def pid(request: Mapping[str, Any]) -> int:
    """The worker's process id."""
    return os.getpid()

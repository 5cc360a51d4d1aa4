"""A ``multipart/form-data`` body read in one pass.

Every call the bot makes reaches the stand-in as such a body, and aiohttp's
general reader (a regular expression compiled for every header of every part)
was about a sixth of the CPU of a whole game in the end-to-end tests.  This
reads the form that HTTP clients write (httpx, under python-telegram-bot):
each part's ``Content-Disposition`` with a quoted ``name`` and, for a file, a
quoted ``filename`` (quotes in names percent-encoded, as HTML5 says)."""

from __future__ import annotations

import re

from .params import Upload

__all__ = ["MultipartError", "boundary_of", "read_form"]

_DISPOSITION = re.compile(r';\s*(name|filename)="([^"]*)"')
_BOUNDARY = re.compile(r';\s*boundary=(?:"([^"]+)"|([^\s;]+))', re.IGNORECASE)


class MultipartError(ValueError):
    """The body is not the multipart form its header says."""


def boundary_of(content_type: str) -> str:
    """The boundary a ``Content-Type`` header names."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise MultipartError("no boundary")
    return found.group(1) or found.group(2)


def read_form(body: bytes, boundary: str) -> tuple[dict[str, str], dict[str, Upload]]:
    """The fields (text) and files of ``body``; the first part of a name wins,
    as aiohttp's ``getone`` has it."""
    delimiter = b"--" + boundary.encode("latin-1")
    if not body.startswith(delimiter):
        raise MultipartError("the body does not open with its boundary")
    values: dict[str, str] = {}
    files: dict[str, Upload] = {}
    for chunk in body[len(delimiter) :].split(b"\r\n" + delimiter):
        if chunk.startswith(b"--"):  # the closing delimiter
            return values, files
        head, separated, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not separated:
            raise MultipartError("a part without its blank line")
        name = filename = None
        content_type = "application/octet-stream"
        for line in head.decode("utf-8", "replace").split("\r\n"):
            key, _, value = line.partition(":")
            key = key.strip().lower()
            if key == "content-disposition":
                params = dict(_DISPOSITION.findall(value))
                name, filename = params.get("name"), params.get("filename")
            elif key == "content-type":
                content_type = value.strip()
        if name is None:
            raise MultipartError("a part without a name")
        if filename is not None:
            files.setdefault(name, Upload(filename, content_type, data))
        else:
            values.setdefault(name, data.decode("utf-8", "replace"))
    raise MultipartError("the body does not close")

"""Message text to (plain text, entities), the way the Bot API parses it.

``parse_html`` follows Telegram's HTML style: only the documented tags, balanced, the four
named character references plus numeric ones. Offsets and lengths of entities are counted in
UTF-16 code units like in real updates. ``detect_entities`` finds the bot commands and
mentions Telegram marks up in messages users type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError, bad_request

JsonDict = dict[str, Any]

# tag -> entity type; "span" is a spoiler only with class="tg-spoiler"
_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_REFS = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_REF = re.compile(r"&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]+));")
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^>]*)?)\s*>")
_ATTR = re.compile(r"""([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_COMMAND = re.compile(r"(?<![\w/@])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w/@])")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}(?![\w@])")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Bot API entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _cant_parse(reason: str) -> ApiError:
    return bad_request(f"can't parse entities: {reason}")


def _unescape(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        decimal, hexadecimal, name = match.groups()
        if decimal is not None or hexadecimal is not None:
            code = int(decimal) if decimal is not None else int(hexadecimal, 16)
            return chr(code) if 0 < code <= 0x10FFFF else match.group(0)
        return _NAMED_REFS.get(name.lower(), match.group(0))

    return _REF.sub(replace, text)


@dataclass
class _Open:
    tag: str
    start: int  # UTF-16 offset in the plain text
    attrs: dict[str, str] = field(default_factory=dict)
    language: str | None = None


def _attributes(raw: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    for match in _ATTR.finditer(raw):
        name, dq, sq, bare = match.groups()
        value = dq if dq is not None else sq if sq is not None else bare or ""
        attrs[name.lower()] = _unescape(value)
    return attrs


def parse_html(source: str) -> tuple[str, list[JsonDict]]:
    """Plain text and entities of an HTML-formatted message, or 400 can't parse entities."""
    plain: list[str] = []
    plain_units = 0
    stack: list[_Open] = []
    entities: list[JsonDict] = []
    pos = 0

    def add_text(chunk: str) -> None:
        nonlocal plain_units
        text = _unescape(chunk)
        plain.append(text)
        plain_units += utf16_len(text)

    while pos < len(source):
        lt = source.find("<", pos)
        if lt < 0:
            add_text(source[pos:])
            break
        add_text(source[pos:lt])
        byte_offset = len(source[:lt].encode("utf-8"))
        match = _TAG.match(source, lt)
        if match is None:
            if source.find(">", lt) < 0:
                raise _cant_parse(f"Unclosed start tag at byte offset {byte_offset}")
            raise _cant_parse(f"Unsupported start tag at byte offset {byte_offset}")
        closing, tag, rest = match.group(1) == "/", match.group(2).lower(), match.group(3)
        pos = match.end()
        if closing:
            if not stack:
                raise _cant_parse(f"Unexpected end tag at byte offset {byte_offset}")
            top = stack.pop()
            if top.tag != tag:
                raise _cant_parse(
                    f'Unmatched end tag at byte offset {byte_offset}, expected "</{top.tag}>", '
                    f'found "</{tag}>"'
                )
            _close(top, plain_units, stack, entities)
            continue
        if tag not in _TAGS:
            raise _cant_parse(f'Unsupported start tag "{tag}" at byte offset {byte_offset}')
        attrs = _attributes(rest)
        if tag == "span" and attrs.get("class") != "tg-spoiler":
            raise _cant_parse(
                f'Tag "span" must have class "tg-spoiler" at byte offset {byte_offset}'
            )
        if tag == "a" and not attrs.get("href"):
            raise _cant_parse(f'Tag "a" must have attribute "href" at byte offset {byte_offset}')
        stack.append(_Open(tag, plain_units, attrs))
    if stack:
        raise _cant_parse(f'Can\'t find end tag corresponding to start tag "{stack[-1].tag}"')
    entities.sort(key=lambda entity: (entity["offset"], -entity["length"]))
    return "".join(plain), entities


def _close(top: _Open, end: int, stack: list[_Open], entities: list[JsonDict]) -> None:
    kind = _TAGS[top.tag]
    language = top.attrs.get("class", "")
    if kind == "code" and stack and stack[-1].tag == "pre" and language.startswith("language-"):
        stack[-1].language = language.removeprefix("language-")
        return
    length = end - top.start
    if length <= 0:
        return
    entity: JsonDict = {"type": kind, "offset": top.start, "length": length}
    if kind == "text_link":
        entity["url"] = top.attrs["href"]
    elif kind == "pre" and top.language:
        entity["language"] = top.language
    elif kind == "blockquote" and "expandable" in top.attrs:
        entity["type"] = "expandable_blockquote"
    elif kind == "custom_emoji":
        entity["custom_emoji_id"] = top.attrs.get("emoji-id", "")
    entities.append(entity)


_TRIMMED = " \t\r\n\v\f"


def trim(plain: str, entities: list[JsonDict]) -> tuple[str, list[JsonDict]]:
    """Strip surrounding whitespace like Telegram does, keeping entities in place."""
    body = plain.strip(_TRIMMED)
    if body == plain:
        return plain, entities
    lead = utf16_len(plain[: len(plain) - len(plain.lstrip(_TRIMMED))])
    size = utf16_len(body)
    kept: list[JsonDict] = []
    for entity in entities:
        start = max(0, entity["offset"] - lead)
        end = min(size, entity["offset"] + entity["length"] - lead)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return body, kept


def detect_entities(text: str) -> list[JsonDict]:
    """The bot_command and mention entities Telegram adds to a message a user types."""
    found: list[tuple[int, int, str]] = []
    for pattern, kind in ((_COMMAND, "bot_command"), (_MENTION, "mention")):
        found.extend((m.start(), m.end(), kind) for m in pattern.finditer(text))
    found.sort()
    return [
        {"type": kind, "offset": utf16_len(text[:start]), "length": utf16_len(text[start:end])}
        for start, end, kind in found
    ]

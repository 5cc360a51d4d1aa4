"""Photos: what an uploaded picture is, read from its header without an imaging library.

Telegram accepts a photo upload it can decode, converts it to JPEG and keeps it in several
sizes. The fake accepts PNG and JPEG only, checks their structure (PNG chunks and CRCs, JPEG
segments up to the frame header), reads width and height there, and keeps the bytes as sent.
Refusals use Telegram's texts: IMAGE_PROCESS_FAILED for what is not a picture,
PHOTO_INVALID_DIMENSIONS for the documented limits (width + height at most 10000, sides at most
20 : 1), PHOTO_SAVE_FILE_INVALID over 10 MB.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from .errors import ApiError, bad_request

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SOI = b"\xff\xd8"
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_SIDES_SUM = 10_000
MAX_RATIO = 20
# Telegram's photo sizes: type letter and the box the picture is scaled into
PHOTO_BOXES = (("s", 90), ("m", 320), ("x", 800), ("y", 1280), ("w", 2560))
# JPEG start-of-frame markers (SOF0..SOF15 without DHT, JPG and DAC)
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_STANDALONE_MARKERS = frozenset(range(0xD0, 0xD8)) | {0x01}


@dataclass(frozen=True)
class ImageInfo:
    mime_type: str  # "image/png" or "image/jpeg"
    extension: str  # "png" or "jpg"
    width: int
    height: int


def image_process_failed() -> ApiError:
    return bad_request("IMAGE_PROCESS_FAILED")


def image_info(data: bytes) -> ImageInfo:
    """Format and size of an uploaded photo, or the error Telegram answers for it."""
    if len(data) > MAX_PHOTO_BYTES:
        raise bad_request("PHOTO_SAVE_FILE_INVALID")
    if data.startswith(PNG_SIGNATURE):
        width, height = png_size(data)
        info = ImageInfo("image/png", "png", width, height)
    elif data.startswith(JPEG_SOI):
        width, height = jpeg_size(data)
        info = ImageInfo("image/jpeg", "jpg", width, height)
    else:
        raise image_process_failed()
    if width + height > MAX_SIDES_SUM or max(width, height) > MAX_RATIO * min(width, height):
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    return info


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from IHDR, after walking every chunk to IEND with its CRC."""
    pos = len(PNG_SIGNATURE)
    size: tuple[int, int] | None = None
    has_data = False
    while True:
        if pos + 12 > len(data):
            raise image_process_failed()  # truncated, or no IEND
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        end = pos + 8 + length
        if end + 4 > len(data):
            raise image_process_failed()
        body = data[pos + 8 : end]
        (crc,) = struct.unpack(">I", data[end : end + 4])
        if zlib.crc32(kind + body) != crc:
            raise image_process_failed()
        if size is None:
            if kind != b"IHDR" or length != 13:
                raise image_process_failed()
            width, height = struct.unpack(">II", body[:8])
            if not width or not height:
                raise image_process_failed()
            size = (width, height)
        elif kind == b"IDAT":
            has_data = True
        elif kind == b"IEND":
            break
        pos = end + 4
    if not has_data:
        raise image_process_failed()
    return size


def jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the first start-of-frame segment."""
    pos = len(JPEG_SOI)
    while pos < len(data):
        if data[pos] != 0xFF:
            raise image_process_failed()
        while pos < len(data) and data[pos] == 0xFF:  # fill bytes before a marker
            pos += 1
        if pos >= len(data):
            break
        marker = data[pos]
        pos += 1
        if marker in _STANDALONE_MARKERS:
            continue
        if marker in (0xD9, 0xDA):  # end of image or start of scan before any frame
            break
        if pos + 2 > len(data):
            break
        (length,) = struct.unpack(">H", data[pos : pos + 2])
        if length < 2 or pos + length > len(data):
            break
        if marker in _SOF_MARKERS:
            if length < 7:
                break
            height, width = struct.unpack(">HH", data[pos + 3 : pos + 7])
            if not width or not height:
                break
            return width, height
        pos += length
    raise image_process_failed()


def photo_size_boxes(width: int, height: int) -> list[tuple[str, int, int]]:
    """The (type, width, height) of each size Telegram keeps of a picture, smallest first.

    A box smaller than the picture gets a scaled-down copy; the first box the picture fits
    in gets the picture itself, and larger boxes nothing (2560 is the largest kept).
    """
    sizes: list[tuple[str, int, int]] = []
    longest = max(width, height)
    for kind, box in PHOTO_BOXES:
        if longest <= box:
            sizes.append((kind, width, height))
            break
        scale = box / longest
        sizes.append((kind, max(1, round(width * scale)), max(1, round(height * scale))))
    return sizes

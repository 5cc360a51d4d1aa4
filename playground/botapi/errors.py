"""Bot API errors: the exception the fake raises inside and the exact texts Telegram uses."""

from __future__ import annotations

from typing import Any

JsonDict = dict[str, Any]

QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
CANT_INITIATE = "bot can't initiate conversation with a user"
BLOCKED = "bot was blocked by the user"
CONFLICT = "terminated by other getUpdates request; make sure that only one bot instance is running"


class ApiError(Exception):
    """A refusal in Bot API shape: HTTP status = error_code, plus optional parameters."""

    def __init__(self, code: int, description: str, parameters: JsonDict | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    def payload(self) -> JsonDict:
        body: JsonDict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(text: str, parameters: JsonDict | None = None) -> ApiError:
    return ApiError(400, f"Bad Request: {text}", parameters)


def forbidden(text: str) -> ApiError:
    return ApiError(403, f"Forbidden: {text}")


def too_many_requests(retry_after: int) -> ApiError:
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


def not_found() -> ApiError:
    return ApiError(404, "Not Found")


def unauthorized() -> ApiError:
    return ApiError(401, "Unauthorized")


def conflict(text: str = CONFLICT) -> ApiError:
    return ApiError(409, f"Conflict: {text}")


def default_description(code: int) -> str:
    """What an injected error says when the test did not give a text."""
    return {
        400: "Bad Request: injected error",
        401: "Unauthorized",
        403: f"Forbidden: {BLOCKED}",
        404: "Not Found",
        409: f"Conflict: {CONFLICT}",
        500: "Internal Server Error",
        502: "Bad Gateway",
    }.get(code, f"Error {code}")

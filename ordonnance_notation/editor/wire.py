"""The messages between an editor and the language server, on a byte
stream framed as the Language Server Protocol frames them: header lines,
a blank line, then a JSON body of ``Content-Length`` bytes.

pygls reads the stream with no bounds (a header line held whole however
long it grows, any ``Content-Length`` read as it comes) and answers a
message it cannot read with nothing; this reader is bounded, and answers
what it skips with a JSON-RPC error, whose id is null where the message's
own is unknown:

- a header line is held ``HEADER_LINE`` bytes at most: a longer one is
  skipped (``InvalidRequest``);
- a body is ``MESSAGE`` bytes at most, as standard input read whole is
  anywhere else: a longer one is not read (``InvalidRequest``), and its
  bytes are skipped as lines that are no header;
- a ``Content-Length`` that falls short leaves the rest of its body before
  the next header line: that line is still read as the header it ends with
  (no body of JSON can hold a line that ends so), and only the message cut
  short is lost (``ParseError``);
- a message whose id is no number or string (a list, an object) is
  skipped (``InvalidRequest``);
- a request whose params are not as the protocol defines them (a negative
  line, a character of 2**31) gets ``InvalidParams``; a request before
  ``initialize``, ``ServerNotInitialized``.

Not checked: that a body of the right length is the message the client
meant; a ``Content-Length`` too long takes the start of the next message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import BinaryIO

from cattrs import transform_error
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.protocol import JsonRPCProtocol

from ..files.sources import BLOCK, MAX_PIPE

HEADER_LINE = BLOCK
"""Bytes of a header line held at most."""

MESSAGE = MAX_PIPE
"""Bytes of a message's body at most."""

_LENGTH = re.compile(rb"Content-Length: *(\d+)\r?\n\Z")
"""The header that says the body's length, at the end of a line: what is
before it on the line is the rest of a body cut short."""

_TAIL = 64
"""Bytes kept of a line too long, to find the header it ends with."""

_UNREAD = "Unable to deserialize message"
"""What pygls logs, with a traceback, of params it cannot read: answered here instead."""

logger = logging.getLogger(__name__)


class _Answered(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(_UNREAD)


class Wire:
    """Messages read from ``stdin`` for ``protocol``, which answers on ``out``."""

    def __init__(self, protocol: JsonRPCProtocol, stdin: BinaryIO, out: BinaryIO) -> None:
        self.protocol = protocol
        self.stdin = stdin
        self.writer = StdoutWriter(out)
        protocol.set_writer(self.writer)
        self.initialized = False
        self.reader = ThreadPoolExecutor(1, thread_name_prefix="ordo-read")
        logging.getLogger(JsonRPCProtocol.__module__).addFilter(_Answered())

    async def run(self) -> None:
        """Hand each message on to the protocol until the input ends."""
        length: bytes | None = None
        while True:
            line = await self._read(self.stdin.readline, HEADER_LINE)
            if not line:
                return
            if len(line) == HEADER_LINE and not line.endswith(b"\n"):
                self.refuse(
                    None,
                    lsp.ErrorCodes.InvalidRequest,
                    f"a header line longer than {HEADER_LINE >> 10} KB: it is skipped",
                )
                line = await self._end_of_line(line)
            found = _LENGTH.search(line)
            if found is not None:
                length = found[1]
            elif line.strip() or length is None:
                continue  # another header, or bytes of no message
            elif len(length) > len(str(MESSAGE)) or int(length) > MESSAGE:
                said = length.decode() if len(length) <= 24 else f"of {len(length)} digits"
                self.refuse(
                    None,
                    lsp.ErrorCodes.InvalidRequest,
                    f"Content-Length {said}: a message may be at most {MESSAGE >> 20} MB;"
                    " it is skipped",
                )
                length = None
            else:
                body = await self._read(self.stdin.read, int(length))
                if len(body) < int(length):
                    return
                length = None
                self.take(body)

    async def _read(self, read: Callable[[int], bytes], size: int) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(self.reader, read, size)

    async def _end_of_line(self, line: bytes) -> bytes:
        """The last bytes of a line too long to hold, read to its end."""
        while line and not line.endswith(b"\n"):
            more = await self._read(self.stdin.readline, HEADER_LINE)
            line = (line + more)[-_TAIL:] if more else b""
        return line

    def take(self, body: bytes) -> None:
        """One message's body, handed to the protocol if it can be read."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            self.refuse(
                None, lsp.ErrorCodes.ParseError, "a message that is not JSON: it is skipped"
            )
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != JsonRPCProtocol.VERSION:
            self.refuse(
                None, lsp.ErrorCodes.InvalidRequest, "not a JSON-RPC 2.0 message: it is skipped"
            )
            return
        if "id" in data and (isinstance(data["id"], bool) or not _an_id(data["id"])):
            self.refuse(
                None, lsp.ErrorCodes.InvalidRequest, "an id is a number or a string: it is skipped"
            )
            return
        method = data.get("method")
        request = "id" in data and isinstance(method, str)
        if not self.initialized and method not in (lsp.INITIALIZE, lsp.EXIT):
            if request:
                self.refuse(
                    data["id"],
                    lsp.ErrorCodes.ServerNotInitialized,
                    f"{method} before initialize: it is refused",
                )
            return
        try:
            message = self.protocol.structure_message(data)
        except JsonRpcException as error:
            why = "; ".join(transform_error(error.__cause__)) if error.__cause__ else str(error)
            if request:
                self.refuse(
                    data["id"], lsp.ErrorCodes.InvalidParams, f"invalid params of {method}: {why}"
                )
            else:
                logger.warning("ordo lsp: %s skipped: %s", method or "a message", why)
            return
        self.initialized = self.initialized or method == lsp.INITIALIZE
        try:
            self.protocol.handle_message(message)
        except Exception:  # a fault of the server's own: said, and the next message read
            logger.exception("ordo lsp: %s failed", method or "a reply")

    def refuse(self, id: object, code: lsp.ErrorCodes, message: str) -> None:
        """An error answered to the message ``id`` (None: unknown)."""
        reply = {"jsonrpc": "2.0", "id": id, "error": {"code": code.value, "message": message}}
        body = json.dumps(reply).encode()
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _an_id(value: object) -> bool:
    """What JSON-RPC allows as a message's id (a number, a string, or null)."""
    return value is None or isinstance(value, int | float | str)

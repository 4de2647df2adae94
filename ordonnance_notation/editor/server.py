"""``ordo lsp``: the language server, on pygls, over standard input and
output. Only this module and ``wire`` (the messages, read within bounds)
know pygls; what each request answers is in ``documents``, ``features`` and
``actions``.

The server answers only of the documents the editor opened, from the text
the editor sent, its changes made as the protocol places them
(``places.edited``): never from a file on the disk. Diagnostics are
published once the text has rested ``REST`` seconds after the last change,
checked on a thread of their own; formatting and fixing the whole file run
on another, so that hovers and completions are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout, suppress
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from . import actions, features
from .documents import Document
from .places import Lines, edited, lsp_diagnostic
from .wire import Wire

REST = 0.2
"""Seconds without a change before a document is checked again."""

_T = TypeVar("_T")


class _Protocol(LanguageServerProtocol):
    """pygls's protocol without its copy of each document (which cuts lines
    as ``str.splitlines`` does, and reads from the disk a document it was
    not sent): the server's handlers keep the one copy."""

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: lsp.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._to_the_server(lsp.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: lsp.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._to_the_server(lsp.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: lsp.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._to_the_server(lsp.TEXT_DOCUMENT_DID_CLOSE, params)

    def _to_the_server(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None


@dataclass(slots=True)
class Opened:
    """A document the editor opened: its text as the editor holds it, its
    version, and its records."""

    text: str
    version: int
    document: Document


class OrdServer(LanguageServer):
    """The server and the documents it has open."""

    def __init__(self) -> None:
        super().__init__("ordo", version("ordonnance-notation"), protocol_cls=_Protocol)
        self.opened: dict[str, Opened] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.checker = ThreadPoolExecutor(1, thread_name_prefix="ordo-check")
        self.editor = ThreadPoolExecutor(1, thread_name_prefix="ordo-edit")

    def units(self, text: str) -> int:
        """The code units of ``text`` as the client counts them."""
        counted: int = self.workspace.position_codec.client_num_units(text)
        return counted

    def document(self, uri: str) -> tuple[Document, Lines] | None:
        """The document at ``uri`` cut as its text now stands, and its lines;
        None when the editor has not opened it."""
        opened = self.opened.get(uri)
        if opened is None:
            return None
        opened.document.cut(opened.text)
        return opened.document, opened.document.lines(self.units)

    async def aside(self, uri: str, work: Callable[..., _T], *args: Any) -> _T | None:
        """``work(*args)``, found off the event loop; None if the document
        changed meanwhile (what was found is for a text that is no more)."""
        opened = self.opened.get(uri)
        text = opened.text if opened else None
        found = await asyncio.get_running_loop().run_in_executor(self.editor, work, *args)
        opened = self.opened.get(uri)
        return found if opened is not None and opened.text == text else None

    def changed(self, uri: str, rest: float) -> None:
        """Check ``uri`` again once it has rested ``rest`` seconds."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.ensure_future(self._check(uri, rest))

    async def _check(self, uri: str, rest: float) -> None:
        await asyncio.sleep(rest)
        opened = self.opened.get(uri)
        if opened is None:
            return
        text, version, document = opened.text, opened.version, opened.document

        def check() -> list[lsp.Diagnostic]:
            found = document.diagnostics(text)
            lines = document.lines(self.units)
            return [lsp_diagnostic(d, lines, uri) for d in found]

        published = await asyncio.get_running_loop().run_in_executor(self.checker, check)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri, published, version)
        )


def server() -> OrdServer:
    """A server with every feature registered."""
    ls = OrdServer()

    def did_open(ls: OrdServer, params: lsp.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        document = Document(to_fs_path(item.uri) or item.uri)
        ls.opened[item.uri] = Opened(item.text, item.version, document)
        ls.changed(item.uri, 0)

    def did_change(ls: OrdServer, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        opened = ls.opened.get(uri)
        if opened is None:
            return
        for change in params.content_changes:
            opened.text = edited(opened.text, change, ls.units)
        opened.version = params.text_document.version
        ls.changed(uri, REST)

    def did_close(ls: OrdServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.opened.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    def hover(ls: OrdServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = ls.document(params.text_document.uri)
        return None if found is None else features.hover(*found, params.position)

    def completion(ls: OrdServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        found = ls.document(params.text_document.uri)
        items = [] if found is None else features.completion(*found, params.position)
        return lsp.CompletionList(is_incomplete=False, items=items)

    async def code_action(ls: OrdServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        found = ls.document(uri)
        if found is None:
            return []
        document, lines = found
        only = params.context.only
        offered = actions.code_actions(document, lines, uri, params.range, only)
        if actions.wanted(lsp.CodeActionKind.SourceFixAll, only):
            offered += await ls.aside(uri, actions.fix_all, document.source, lines, uri) or []
        return offered

    async def formatting(
        ls: OrdServer, params: lsp.DocumentFormattingParams
    ) -> list[lsp.TextEdit] | None:
        uri = params.text_document.uri
        found = ls.document(uri)
        if found is None:
            return None
        document, lines = found
        text = ls.opened[uri].text
        edits = await ls.aside(uri, actions.formatting, document.source, lines)
        opened = ls.opened.get(uri)
        if edits is None and opened is not None and opened.text == text:  # refused, not outrun
            ls.window_show_message(
                lsp.ShowMessageParams(
                    lsp.MessageType.Warning,
                    "ordo fmt: not formatted: fix the errors of the records first",
                )
            )
        return edits

    def symbols(ls: OrdServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        found = ls.document(params.text_document.uri)
        return [] if found is None else features.symbols(*found)

    handlers: list[tuple[str, Any, Any]] = [
        (lsp.TEXT_DOCUMENT_DID_OPEN, did_open, None),
        (lsp.TEXT_DOCUMENT_DID_CHANGE, did_change, None),
        (lsp.TEXT_DOCUMENT_DID_CLOSE, did_close, None),
        (lsp.TEXT_DOCUMENT_HOVER, hover, None),
        (
            lsp.TEXT_DOCUMENT_COMPLETION,
            completion,
            lsp.CompletionOptions(trigger_characters=[" ", "["]),
        ),
        (
            lsp.TEXT_DOCUMENT_CODE_ACTION,
            code_action,
            lsp.CodeActionOptions(
                code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.SourceFixAll]
            ),
        ),
        (lsp.TEXT_DOCUMENT_FORMATTING, formatting, None),
        (lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, symbols, None),
    ]
    for name, handler, options in handlers:
        ls.feature(name, options)(handler)
    return ls


def serve() -> None:
    """Answer an editor on standard input and output until it says exit.
    The messages go out on a copy of standard output, which pygls closes at
    the end; anything else printed goes to standard error, not into them."""
    with os.fdopen(os.dup(sys.stdout.fileno()), "wb") as out, redirect_stdout(sys.stderr):
        ls = server()
        with suppress(BrokenPipeError, KeyboardInterrupt, SystemExit):
            asyncio.run(Wire(ls.protocol, sys.stdin.buffer, out).run())

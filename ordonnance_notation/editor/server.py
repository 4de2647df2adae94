"""``ordo lsp``: the language server, on pygls, over standard input and
output. Only this module knows pygls; what each request answers is in
``documents``, ``features`` and ``actions``.

Diagnostics are published once the text has rested ``REST`` seconds after
the last change, checked on a thread of their own so that hovers and
completions are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout
from importlib.metadata import version
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from . import actions, features
from .documents import Document
from .places import Lines, lsp_diagnostic

REST = 0.2
"""Seconds without a change before a document is checked again."""


class OrdServer(LanguageServer):
    """The server and the documents it has open."""

    def __init__(self) -> None:
        super().__init__("ordo", version("ordonnance-notation"))
        self.documents: dict[str, Document] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.checker = ThreadPoolExecutor(1, thread_name_prefix="ordo-check")

    def document(self, uri: str) -> tuple[Document, Lines]:
        """The document at ``uri`` cut as its text now stands, and its lines."""
        document = self.documents.get(uri)
        if document is None:
            document = self.documents[uri] = Document(to_fs_path(uri) or uri)
        document.cut(self.workspace.get_text_document(uri).source)
        return document, document.lines(self.workspace.position_codec.client_num_units)

    def changed(self, uri: str, rest: float) -> None:
        """Check ``uri`` again once it has rested ``rest`` seconds."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.ensure_future(self._check(uri, rest))

    async def _check(self, uri: str, rest: float) -> None:
        await asyncio.sleep(rest)
        text_document = self.workspace.get_text_document(uri)
        text, version = text_document.source, text_document.version
        document = self.documents.setdefault(uri, Document(to_fs_path(uri) or uri))
        units = self.workspace.position_codec.client_num_units

        def check() -> list[lsp.Diagnostic]:
            found = document.diagnostics(text)
            lines = document.lines(units)
            return [lsp_diagnostic(d, lines, uri) for d in found]

        published = await asyncio.get_running_loop().run_in_executor(self.checker, check)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri, published, version)
        )


def server() -> OrdServer:
    """A server with every feature registered."""
    ls = OrdServer()

    def did_open(ls: OrdServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, 0)

    def did_change(ls: OrdServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.changed(params.text_document.uri, REST)

    def did_close(ls: OrdServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        ls.documents.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri, []))

    def hover(ls: OrdServer, params: lsp.HoverParams) -> lsp.Hover | None:
        document, lines = ls.document(params.text_document.uri)
        return features.hover(document, lines, params.position)

    def completion(ls: OrdServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        document, lines = ls.document(params.text_document.uri)
        items = features.completion(document, lines, params.position)
        return lsp.CompletionList(is_incomplete=False, items=items)

    def code_action(ls: OrdServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        document, lines = ls.document(uri)
        return actions.code_actions(document, lines, uri, params.range, params.context.only)

    def formatting(
        ls: OrdServer, params: lsp.DocumentFormattingParams
    ) -> list[lsp.TextEdit] | None:
        document, lines = ls.document(params.text_document.uri)
        edits = actions.formatting(document, lines, document.text)
        if edits is None:
            ls.window_show_message(
                lsp.ShowMessageParams(
                    lsp.MessageType.Warning,
                    "ordo fmt: not formatted: fix the errors of the records first",
                )
            )
        return edits

    def symbols(ls: OrdServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        document, lines = ls.document(params.text_document.uri)
        return features.symbols(document, lines)

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
            lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
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
        server().start_io(sys.stdin.buffer, out)

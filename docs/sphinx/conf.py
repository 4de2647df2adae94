"""Sphinx configuration of the site: the pages docs/*.md and the docstrings.

It lives in docs/sphinx/, not docs/: docs/ is installed as the package
``ordonnance_notation.docs``, and a conf.py there would be installed with it.
The one build command, from the top of the repository (.ci/run runs it):

    python -m sphinx -W --keep-going -c docs/sphinx docs build/docs

It needs the package installed with the extra (``pip install -e '.[docs]'``,
or ``pip install '.[docs]'`` as .ci/run does): Pygments finds the lexer of
the ```ord blocks by the package's entry point. autodoc imports
``ordonnance_notation`` as Python finds it: ``python -m sphinx`` puts the
current folder first on sys.path, so from the top of the checkout that is the
source tree, with or without the compiled core (the docstrings are the same).
"""

from __future__ import annotations

import os
import sys

from docutils import nodes
from pygments.lexers.special import TextLexer
from sphinx.application import Sphinx

import ordonnance_notation

project = "Ordonnance notation"
author = "the Ordonnance notation contributors"
project_copyright = author
version = release = ordonnance_notation.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]

# The pages are the Markdown files of docs/, and nothing else there is one:
# this folder holds the configuration, docs/diagnostics/ the template, cases
# and script that write docs/diagnostics.md (__init__.py and
# archive.schema.json are not source files to Sphinx).
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["sphinx", "diagnostics"]

html_theme = "alabaster"
html_title = f"Ordonnance notation {release}"

# `x` in a docstring is code, as on the pages, not a reference to look up.
default_role = "literal"

# [x](analysis.md#some-heading) and [x](#some-heading): the anchors GitHub
# makes for the headings of levels 1 to 3.
myst_heading_anchors = 3

# The API page documents ordonnance_notation.__all__, in its order.
autodoc_member_order = "bysource"

# Every reference must resolve: a type in a signature that the site does not
# document is an error, unless it is one of these.
nitpicky = True
_REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
nitpick_ignore_regex = [
    # the standard library's types (the site has no copy of Python's inventory:
    # intersphinx would fetch it at every build)
    ("py:.*", "(?:" + "|".join(sorted(sys.stdlib_module_names)) + r")\..+"),
]
nitpick_ignore = [
    # types the public signatures mention that ordonnance_notation.__all__
    # does not export (yet): each one exported is documented, and goes from here
    ("py:class", "ordonnance_notation.checking.report.Step"),
    ("py:class", "ordonnance_notation.diagnostics.Related"),
    ("py:class", "ordonnance_notation.diagnostics.Span"),
    ("py:class", "ordonnance_notation.engine.armies.Unit"),
    ("py:class", "ordonnance_notation.notation.record.Comment"),
    ("py:class", "ordonnance_notation.notation.record.Declared"),
    ("py:class", "ordonnance_notation.notation.record.Gap"),
    ("py:class", "ordonnance_notation.notation.record.Hand"),
    ("py:class", "ordonnance_notation.notation.record.Pile"),
    ("py:class", "ordonnance_notation.notation.record.Play"),
    ("py:class", "ordonnance_notation.notation.record.ResultLine"),
    ("py:class", "ordonnance_notation.notation.record.Tag"),
    ("py:class", "ordonnance_notation.views.report.Player"),
    ("py:class", "ordonnance_notation.engine.bestplay.BestPlay"),
    ("py:class", "ordonnance_notation.making.judging.RecordJudgement"),
    ("py:class", "ordonnance_notation.engine.decisions.Analysis"),
    ("py:class", "Json"),  # views.report's alias: a value json.dumps writes
]


def _outside_docs(repository: str) -> list[tuple[str, str]]:
    """The links from a page to the repository outside docs/ that must not fail.

    A link to a Markdown file ([bench/README.md](../bench/README.md#bots)) or
    to a folder ([engine/](../ordonnance_notation/engine/)) works on GitHub and
    in the checkout; the site has no such page, and the link reads as its text
    there. (A link to any other file is copied into the site, a download.) A
    link to a file or folder that does not exist is still an error."""
    ignored = []  # docs/ itself is left out below: its pages are the site's
    for top, folders, files in os.walk(repository):
        folders[:] = [
            name
            for name in folders
            if not name.startswith(".")
            and name not in ("build", "node_modules", "__pycache__")
            and not name.endswith(".egg-info")
            and not (top == repository and name == "docs")
        ]
        for name in folders:
            link = "../" + os.path.relpath(os.path.join(top, name), repository).replace(os.sep, "/")
            ignored += [("myst", link), ("myst", link + "/")]
        ignored += [
            ("myst", os.path.join(top, name.removesuffix(".md")))  # myst's name for it
            for name in files
            if name.endswith(".md")
        ]
    return ignored


nitpick_ignore += _outside_docs(_REPOSITORY)


def _ord_blocks_as_written(app: Sphinx, doctree: nodes.document) -> None:
    """An ```ord block is shown even where its lexer finds broken text.

    The lexer of the notation (ordonnance_notation.views.lexer) marks broken
    text as an error token and goes on, and the pages show broken records on
    purpose (docs/diagnostics.md); without this each such block would be the
    warning "Lexing literal_block ... resulted in an error" (the ``:force:``
    of a code-block directive, which a plain Markdown fence cannot say)."""
    for block in doctree.findall(nodes.literal_block):
        if block.get("language") == "ord":
            block["force"] = True


def _no_bare_object(
    app: Sphinx, name: str, obj: object, options: object, bases: list[type]
) -> None:
    """``Bases: object`` says nothing: a class with no other base shows none.
    A private base (``cards._Named``) shows as its own bases: it is how the
    class is written, not what it is."""
    if bases == [object]:
        bases.clear()
    for index, base in reversed(list(enumerate(bases))):
        if base.__name__.startswith("_"):
            bases[index : index + 1] = [b for b in base.__bases__ if b not in bases]


def setup(app: Sphinx) -> None:
    # the grammar on docs/notation.md: Pygments has no lexer for Lark's syntax
    app.add_lexer("lark", TextLexer)
    app.connect("doctree-read", _ord_blocks_as_written)
    app.connect("autodoc-process-bases", _no_bare_object)

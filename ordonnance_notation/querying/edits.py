"""The edits ``ordo select`` can make to the records it writes: tags set or
dropped, comments or glyphs stripped, records numbered in a tag.

An edit changes only what it names: every other byte of the record stays as
written. Comments are found as the cutter finds them (``code_spans``), so a
``{`` or ``;`` inside a quoted value is no comment; a line left blank by an
edit goes, since a blank line would cut the record in two.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..notation import terminals as t
from ..notation.cutting import code_spans
from ..notation.writer import tag_line, tag_rank
from .content import QueryError

_TAG = re.compile(f"\\[[ \\t]*({t.TAG_NAME})[ \\t]+({t.STRING})[ \\t]*\\]")
_GLYPH = re.compile(f"({t.STRING})|[ \\t]*(?:{'|'.join(map(re.escape, t.GLYPHS))})")
_TAG_NAME = re.compile(f"(?:{t.TAG_NAME})\\Z")
_BODY = re.compile(f"^[ \\t]*(?:{t.PLY})", re.MULTILINE)  # the first play: the header ends


_NOT_NUMBERS = frozenset(n.casefold() for n in ("Notation", "Scoring", "Points", "Result"))
"""Tags whose values the validator reads: a record's number in one makes it invalid."""


def _name(name: str, option: str) -> str:
    if not _TAG_NAME.match(name.strip()):
        raise QueryError(f"{option} {name!r}: a tag's name is a letter, then letters, digits or _")
    return name.strip()


@dataclass(frozen=True, slots=True)
class Edits:
    """What to change in each record written: tags to set (name, value) and
    to drop (names, whatever their case), comments and glyphs to strip, and
    the tag to number the records in (1, 2, ... in the order written)."""

    set_tags: tuple[tuple[str, str], ...] = ()
    drop_tags: tuple[str, ...] = ()
    strip_comments: bool = False
    strip_glyphs: bool = False
    number_tag: str | None = None

    @classmethod
    def of(
        cls,
        set_tags: Iterable[str] = (),
        drop_tags: Iterable[str] = (),
        strip_comments: bool = False,
        strip_glyphs: bool = False,
        number_tag: str | None = None,
    ) -> Edits:
        """Edits from the words of ``ordo select``'s options (QueryError: one unreadable)."""
        setting = []
        for text in set_tags:
            name, equals, value = text.partition("=")
            if not equals:
                raise QueryError(f"--set-tag {text!r}: write NAME=VALUE, e.g. Event='Lyon open'")
            name = _name(name, "--set-tag")
            if "\r" in value or not _TAG.fullmatch(tag_line(name, value)):  # a CR ends a line too
                raise QueryError(
                    f"--set-tag {text!r}: a tag's value is one line (no line break or return)"
                )
            setting.append((name, value))
        numbering = None if number_tag is None else _name(number_tag, "--renumber")
        if numbering is not None and numbering.casefold() in _NOT_NUMBERS:
            raise QueryError(
                f"--renumber {numbering}: its value is no record's number; name another tag, "
                "e.g. Round"
            )
        return cls(
            tuple(setting),
            tuple(_name(name, "--drop-tag") for name in drop_tags),
            strip_comments,
            strip_glyphs,
            numbering,
        )

    def made(self, text: str) -> str:
        """``text``, a record, with the edits made (but the numbering)."""
        if not (self.set_tags or self.drop_tags or self.strip_comments or self.strip_glyphs):
            return text
        setting = {name.casefold(): (name, value) for name, value in self.set_tags}
        dropping = frozenset(name.casefold() for name in self.drop_tags)
        return _edited(text, setting, dropping, self.strip_comments, self.strip_glyphs)

    def numbered(self, text: str, number: int) -> str:
        """``text``, the ``number``-th record written, with its number in the numbering tag."""
        if self.number_tag is None:
            return text
        setting = {self.number_tag.casefold(): (self.number_tag, str(number))}
        return _edited(text, setting, frozenset(), False, False)


NO_EDITS = Edits()

Setting = dict[str, tuple[str, str]]  # by the name folded: the name as given, the value


def _edited(
    text: str,
    setting: Setting,
    dropping: frozenset[str],
    comments: bool,
    glyphs: bool,
    careful: bool = False,
) -> str:
    """``text`` with the tags of ``setting`` set in its header (added where
    ``ordo fmt`` puts them when missing), those of ``dropping`` dropped, and comments
    and glyphs stripped when asked. A header of tags alone, a tag a line and
    no comment, takes a quicker way to the same text (unless ``careful``)."""
    comments = comments and ("{" in text or ";" in text)
    glyphs = glyphs and ("!" in text or "?" in text)
    tagging = bool(setting or dropping)
    if not (comments or glyphs):
        if not tagging:
            return text
        body = _BODY.search(text)  # tags are edited in the header: the rest stays
        head = text if body is None else text[: body.start()]
        if not careful and "{" not in head and ";" not in head:
            quick = _plain_header(head, setting, dropping)
            if quick is not None:
                return quick + text[len(head) :]
    found: set[str] = set()
    # a line opening a comment is read with care whatever the edits: a tag in it is no tag
    wanted = re.compile(
        "[" + re.escape("{" + "[" * tagging + ";" * comments + "!?" * glyphs) + "]"
    ).search
    out: list[str] = []
    tag_lines: list[tuple[int, int]] = []  # each line holding a tag: its place in out, its rank
    first_code: int | None = None
    in_brace = False
    body = _BODY.search(text)
    header = (
        text.count("\n", 0, body.start()) if body is not None else -1
    )  # lines before the first play
    for number, line in enumerate(text.split("\n")):
        if number == header:
            tagging = False  # tags are edited in the header only, as without comments
        if not in_brace and not wanted(line):
            if first_code is None and line.strip():
                first_code = len(out)
            out.append(line)
            continue
        if in_brace or "{" in line or ";" in line:
            spans, in_brace = code_spans(line, in_brace)
        else:
            spans = [(0, len(line))]
        pieces = []
        end = 0
        tagged: list[str] = []
        for start, stop in spans:
            if start > end and not comments:
                pieces.append(line[end:start])
            code = line[start:stop]
            if glyphs:
                code = _GLYPH.sub(_string, code)
            if tagging and "[" in code:
                code, kept = _tags(code, setting, dropping, found)
                tagged += kept
            if comments and pieces and code[:1].strip() and pieces[-1][-1:].strip():
                pieces.append(" ")  # a comment between two words kept them apart
            pieces.append(code)
            end = stop
        if end < len(line) and not comments:
            pieces.append(line[end:])
        edited = "".join(pieces)
        if edited != line:
            edited = edited.rstrip()
            if not edited.strip() and line.strip():
                continue
        if first_code is None and any(line[a:b].strip() for a, b in spans):
            first_code = len(out)
        if tagged:
            tag_lines.append((len(out), tag_rank(tagged[0])))
        out.append(edited)
    return _with_missing(out, setting, found, tag_lines, first_code)


def _plain_header(head: str, setting: Setting, dropping: frozenset[str]) -> str | None:
    """``_edited`` of a header without comments, each of its lines holding a
    ``[`` a tag alone; None for any other header. What the careful way does
    to such a line, line for line (tests hold the two together)."""
    out: list[str] = []
    tag_lines: list[tuple[int, int]] = []
    first_code: int | None = None
    found: set[str] = set()
    for line in head.split("\n"):
        kept = line
        if "[" in line:
            match = _TAG.search(line)
            if match is None or line[: match.start()].strip() or line[match.end() :].strip():
                return None
            folded = match.group(1).casefold()
            if folded in dropping:
                continue
            if first_code is None:
                first_code = len(out)
            if folded in setting:
                found.add(folded)
                edited = line[: match.start()] + tag_line(match.group(1), setting[folded][1])
                if edited + line[match.end() :] != line:
                    kept = edited
            tag_lines.append((len(out), tag_rank(match.group(1))))
        elif first_code is None and line.strip():
            first_code = len(out)
        out.append(kept)
    return _with_missing(out, setting, found, tag_lines, first_code)


def _with_missing(
    out: list[str],
    setting: Setting,
    found: set[str],
    tag_lines: list[tuple[int, int]],
    first_code: int | None,
) -> str:
    """The lines ``out`` joined, with a line for each tag of ``setting`` not
    ``found`` where ``ordo fmt`` would put it (``tag_rank``): before the first
    tag of ``tag_lines`` that comes after it in that order, else after the
    last tag, else before the first line of code."""
    added: dict[int, list[str]] = {}
    for name in sorted(
        (n for n in setting if n not in found), key=lambda n: tag_rank(setting[n][0])
    ):
        spelled, value = setting[name]
        rank = tag_rank(spelled)
        later = [at for at, other in tag_lines if other > rank]
        if later:
            where = later[0]
        elif tag_lines:
            where = tag_lines[-1][0] + 1
        else:
            where = first_code or 0
        added.setdefault(where, []).append(tag_line(spelled, value))
    for where in sorted(added, reverse=True):
        out[where:where] = added[where]
    return "\n".join(out)


def _string(match: re.Match[str]) -> str:
    """What ``_GLYPH`` keeps of its match: a quoted value, never a glyph."""
    return match.group(1) or ""


def _tags(
    code: str, setting: Setting, dropping: frozenset[str], found: set[str]
) -> tuple[str, list[str]]:
    """``code`` with its tags set or dropped, and the names of those that stay
    in it; ``found`` learns the tags set that it holds."""
    kept: list[str] = []

    def edited(match: re.Match[str]) -> str:
        name = match.group(1)
        folded = name.casefold()
        if folded in dropping:
            return ""
        kept.append(name)
        if folded in setting:
            found.add(folded)
            return tag_line(name, setting[folded][1])
        return match.group()

    return _TAG.sub(edited, code), kept


def tag_value(text: str, name: str) -> str | None:
    """The value of the first tag called ``name`` (whatever its case) in
    ``text``, a record, outside its comments; None when it has none."""
    folded = name.casefold()
    in_brace = False
    for line in text.split("\n"):
        if not in_brace and "[" not in line and "{" not in line:
            continue
        spans, in_brace = code_spans(line, in_brace)
        for start, end in spans:
            for match in _TAG.finditer(line, start, end):
                if match.group(1).casefold() == folded:
                    return t.unquote(match.group(2))
    return None

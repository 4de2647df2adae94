"""Build docs/diagnostics.md from template.md and the cases beside this script.

    python docs/diagnostics/build.py           rewrite docs/diagnostics.md
    python docs/diagnostics/build.py --check   exit 1, with a diff, if it is stale

Every output in the page is produced here, in this process, by the installed
``ordonnance_notation`` package: the ``ordo`` app is run with Typer's
CliRunner, from a fresh temporary directory, so paths print as written
(``game.ord``). Nothing runs through a shell and ``ordo`` need not be on PATH.

Directives of template.md (each alone on a line):

  @@ORD case [ranges]@@   ```ord block with cases/<case>.ord; ranges like 1-9,18-20
                          keep only those lines, and each gap becomes a line "..."
  @@OUT case [args]@@     ```text block: "$ ordo validate [args] game.ord" and its
                          output, with cases/<case>.ord saved as game.ord
  @@MSG case CODE@@       bullet list of the messages of CODE in that case's output
  @@FILE name lang@@      ```lang block with the file <name> beside this script
  @@PYMSG script@@        bullet list of the lines printed by the Python script
                          <script> beside this script (run in a fresh directory)
  @@SH label@@            ```text block: a transcript of the commands on the next
  ...                     lines, up to @@END@@, run in a fresh directory. Only a few
  @@END@@                 commands are understood (see Transcript.run); a command
                          written "!cp SRC DST" is done but not shown, with SRC
                          relative to this script's directory.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import os
import re
import runpy
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from typer.testing import CliRunner

from ordonnance_notation.cli.app import app
from ordonnance_notation.diagnostics import CODES
from ordonnance_notation.views.report import visible

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "template.md"
CASES = HERE / "cases"
TARGET = HERE.parent / "diagnostics.md"
REBUILD = "python docs/diagnostics/build.py"

# Plain text as on a pipe, whatever the environment of the caller.
ENV = {"NO_COLOR": "1", "FORCE_COLOR": None, "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None}
DIRECTIVE = re.compile(r"@@(ORD|OUT|MSG|FILE|PYMSG|SH) (.*?)@@")


class BuildError(Exception):
    """The template, a case or the current output does not make a correct page."""


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A fresh empty directory, made the working directory for the duration."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="ordo-docs-") as name:
        os.chdir(name)
        try:
            yield Path(name)
        finally:
            os.chdir(before)


def ordo(args: list[str], stdin: bytes | None = None) -> tuple[str, int]:
    """Run ``ordo ARGS`` in the working directory: what a terminal shows, and the exit status."""
    result = CliRunner().invoke(
        app, args, input=stdin, env=ENV, catch_exceptions=False, prog_name="ordo"
    )
    return result.output, result.exit_code


def case_text(case: str) -> str:
    path = CASES / f"{case}.ord"
    if not path.is_file():
        raise BuildError(f"no case file {path.relative_to(HERE)}")
    return path.read_text(encoding="utf-8")


def run_case(case: str, args: list[str] | None = None) -> str:
    text = case_text(case)
    with scratch() as directory:
        (directory / "game.ord").write_text(text, encoding="utf-8")
        output, _ = ordo(["validate", *(args or []), "game.ord"])
    return output


def ranges(spec: str, n: int) -> list[tuple[int, int]]:
    if spec in ("", "all"):
        return [(1, n)]
    out = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out.append((int(a), int(b or a)))
    return out


def ord_block(case: str, spec: str) -> str:
    lines = case_text(case).rstrip("\n").split("\n")
    shown: list[str] = []
    last = 0
    for a, b in ranges(spec, len(lines)):
        if a != last + 1:
            shown.append("...")
        shown += lines[a - 1 : b]
        last = b
    if last != len(lines):
        shown.append("...")
    return "```ord\n" + visible("\n".join(shown)) + "\n```"  # no escape reaches a reader's terminal


def out_block(case: str, args: list[str]) -> str:
    output = run_case(case, args)
    command = " ".join(["ordo validate", *args, "game.ord"])
    return f"```text\n$ {command}\n{output.rstrip()}\n```"


def msg_list(case: str, code: str) -> str:
    output = run_case(case)
    messages = re.findall(rf"\[{code}\]: (.*)", output)
    if not messages:
        raise BuildError(f"case {case} does not give {code}:\n{output}")
    return "\n".join(f"- `{m}`" for m in messages)


def file_block(name: str, lang: str) -> str:
    body = (HERE / name).read_text(encoding="utf-8").rstrip("\n")
    return f"```{lang}\n{body}\n```"


def pymsg_list(script: str) -> str:
    printed = io.StringIO()
    with scratch(), contextlib.redirect_stdout(printed):
        runpy.run_path(str(HERE / script), run_name="__main__")
    return "\n".join(f"- `{m}`" for m in printed.getvalue().strip().split("\n"))


def printf_bytes(form: str) -> bytes:
    r"""What bash's ``printf 'FORM'`` writes, for the escapes \n \t \\ \' \" \xHH (no % at all)."""
    if "%" in form:
        raise BuildError(f"printf conversions are not supported: {form!r}")
    out = bytearray()
    i = 0
    while i < len(form):
        char = form[i]
        if char != "\\":
            out += char.encode("utf-8")
            i += 1
        elif form[i + 1 : i + 2] == "x":
            digits = re.match(r"[0-9a-fA-F]{1,2}", form[i + 2 :])
            if not digits:
                raise BuildError(f"bad \\x escape in printf: {form!r}")
            out.append(int(digits.group(), 16))
            i += 2 + len(digits.group())
        elif form[i + 1 : i + 2] in ("n", "t", "\\", "'", '"'):
            out += {"n": b"\n", "t": b"\t", "\\": b"\\", "'": b"'", '"': b'"'}[form[i + 1]]
            i += 2
        else:
            raise BuildError(f"unsupported escape in printf: {form!r}")
    return bytes(out)


class Transcript:
    """A few shell commands, done in-process in a fresh directory, printed as a terminal
    shows them."""

    def __init__(self, label: str, directory: Path) -> None:
        self.label = label
        self.directory = directory
        self.status = 0
        self.lines: list[str] = []

    def fail(self, command: str, why: str) -> BuildError:
        return BuildError(f"@@SH {self.label}@@: {command}: {why}")

    def hidden(self, command: str) -> None:
        words = shlex.split(command)
        if len(words) != 3 or words[0] != "cp":
            raise self.fail(command, "only `!cp SRC DST` can be hidden")
        shutil.copyfile(HERE / words[1], self.directory / words[2])

    def run(self, command: str) -> None:
        """Show and do one of: ``ordo ARGS`` (optionally ``< FILE`` for standard
        input), ``echo $?``, ``mkdir DIR``, ``touch FILE``, ``printf 'TEXT' > FILE``,
        ``python3 -c 'CODE' > FILE``."""
        self.lines.append(f"$ {command}")
        if command == "echo $?":
            self.lines.append(str(self.status))
            return
        words = shlex.split(command)
        output, status = "", 0
        if words[0] == "ordo":
            stdin = None
            if len(words) >= 3 and words[-2] == "<":
                stdin = (self.directory / words[-1]).read_bytes()
                words = words[:-2]
            output, status = ordo(words[1:], stdin)
        elif words[0] == "mkdir" and len(words) == 2:
            (self.directory / words[1]).mkdir()
        elif words[0] == "touch" and len(words) == 2:
            (self.directory / words[1]).touch()
        elif words[0] == "printf" and len(words) == 4 and words[2] == ">":
            (self.directory / words[3]).write_bytes(printf_bytes(words[1]))
        elif words[:2] == ["python3", "-c"] and len(words) == 5 and words[3] == ">":
            made = subprocess.run([sys.executable, "-c", words[2]], capture_output=True, check=True)
            (self.directory / words[4]).write_bytes(made.stdout)
        else:
            raise self.fail(command, "not a command this script knows how to run")
        self.status = status
        if output:
            self.lines.append(output.rstrip("\n"))

    def block(self) -> str:
        return "```text\n" + "\n".join(self.lines) + "\n```"


def shell_block(label: str, commands: list[str]) -> str:
    with scratch() as directory:
        transcript = Transcript(label, directory)
        for command in commands:
            if command.startswith("!"):
                transcript.hidden(command[1:])
            else:
                transcript.run(command)
    return transcript.block()


def check(text: str, scratch_paths: list[str]) -> None:
    """The page must describe every code, in catalogue order, each with real output."""
    lines = text.split("\n")
    for code, title in CODES.items():
        heading = f"### {code} — {title}"
        if heading not in lines:
            raise BuildError(f"missing heading: {heading}")
    headings = re.findall(r"^### ([EWN]\d{3}) ", text, re.MULTILINE)
    if headings != list(CODES):
        raise BuildError(f"headings out of order or extra: {headings}")
    sections = re.split(r"^(?=### [EWN][0-9]{3} )", text, flags=re.MULTILINE)
    for section in sections[1:]:
        code = section.split()[1]
        blocks = re.findall(r"```text\n(.*?)```", section, re.DOTALL)
        if not any(f"[{code}]" in b or b.startswith(f"{code} ") for b in blocks):
            raise BuildError(f"section {code} shows no output with [{code}]")
    for path in ["/tmp/", *scratch_paths]:
        if path in text:
            raise BuildError(f"scratch path {path} leaked into the document")


def render() -> str:
    """The text of docs/diagnostics.md for the installed package."""
    template = TEMPLATE.read_text(encoding="utf-8").split("\n")
    result: list[str] = []
    i = 0
    while i < len(template):
        line = template[i]
        m = DIRECTIVE.fullmatch(line)
        if not m:
            if line.startswith("@@"):
                raise BuildError(f"template line {i + 1}: unknown directive {line}")
            result.append(line)
            i += 1
            continue
        kind, rest = m.groups()
        words = rest.split()
        if kind == "ORD":
            result.append(ord_block(words[0], words[1] if len(words) > 1 else ""))
        elif kind == "OUT":
            result.append(out_block(words[0], words[1:]))
        elif kind == "MSG":
            result.append(msg_list(words[0], words[1]))
        elif kind == "FILE":
            result.append(file_block(words[0], words[1]))
        elif kind == "PYMSG":
            result.append(pymsg_list(words[0]))
        else:
            commands = []
            i += 1
            while template[i] != "@@END@@":
                commands.append(template[i])
                i += 1
                if i == len(template):
                    raise BuildError(f"@@SH {rest}@@ has no @@END@@")
            result.append(shell_block(words[0], commands))
        i += 1
    text = "\n".join(result)
    temp = tempfile.gettempdir()
    check(text, [temp, os.path.realpath(temp)])
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build docs/diagnostics.md from the current code.")
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 with a diff if the page is stale"
    )
    options = parser.parse_args(argv)
    try:
        text = render()
    except BuildError as error:
        print(f"build.py: {error}", file=sys.stderr)
        return 2
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if options.check:
        if current == text:
            print(f"{TARGET.name} is up to date")
            return 0
        diff = difflib.unified_diff(
            current.splitlines(keepends=True),
            text.splitlines(keepends=True),
            "docs/diagnostics.md",
            "docs/diagnostics.md (rebuilt)",
        )
        for line in diff:
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        print(f"\ndocs/diagnostics.md is stale: run `{REBUILD}`")
        return 1
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET} ({len(text)} chars)")
    else:
        print(f"{TARGET.name} is up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a run came to, and the one rule that makes it an exit status."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..checking.verdicts import Checked
from ..diagnostics import InputError, UnreadableSource

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
EXIT_INTERNAL = 3  # a bug in ordo: nothing the input did
EXIT_BROKEN_PIPE = 128 + 13  # as a process ended by SIGPIPE: the reader went away


def exit_status(*, io_error: bool = False, failed: bool = False) -> int:
    """The one rule for every command: 2 when some file could not be read or
    written at all, else 1 when some input was read and found wanting, else 0."""
    if io_error:
        return EXIT_USAGE
    return EXIT_INVALID if failed else EXIT_VALID


@dataclass(slots=True)
class Tally:
    """What a run over many inputs came to: inputs read, records, invalid
    records, errors and warnings, and the inputs that could not be used."""

    files: int = 0
    records: int = 0
    invalid: int = 0
    errors: int = 0
    warnings: int = 0
    problems: list[InputError] = field(default_factory=list)
    unusable: bool = (
        False  # an input or output that could not be used at all (a deck, a file to write)
    )

    def add(self, item: Checked | InputError) -> None:
        if isinstance(item, InputError):
            self.problems.append(item)
            self.errors += 1
            return
        self.records += 1
        self.invalid += not item.valid
        self.errors += item.errors
        self.warnings += item.warnings

    @property
    def unreadable(self) -> bool:
        """Whether some input could not be read at all (as opposed to read and found wrong)."""
        return any(isinstance(p, UnreadableSource) for p in self.problems)

    @property
    def all_valid(self) -> bool:
        return not self.invalid and not self.problems

    def status(self, failed: bool = False) -> int:
        """The exit status of the run: ``exit_status`` of what it met, and of
        ``failed``, what the command found wanting besides."""
        return exit_status(
            io_error=self.unreadable or self.unusable,
            failed=failed or not self.all_valid,
        )

"""Write the cutting table (``cut_table.STEPS``) as the C header the
compiled core includes, ``checking/_cutting.h``.

    python -m ordonnance_notation.notation.cut_header           rewrite it
    python -m ordonnance_notation.notation.cut_header --check   exit 1 if it is stale

tests/test_cutting.py fails while it is stale.
"""

from __future__ import annotations

import sys
from enum import IntEnum, IntFlag
from pathlib import Path

from .cut_table import STEPS, Do, Kind, State

HEADER = Path(__file__).resolve().parent.parent / "checking" / "_cutting.h"
REWRITE = "python -m ordonnance_notation.notation.cut_header"
_SHIFT = len(Do)  # a step in C: what is done in the low bits, the next state above


def c_header() -> str:
    """``STEPS`` as the C header ``checking/_cutting.h``."""
    rows = []
    for state in State:
        rows.append(f"    [CUT_AT_{state.name}] = {{")
        for kind in Kind:
            do, after = STEPS[state][kind]
            done = [f"CUT_DO_{flag.name}" for flag in Do if flag & do]
            rows.append(
                f"        [CUT_LINE_{kind.name}] = "
                + " | ".join([*done, f"CUT_AT_{State(after).name} << CUT_SHIFT"])
                + ","
            )
        rows.append("    },")
    return "\n".join(
        [
            "/* Where records start: the cutting table of notation/cut_table.py (its",
            " * docstring tells the states, the kinds of line and what a step does),",
            f" * written by notation/cut_header.py ({REWRITE}):",
            " * do not edit it. cut_steps[state][kind]: what is done (CUT_DO_*, in",
            " * their order) and, above CUT_SHIFT, the next state. */",
            "#ifndef ORDO_CUTTING_H",
            "#define ORDO_CUTTING_H",
            "",
            _enum("CUT_AT_", State),
            _enum("CUT_LINE_", Kind),
            _enum("CUT_DO_", Do),
            f"#define CUT_SHIFT {_SHIFT}",
            "",
            f"static const unsigned short cut_steps[{len(State)}][{len(Kind)}] = {{",
            *rows,
            "};",
            "",
            "#endif",
            "",
        ]
    )


def _enum(prefix: str, members: type[IntEnum] | type[IntFlag]) -> str:
    return "enum {\n" + "".join(f"    {prefix}{m.name} = {m.value},\n" for m in members) + "};"


def main(argv: list[str]) -> int:
    written = c_header()
    if argv[1:] == ["--check"]:
        stale = HEADER.read_text("utf-8") != written
        if stale:
            print(f"{HEADER} is stale: run `{REWRITE}`", file=sys.stderr)
        return int(stale)
    HEADER.write_text(written, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

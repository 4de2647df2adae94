# Other forms of the E003 message, one per line (for @@PYMSG@@).
from ordonnance_notation.archives.document import ArchiveError, load

RECORD = "schema_version: 1\nrecords:\n- tags:\n  - {name: P1, value: Anna}\n"


def show(text: str, kind: str = "yaml") -> None:
    try:
        load(text, f"a.{kind}", kind)
    except ArchiveError as error:
        assert error.diagnostic.code == "E003", error.diagnostic
        print(error.diagnostic.message)
    else:
        raise AssertionError(f"no ArchiveError for {text!r}")


show("records: [\n")
show('{"records": }', "json")
show("")
show("schema_version: 1\nrecords:\n- &game {tags: []}\n- *game\n")
show("schema_version: 2\nrecords: []\n")
show("schema_version: 1\n")
show("schema_version: 1\nrecords: {}\n")
show(RECORD + "  body:\n  - {card: HF, state: A}\n")
show(RECORD + "  body:\n  - {ply: 1, card: HF, state: 7}\n")
show(RECORD + "  body:\n  - {ply: 1, card: HF, state: A, glyph: '!!!'}\n")

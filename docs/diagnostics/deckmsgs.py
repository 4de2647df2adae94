# Every form of the E006 message but the one shown in full, one per line (for @@PYMSG@@).
from ordonnance_notation.making.dealing import DeckError, parse_deck


def show(text: str) -> None:
    try:
        parse_deck(text, "d.yaml")
    except DeckError as error:
        assert error.diagnostic.code == "E006", error.diagnostic
        print(error.diagnostic.message)
    else:
        raise AssertionError(f"no DeckError for {text!r}")


show("cards: [HF\n")
show("- HF\n")
show("name: x\n")
show("cards: HF\n")
show("cards:\n  HF: 3\n  FH: 1\n")
show("cards:\n  HF: three\n")
show("cards:\n  HF: 3\n")

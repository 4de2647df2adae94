# hidden: every form of the E006 message, one per line
from ordonnance_notation.dealing import DeckError, load_deck, parse_deck

def show(f):
    try:
        f()
    except DeckError as error:
        print(error.diagnostic.message)

show(lambda: load_deck("missing.yaml"))
show(lambda: parse_deck("cards: [HF\n", "d.yaml"))
show(lambda: parse_deck("- HF\n", "d.yaml"))
show(lambda: parse_deck("name: x\n", "d.yaml"))
show(lambda: parse_deck("cards: HF\n", "d.yaml"))
show(lambda: parse_deck("cards:\n  HF: 3\n  FH: 1\n", "d.yaml"))
show(lambda: parse_deck("cards:\n  HF: three\n", "d.yaml"))
show(lambda: parse_deck("cards:\n  HF: 3\n", "d.yaml"))

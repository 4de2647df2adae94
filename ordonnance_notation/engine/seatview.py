"""What one seat knows at a position, and the deals it cannot tell apart.

A seat sees its own hand (with the turn's draw when it is to move), every
play on the table, how many cards each hand and the pile hold, and the
deck's composition: the reference deck, a deck file, or the cards of the
record's own deal taken as a set, never their order. It does not see the
other hands or the order of the pile. ``SeatView`` holds exactly that and
nothing else, so nothing computed from it can depend on a hidden card;
``SeatView.sample`` deals the unseen cards again, every shuffle of them
equally likely, as a shuffled deck would have dealt them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, seat_name
from .game import Game
from .rng import Rng


class UnknownDeal(ValueError):
    """The position cannot be seen from a seat: the hands are not known (a
    record without a deal), or the deck cannot hold what the table shows."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` knows of a position: the table (``table``: the armies,
    the markers and the ply, with no hand and no pile), its own hand
    (``hand``, sorted; with the turn's draw, ``drew``, when it is to move),
    the cards it has not seen (``unseen``, sorted: the other hands, the
    pile and, where the deck holds more than the deal, the cards out of
    play), the size of every hand (``hand_sizes``, its own without the
    turn's draw) and of the pile still to be drawn (``pile_size``, after
    its own draw)."""

    seat: int
    table: Game
    hand: tuple[Card, ...]
    drew: Card | None
    unseen: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    pile_size: int

    @classmethod
    def of(cls, game: Game, seat: int, deck: Iterable[Card] | None = None) -> SeatView:
        """What ``seat`` knows of ``game``. The deck is the cards of the
        game's own deal unless given (every copy: two boxes for three or
        four seats are twice a box's cards). Raises UnknownDeal without a
        deal, or when the deck does not hold the cards the seat sees."""
        if game.hands is None or game.pile is None:
            raise UnknownDeal(
                "the record has no deal, so the cards in the seats' hands are unknown"
            )
        if not 0 <= seat < game.seats:
            raise ValueError(f"no seat {seat} at a table of {game.seats}")
        drew = game.next_draw() if seat == game.to_move and not game.over else None
        held = game.hands[seat]
        hand = tuple(sorted((*held, drew) if drew is not None else held, key=_mask))
        on_table = [card for row in game.armies for army in row for card in army.cards]
        if deck is None:
            deck = [
                *on_table,
                *(c for hand_ in game.hands for c in hand_),
                *game.pile[game.drawn :],
            ]
        missing = Counter(on_table) + Counter(hand) - Counter(deck)
        if missing:
            shown = " ".join(str(card) for card in sorted(missing.elements(), key=_mask))
            raise UnknownDeal(
                f"the deck does not hold every card on the table and in {seat_name(seat)}'s "
                f"hand: {shown} too many"
            )
        unseen = Counter(deck) - Counter(on_table) - Counter(hand)
        sizes = tuple(len(h) for h in game.hands)
        pile_size = len(game.pile) - game.drawn - (drew is not None)
        if sum(unseen.values()) < sum(sizes) - sizes[seat] + pile_size:
            raise UnknownDeal(
                f"the deck holds {sum(unseen.values())} cards {seat_name(seat)} has not seen, "
                f"fewer than the other hands and the pile hold"
            )
        table = Game(game.seats, game.armies, None, None, 0, game.resolutions, game.ply)
        return cls(
            seat,
            table,
            hand,
            drew,
            tuple(sorted(unseen.elements(), key=_mask)),
            sizes,
            pile_size,
        )

    def sample(self, rng: Rng) -> Game:
        """A whole game the seat cannot tell from the real one: its own hand
        and the table as they are, the unseen cards shuffled (``rng``) and
        dealt to the other hands, each as many as it holds, then to the pile."""
        cards = rng.shuffle(self.unseen)
        return self.dealt(cards)

    def dealt(self, cards: Sequence[Card]) -> Game:
        """The game with the other hands and the pile taken, in seat order,
        from ``cards`` (the unseen cards in some order)."""
        hands: list[tuple[Card, ...]] = []
        taken = 0
        for other, size in enumerate(self.hand_sizes):
            if other == self.seat:
                own = list(self.hand)
                if self.drew is not None:
                    own.remove(self.drew)
                hands.append(tuple(own))
            else:
                hands.append(tuple(cards[taken : taken + size]))
                taken += size
        pile = tuple(cards[taken : taken + self.pile_size])
        if self.drew is not None:
            pile = (self.drew, *pile)
        table = self.table
        return Game(table.seats, table.armies, tuple(hands), pile, 0, table.resolutions, table.ply)


def _mask(card: Card) -> int:
    return card.mask

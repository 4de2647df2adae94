"""Making games: decks and deals, bots, and self-played archives."""

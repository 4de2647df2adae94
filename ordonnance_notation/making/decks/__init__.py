"""Deck files shipped with the package (the reference deck, rules.md D3)."""

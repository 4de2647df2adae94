"""Working with archives as collections of games: choosing records
(``select``) and keeping each game once (``dedup``)."""

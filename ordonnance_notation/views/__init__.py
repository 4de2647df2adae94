"""Views of checked games: reports as text and JSON, replays step by step, the
board, summaries and statistics."""

"""The .ord notation: the record model and the parser that fills it."""

"""The rules of Ordonnance, with no knowledge of any text format.

cards (icons, cards, states) -> armies (formations, comparison) ->
game (turns, resolutions, markers) -> scoring (classic, points).
"""

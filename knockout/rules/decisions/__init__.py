"""How a game's colours and clocks are settled: the typed decisions, the decisions the players
made, the decision games, the strategies that play them and their equilibria.

Floors, each module importing only those below it: :mod:`.kinds` (the typed decisions, and colour
rules added from outside) and :mod:`.regions`; the games (:mod:`.bidding`, :mod:`.choice`,
:mod:`.sealed`, :mod:`.cut`, :mod:`.pace`) and :mod:`.made` (a decision made, as one value from
the file to the walker); their equilibria (:mod:`.equilibrium`, :mod:`.gridgames`); the
strategies (:mod:`.strategies`).
"""

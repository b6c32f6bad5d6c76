"""How a game's colours and clocks are settled: the typed decisions, the decision games, the
strategies that play them and their equilibria.

Floors, each module importing only those below it: :mod:`.kinds` (the typed decisions) and
:mod:`.regions`; the games (:mod:`.bidding`, :mod:`.choice`, :mod:`.sealed`, :mod:`.cut`,
:mod:`.pace`); their equilibria (:mod:`.equilibrium`, :mod:`.gridgames`); the strategies
(:mod:`.strategies`).
"""

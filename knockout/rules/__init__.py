"""The rules of a match and a bracket, in five rooms, each above the one before:

* :mod:`knockout.rules.model`: the player model (one game's chances, players, ratings and their
  uncertainty, the model's constants and their spread);
* :mod:`knockout.rules.book`: the rule book (stages and formats, the presets, the bracket draw,
  walkovers);
* :mod:`knockout.rules.decisions`: how a game's colours and clocks are settled (the typed
  decisions, the decision games and the strategies that play them, their equilibria, the pace);
* :mod:`knockout.rules.chain`: the match chain and the event's progress (where a match stands,
  the games already played, a pairing's chances, the event's settings);
* :mod:`knockout.rules.scenario`: the scenario aggregate (the file's tables, their checks).

Everything else walks these definitions; nothing here walks them. The floors are import-linter
contracts (pyproject.toml).
"""

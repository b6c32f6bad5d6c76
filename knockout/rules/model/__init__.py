"""The player model: one game's chances, players, ratings and the model's constants."""

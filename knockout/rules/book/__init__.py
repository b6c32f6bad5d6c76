"""The rule book: stages and formats, the presets, the bracket draw and walkovers."""

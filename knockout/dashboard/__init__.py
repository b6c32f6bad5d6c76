"""Presentation: rich renderables for every view. Only this package (and the CLI) imports rich."""

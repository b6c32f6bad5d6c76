"""The hall's pages: a small site from an event's state (``knockout event publish`` writes it,
``knockout event serve`` serves it live). Templates in ``templates/`` (Jinja2, every value
escaped); no page loads anything from another site."""

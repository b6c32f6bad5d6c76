"""``knockout odds`` and ``knockout play``: one match, or a bracket, from a scenario file."""

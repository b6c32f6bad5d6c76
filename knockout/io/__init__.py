"""Reading input files (text in any encoding, TOML, CSV rows, scenarios) and the JSON envelope."""

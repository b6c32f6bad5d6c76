"""The scenario aggregate: a scenario file's tables read into one frozen, checked value."""

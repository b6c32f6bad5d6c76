"""The match chain and the event's progress: where a match stands, the games already played,
a pairing's chances, where the event stands and its settings."""

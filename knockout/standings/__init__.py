"""Swiss and round-robin standings: game records, FIDE tie-breaks, TRF-16 and games CSV files.

Independent of the match chain: records know nothing of how a game was produced."""

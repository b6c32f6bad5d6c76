"""Swiss and round-robin events simulated in bulk, and the scoring-reform study."""

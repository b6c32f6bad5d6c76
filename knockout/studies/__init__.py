"""Rule-designer studies: compare schemes, find fair rules, sweep the uncertain constants."""

"""The SimPy walker: matches played move by move on clocks, events on boards, final rankings."""

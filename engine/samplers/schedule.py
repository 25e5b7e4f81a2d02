"""Temperature schedules: annealing is a temperature argument of the same samplers, not a copy."""


def constant(temperature=1.0):
    """The same temperature every sweep."""
    def schedule(sweep):
        return temperature
    return schedule


def anneal(total_sweeps, start=10.0):
    """Liang et al.'s schedule (footnote 7): from ``start`` down to 1 over the first half of the
    run, linearly in the sweep number, then 1.
    """
    if total_sweeps < 1:
        raise ValueError("annealing needs the run's length: total_sweeps >= 1")
    half = total_sweeps / 2.0

    def schedule(sweep):
        if sweep >= half:
            return 1.0
        return start + (1.0 - start) * sweep / half
    return schedule

"""Temperature schedules: annealing is a temperature argument of the same samplers, not a copy."""


def constant(temperature=1.0):
    """The same temperature every sweep."""
    def schedule(sweep):
        return temperature
    return schedule


def anneal(length, start=10.0):
    """Liang et al.'s schedule (footnote 7): from ``start`` down to 1 over the first half of the
    run, linearly, then 1.

    length : the run's planned number of sweeps (the temperature falls with the sweep number),
        or a function of the sweep number giving the share of the run done (a run whose length
        is engine time gives its share of the time: it cools over the first half of its time).
    """
    if callable(length):
        return lambda sweep: _cooling(start, length(sweep), 0.5)
    if length < 1:
        raise ValueError("annealing needs the run's length: total_sweeps >= 1")
    return lambda sweep: _cooling(start, sweep, length / 2.0)


def _cooling(start, done, half):
    """The temperature once ``done`` of the run is over, ``half`` being its first half."""
    if done >= half:
        return 1.0
    return start + (1.0 - start) * done / half

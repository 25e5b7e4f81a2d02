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


def peng_gildea(step=0.1, every=3, top=1.3):
    """Peng & Gildea's annealing (§5.1): z ~ P(z)^β, β rising from ``step`` to ``top`` by
    ``step`` every ``every`` iterations, then falling back by ``step`` to 1 and staying there:
    β = 0.1, 0.2, … 1.3 (iterations 0–38), 1.2, 1.1 (39–44), then 1 from iteration 45. The
    temperature is 1/β."""
    rising = round(top / step)            # β = step … top: this many plateaus
    falling = round((top - 1.0) / step)   # then back down to 1 (its last plateau is 1 itself)

    def schedule(sweep):
        plateau = sweep // every
        if plateau < rising:
            beta = step * (plateau + 1)
        elif plateau < rising + falling:
            beta = top - step * (plateau - rising + 1)
        else:
            beta = 1.0
        return 1.0 / round(beta, 10)
    return schedule

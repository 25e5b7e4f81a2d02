"""A worker process of the live races (engine.live.pool): it holds chains, sweeps the one furthest
behind its target, and sends the new trace rows back.

Started as ``python -m engine.live.chain_worker FD``; FD is its end of a socket pair, read and
written as a multiprocessing Connection (pickled messages). A fresh interpreter rather than
multiprocessing's spawn: spawn re-imports the parent's main module, which in the app is the
Streamlit script.

Messages in
    ("add", race, model, tasks)  start one chain per grid.ChainTask (task.sweeps: its length)
    ("target", race, clock, value)  a chain may sweep while its sweeps (clock "passes") or its
                                    engine seconds (clock "time") are below value
    ("hold", race)               stop sweeping the race's chains (until the next target), send
                                 their new rows, then ("held", race)
    ("drop", race)               forget the race's chains
Messages out
    ("rows", race, index, rows)  new trace rows of the race's chain ``index`` (its task's place)
    ("held", race)               the race's chains stand still and the server has all their rows
    ("error", race, text)        the race's chains could not start or a sweep failed
"""
import os
import sys
import time
from collections import deque
from multiprocessing.connection import Connection

from engine.grid import start_run

FLUSH_SECONDS = 0.2   # new rows wait at most this long before they are sent (a page reads
                      # them every 0.5 s; each message costs the server's GIL its unpickling)
NICENESS = 10         # below the server's priority: drawing the pages comes first


class Chain:
    """One chain and how many of its trace rows the server has."""

    def __init__(self, run):
        self.run = run
        self.sent = 0

    def new_rows(self):
        rows = self.run.trace[self.sent:]
        self.sent = len(self.run.trace)
        return rows


class RaceChains:
    """The chains of one race held by this worker, and their common target."""

    def __init__(self, chains):
        self.chains = chains  # {index: Chain}
        self.clock, self.target = "passes", 0

    def behind(self):
        """The chain furthest behind that may still sweep (None: all have reached it)."""
        best, best_progress = None, None
        for chain in self.chains.values():
            run = chain.run
            if run.finished:
                continue
            progress = run.sweeps_done if self.clock == "passes" else run.seconds
            if progress < self.target and (best is None or progress < best_progress):
                best, best_progress = chain, progress
        return best


class Worker:
    def __init__(self, connection):
        self.connection = connection
        self.races = {}
        self.turn = deque()  # race ids in round-robin order: sessions share the worker
        self.last_flush = time.monotonic()

    def handle(self, message):
        kind, race = message[0], message[1]
        if kind == "add":
            _, _, model, tasks = message
            try:
                chains = {index: Chain(start_run(model, task)) for index, task in tasks}
            except ValueError as err:
                self.connection.send(("error", race, str(err)))
                return
            self.races[race] = RaceChains(chains)
            self.turn.append(race)
            self.flush()  # row 0 of every chain: the page can draw the start at once
        elif kind == "target" and race in self.races:
            self.races[race].clock, self.races[race].target = message[2], message[3]
        elif kind == "hold":  # answered even for a race it does not hold (failed to start)
            if race in self.races:
                self.races[race].clock, self.races[race].target = "passes", -1
            self.flush()
            self.connection.send(("held", race))
        elif kind == "drop" and race in self.races:
            del self.races[race]
            self.turn.remove(race)

    def next_chain(self):
        """The chain to sweep next: races take turns, and within a race the chain furthest
        behind goes first (chains of a race stay at equal sweeps or equal engine time)."""
        for _ in range(len(self.turn)):
            race = self.turn[0]
            self.turn.rotate(-1)
            chain = self.races[race].behind()
            if chain is not None:
                return race, chain
        return None, None

    def flush(self):
        for race, held in self.races.items():
            for index, chain in held.chains.items():
                if chain.sent < len(chain.run.trace):
                    self.connection.send(("rows", race, index, chain.new_rows()))
        self.last_flush = time.monotonic()

    def serve(self):
        while True:
            # the messages first, then the chain: a chain chosen before a hold or a lower
            # target would sweep once past it
            while self.connection.poll():
                self.handle(self.connection.recv())
            race, chain = self.next_chain()
            if chain is None:
                self.flush()
                self.handle(self.connection.recv())  # idle until told something
            else:
                try:
                    chain.run.sweep()
                except Exception as err:  # a kernel failure: report it, keep serving others
                    self.connection.send(("error", race, f"a sweep failed: {err!r}"))
                    self.handle(("drop", race))
            if time.monotonic() - self.last_flush >= FLUSH_SECONDS:
                self.flush()


def main(fd):
    os.nice(NICENESS)
    try:
        Worker(Connection(fd)).serve()
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the server has gone: so does the worker


if __name__ == "__main__":
    main(int(sys.argv[1]))

"""The Viterbi parse of a sentence under a ``Grammar`` (engine/parsing/pcfg.py): CKY over a
sparse chart.

A flattened tree-substitution grammar has up to ~200k symbols, so a chart dense over spans ×
symbols (40 × 41 × 200k × 8 bytes) is out of the question. Each cell instead holds only the
symbols that reach it, as a run of entries in one pool (symbol, score and the pool entries of
its two children); cells are filled by increasing span length, so a cell's run is contiguous.
To fill cell (i, j), for each split k the right cell (k, j) is spread into a dense per-symbol
scratch (``right_entry``: symbol → its entry there), and each left entry B of (i, k) walks the
rules grouped under B, looking its right child up in the scratch; the best score per parent
gathers in a second dense scratch (``best_*``) with a list of the symbols it touched. Both
scratches are reset through the entries that set them, so a cell costs its own work, whatever
the number of symbols.
"""
from typing import NamedTuple

import numpy as np

from engine.core.jit import inline, kernel

FIRST_POOL = 1 << 16  # chart entries; doubled whenever a sentence needs more


class Rules(NamedTuple):
    """The grammar's arrays the chart reads (``Grammar``'s, read only)."""

    word_start: np.ndarray      # int64[n_words + 1]: word w's lexical rules, word_start[w]:[w + 1]
    lexical_symbol: np.ndarray  # int32[L]
    lexical_logp: np.ndarray    # float64[L]
    unknown_symbol: np.ndarray  # int32[U]: the symbols of a word outside the lexicon
    unknown_logp: np.ndarray    # float64[U]
    left_start: np.ndarray      # int64[n_symbols + 1]: the binary rules of left child B
    rule_parent: np.ndarray     # int32[R]
    rule_right: np.ndarray      # int32[R]
    rule_logp: np.ndarray       # float64[R]


class Chart(NamedTuple):
    """The sparse chart: cell (i, j) (0 ≤ i < j ≤ n) is the run
    ``pool[cell_start[i, j]:][:cell_count[i, j]]`` of the pool's entries — a symbol, its best
    log score over the span, and the entries of its left and right children (-1, -1 for a
    word's entry)."""

    cell_start: np.ndarray   # int64[≥ n + 1, ≥ n + 1]
    cell_count: np.ndarray   # int64[≥ n + 1, ≥ n + 1]
    pool_symbol: np.ndarray  # int32[P]
    pool_score: np.ndarray   # float64[P]
    pool_left: np.ndarray    # int32[P]
    pool_right: np.ndarray   # int32[P]


class Scratch(NamedTuple):
    """Dense per-symbol scratch of the cell being filled, each int64 or float64[n_symbols]."""

    right_entry: np.ndarray  # all -1 between splits: a right cell's symbol → its entry
    best_score: np.ndarray   # all -inf between cells: a parent's best score in the cell
    best_left: np.ndarray    # that best's children's entries (any values between cells)
    best_right: np.ndarray
    touched: np.ndarray      # the parents reached in the cell (any values between cells)


@kernel
def fill_chart(word_ids, rules, chart, scratch):
    """Fill the Viterbi chart of one sentence.

    Parameters
    ----------
    word_ids : int64[n]
        The sentence's word ids; -1 for a word outside the lexicon, which takes the unknown
        list.
    rules : Rules
        The grammar's arrays.
    chart : Chart
        Mutated: the sentence's cells and their entries.
    scratch : Scratch
        As on entry on return (``right_entry`` all -1, ``best_score`` all -inf).

    Returns
    -------
    int
        The number of pool entries used, or -1 when the pool is too small (nothing usable is
        left in it; the scratches are reset).
    """
    n = word_ids.shape[0]
    capacity = chart.pool_symbol.shape[0]
    used = 0
    for i in range(n):
        w = word_ids[i]
        if w >= 0:  # a word of the lexicon has a lexical rule
            first, last = rules.word_start[w], rules.word_start[w + 1]
            symbols, logps = rules.lexical_symbol, rules.lexical_logp
        else:
            first, last = 0, rules.unknown_symbol.shape[0]
            symbols, logps = rules.unknown_symbol, rules.unknown_logp
        if used + last - first > capacity:
            return -1
        chart.cell_start[i, i + 1] = used
        chart.cell_count[i, i + 1] = last - first
        for e in range(first, last):
            chart.pool_symbol[used] = symbols[e]
            chart.pool_score[used] = logps[e]
            chart.pool_left[used] = -1
            chart.pool_right[used] = -1
            used += 1
    for span in range(2, n + 1):
        for i in range(n - span + 1):
            j = i + span
            n_touched = 0
            for k in range(i + 1, j):
                n_touched = _combine(chart.cell_start[i, k], chart.cell_count[i, k],
                                     chart.cell_start[k, j], chart.cell_count[k, j], rules,
                                     chart, scratch, n_touched)
            fits = used + n_touched <= capacity
            chart.cell_start[i, j] = used
            chart.cell_count[i, j] = n_touched
            for t in range(n_touched):
                a = scratch.touched[t]
                if fits:
                    chart.pool_symbol[used] = a
                    chart.pool_score[used] = scratch.best_score[a]
                    chart.pool_left[used] = scratch.best_left[a]
                    chart.pool_right[used] = scratch.best_right[a]
                    used += 1
                scratch.best_score[a] = -np.inf
            if not fits:
                return -1
    return used


@inline
def _combine(left_first, left_count, right_first, right_count, rules, chart, scratch,
             n_touched):
    """Every rule A → B C with B in the left cell and C in the right cell of one split, kept
    in ``scratch.best_*`` when it beats A's best so far.

    Parameters
    ----------
    left_first, left_count, right_first, right_count : int
        The two cells' runs in the pool.
    rules : Rules
        The grammar's binary rules, grouped by left child.
    chart : Chart
        The chart's entries (read only).
    scratch : Scratch
        Mutated: a parent's best score in the cell being filled and its children's entries
        (``best_score`` is -inf for a parent not reached yet); ``touched[:n_touched]`` lists
        the parents reached, new ones appended; ``right_entry`` all -1 again on return.
    n_touched : int
        How many parents were reached before this split.

    Returns
    -------
    int
        How many parents are reached after it.
    """
    if left_count == 0 or right_count == 0:
        return n_touched
    pool_symbol, pool_score = chart.pool_symbol, chart.pool_score
    right_entry, best_score = scratch.right_entry, scratch.best_score
    for e in range(right_first, right_first + right_count):
        right_entry[pool_symbol[e]] = e
    for e in range(left_first, left_first + left_count):
        b = pool_symbol[e]
        left_score = pool_score[e]
        for r in range(rules.left_start[b], rules.left_start[b + 1]):
            f = right_entry[rules.rule_right[r]]
            if f < 0:
                continue
            score = left_score + pool_score[f] + rules.rule_logp[r]
            a = rules.rule_parent[r]
            if best_score[a] == -np.inf:
                scratch.touched[n_touched] = a
                n_touched += 1
            if score > best_score[a]:
                best_score[a] = score
                scratch.best_left[a] = e
                scratch.best_right[a] = f
    for e in range(right_first, right_first + right_count):
        right_entry[pool_symbol[e]] = -1
    return n_touched


class Parser:
    """Viterbi parses under one grammar, reusing the chart's buffers from sentence to sentence
    (they grow when a sentence needs more)."""

    def __init__(self, grammar):
        self.grammar = grammar
        self.rules = Rules(*(getattr(grammar, name) for name in Rules._fields))
        n_symbols = len(grammar.symbols)
        self.scratch = Scratch(right_entry=np.full(n_symbols, -1, dtype=np.int64),
                               best_score=np.full(n_symbols, -np.inf),
                               best_left=np.zeros(n_symbols, dtype=np.int64),
                               best_right=np.zeros(n_symbols, dtype=np.int64),
                               touched=np.zeros(n_symbols, dtype=np.int64))
        self.chart = self._allocated(1, FIRST_POOL)

    @staticmethod
    def _allocated(n, size):
        """An empty chart for sentences of up to ``n`` words and ``size`` entries (each entry's
        children below 2**31: 16 bytes an entry)."""
        return Chart(cell_start=np.zeros((n + 1, n + 1), dtype=np.int64),
                     cell_count=np.zeros((n + 1, n + 1), dtype=np.int64),
                     pool_symbol=np.zeros(size, dtype=np.int32), pool_score=np.zeros(size),
                     pool_left=np.zeros(size, dtype=np.int32),
                     pool_right=np.zeros(size, dtype=np.int32))

    def word_ids(self, words):
        """int64[n]: each word's id in the grammar's lexicon, -1 for a word not in it."""
        index = self.grammar.word_index
        return np.array([index.get(word, -1) for word in words], dtype=np.int64)

    def chart_of(self, words):
        """Fill the chart of ``words`` (strings, unknown words already mapped to their class);
        the number of pool entries used."""
        ids = self.word_ids(words)
        chart = self.chart
        if len(ids) + 1 > chart.cell_start.shape[0]:
            self.chart = chart = self._allocated(len(ids), len(chart.pool_symbol))
        while True:
            used = fill_chart(ids, self.rules, chart, self.scratch)
            if used >= 0:
                return used
            self.chart = chart = self._allocated(chart.cell_start.shape[0] - 1,
                                                 2 * len(chart.pool_symbol))

    def best_goal(self, n):
        """The pool entry of the best goal symbol over the whole sentence of ``n`` words, or
        -1 when there is none."""
        chart = self.chart
        first = chart.cell_start[0, n]
        run = np.arange(first, first + chart.cell_count[0, n])
        run = run[self.grammar.is_goal[chart.pool_symbol[run]] == 1]
        if len(run) == 0:
            return -1
        return int(run[np.argmax(chart.pool_score[run])])  # the first of equal scores

    def parse(self, words, output_words=None):
        """The Viterbi parse of ``words`` as a binarised tree in the grammar's labels, and its
        log score; ``(None, -inf)`` when no goal symbol spans the sentence.

        Parameters
        ----------
        words : sequence of str
            The sentence, unknown words mapped to their classes (what the lexicon holds).
        output_words : sequence of str, optional
            The words to write at the leaves (the sentence before mapping); default ``words``.
        """
        if len(words) == 0:
            raise ValueError("cannot parse an empty sentence")
        self.chart_of(words)
        root = self.best_goal(len(words))
        if root < 0:
            return None, -np.inf
        leaves = iter(words if output_words is None else output_words)
        return self._tree(root, leaves), float(self.chart.pool_score[root])

    def _tree(self, entry, leaves):
        chart = self.chart
        label = self.grammar.labels[chart.pool_symbol[entry]]
        if chart.pool_left[entry] < 0:
            return (label, next(leaves))
        left = self._tree(chart.pool_left[entry], leaves)
        return (label, left, self._tree(chart.pool_right[entry], leaves))


def flat_tree(tagged):
    """The tree a sentence without a parse gets: ``(ROOT (X (tag word) …))``."""
    return ("ROOT", ("X", *tagged))


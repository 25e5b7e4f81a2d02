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
import numpy as np

from engine.core.jit import inline, kernel

FIRST_POOL = 1 << 16  # chart entries; doubled whenever a sentence needs more


@kernel
def fill_chart(word_ids, word_start, lexical_symbol, lexical_logp, unknown_symbol, unknown_logp,
               left_start, rule_parent, rule_right, rule_logp, cell_start, cell_count,
               pool_symbol, pool_score, pool_left, pool_right, right_entry, best_score,
               best_left, best_right, touched):
    """Fill the Viterbi chart of one sentence.

    Parameters
    ----------
    word_ids : int64[n]
        The sentence's word ids; -1 for a word outside the lexicon, which takes the unknown
        list.
    word_start, lexical_symbol, lexical_logp, unknown_symbol, unknown_logp,
    left_start, rule_parent, rule_right, rule_logp
        The grammar's arrays (``Grammar``): int64[n_words + 1], int32[L], float64[L], int32[U],
        float64[U], int64[n_symbols + 1], int32[R], int32[R], float64[R].
    cell_start, cell_count : int64[≥ n + 1, ≥ n + 1]
        Mutated: cell (i, j) (0 ≤ i < j ≤ n) is ``pool[cell_start[i, j]:][:cell_count[i, j]]``.
    pool_symbol : int32[P]
    pool_score : float64[P]
    pool_left, pool_right : int32[P]
        Mutated: the chart's entries — symbol, best log score of the symbol over the span, and
        the entries of its left and right children (-1, -1 for a word's entry).
    right_entry : int64[n_symbols]
        Scratch, all -1 on entry and on return.
    best_score : float64[n_symbols]
        Scratch, all -inf on entry and on return.
    best_left, best_right, touched : int64[n_symbols]
        Scratch (any values).

    Returns
    -------
    int
        The number of pool entries used, or -1 when the pool is too small (nothing usable is
        left in it; the scratches are reset).
    """
    n = word_ids.shape[0]
    capacity = pool_symbol.shape[0]
    used = 0
    for i in range(n):
        w = word_ids[i]
        if w >= 0:  # a word of the lexicon has a lexical rule
            first, last = word_start[w], word_start[w + 1]
            symbols, logps = lexical_symbol, lexical_logp
        else:
            first, last = 0, unknown_symbol.shape[0]
            symbols, logps = unknown_symbol, unknown_logp
        if used + last - first > capacity:
            return -1
        cell_start[i, i + 1] = used
        cell_count[i, i + 1] = last - first
        for e in range(first, last):
            pool_symbol[used] = symbols[e]
            pool_score[used] = logps[e]
            pool_left[used] = -1
            pool_right[used] = -1
            used += 1
    for span in range(2, n + 1):
        for i in range(n - span + 1):
            j = i + span
            n_touched = 0
            for k in range(i + 1, j):
                n_touched = _combine(cell_start[i, k], cell_count[i, k], cell_start[k, j],
                                     cell_count[k, j], left_start, rule_parent, rule_right,
                                     rule_logp, pool_symbol, pool_score, right_entry,
                                     best_score, best_left, best_right, touched, n_touched)
            fits = used + n_touched <= capacity
            cell_start[i, j] = used
            cell_count[i, j] = n_touched
            for t in range(n_touched):
                a = touched[t]
                if fits:
                    pool_symbol[used] = a
                    pool_score[used] = best_score[a]
                    pool_left[used] = best_left[a]
                    pool_right[used] = best_right[a]
                    used += 1
                best_score[a] = -np.inf
            if not fits:
                return -1
    return used


@inline
def _combine(left_first, left_count, right_first, right_count, left_start, rule_parent,
             rule_right, rule_logp, pool_symbol, pool_score, right_entry, best_score, best_left,
             best_right, touched, n_touched):
    """Every rule A → B C with B in the left cell and C in the right cell of one split, kept
    in ``best_*`` when it beats A's best so far.

    Parameters
    ----------
    left_first, left_count, right_first, right_count : int
        The two cells' runs in the pool.
    left_start : int64[n_symbols + 1]
    rule_parent, rule_right : int32[R]
    rule_logp : float64[R]
        The grammar's binary rules, grouped by left child.
    pool_symbol : int32[P]
    pool_score : float64[P]
        The chart's entries (read only).
    right_entry : int64[n_symbols]
        Scratch, all -1 on entry and on return (mutated in between).
    best_score : float64[n_symbols]
    best_left, best_right : int64[n_symbols]
        Mutated: a parent's best score in the cell being filled and its children's entries;
        ``best_score`` is -inf for a parent not reached yet.
    touched : int64[n_symbols]
        Mutated: ``touched[:n_touched]`` lists the parents reached; new ones are appended.
    n_touched : int
        How many parents were reached before this split.

    Returns
    -------
    int
        How many parents are reached after it.
    """
    if left_count == 0 or right_count == 0:
        return n_touched
    for e in range(right_first, right_first + right_count):
        right_entry[pool_symbol[e]] = e
    for e in range(left_first, left_first + left_count):
        b = pool_symbol[e]
        left_score = pool_score[e]
        for r in range(left_start[b], left_start[b + 1]):
            f = right_entry[rule_right[r]]
            if f < 0:
                continue
            score = left_score + pool_score[f] + rule_logp[r]
            a = rule_parent[r]
            if best_score[a] == -np.inf:
                touched[n_touched] = a
                n_touched += 1
            if score > best_score[a]:
                best_score[a] = score
                best_left[a] = e
                best_right[a] = f
    for e in range(right_first, right_first + right_count):
        right_entry[pool_symbol[e]] = -1
    return n_touched


class Parser:
    """Viterbi parses under one grammar, reusing the chart's buffers from sentence to sentence
    (they grow when a sentence needs more)."""

    def __init__(self, grammar):
        self.grammar = grammar
        n_symbols = len(grammar.symbols)
        self.right_entry = np.full(n_symbols, -1, dtype=np.int64)
        self.best_score = np.full(n_symbols, -np.inf)
        self.best_left = np.zeros(n_symbols, dtype=np.int64)
        self.best_right = np.zeros(n_symbols, dtype=np.int64)
        self.touched = np.zeros(n_symbols, dtype=np.int64)
        self._allocate_pool(FIRST_POOL)
        self._allocate_cells(1)

    def _allocate_pool(self, size):
        self.pool_symbol = np.zeros(size, dtype=np.int32)
        self.pool_score = np.zeros(size)
        self.pool_left = np.zeros(size, dtype=np.int32)  # entries < 2**31: 16 bytes an entry
        self.pool_right = np.zeros(size, dtype=np.int32)

    def _allocate_cells(self, n):
        self.cell_start = np.zeros((n + 1, n + 1), dtype=np.int64)
        self.cell_count = np.zeros((n + 1, n + 1), dtype=np.int64)

    def word_ids(self, words):
        """int64[n]: each word's id in the grammar's lexicon, -1 for a word not in it."""
        index = self.grammar.word_index
        return np.array([index.get(word, -1) for word in words], dtype=np.int64)

    def chart(self, words):
        """Fill the chart of ``words`` (strings, unknown words already mapped to their class);
        the number of pool entries used."""
        ids = self.word_ids(words)
        if len(ids) + 1 > self.cell_start.shape[0]:
            self._allocate_cells(len(ids))
        g = self.grammar
        while True:
            used = fill_chart(ids, g.word_start, g.lexical_symbol, g.lexical_logp,
                              g.unknown_symbol, g.unknown_logp, g.left_start, g.rule_parent,
                              g.rule_right, g.rule_logp, self.cell_start, self.cell_count,
                              self.pool_symbol, self.pool_score, self.pool_left,
                              self.pool_right, self.right_entry, self.best_score,
                              self.best_left, self.best_right, self.touched)
            if used >= 0:
                return used
            self._allocate_pool(2 * len(self.pool_symbol))

    def best_goal(self, n):
        """The pool entry of the best goal symbol over the whole sentence of ``n`` words, or
        -1 when there is none."""
        first = self.cell_start[0, n]
        run = np.arange(first, first + self.cell_count[0, n])
        run = run[self.grammar.is_goal[self.pool_symbol[run]] == 1]
        if len(run) == 0:
            return -1
        return int(run[np.argmax(self.pool_score[run])])  # the first of equal scores

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
        self.chart(words)
        root = self.best_goal(len(words))
        if root < 0:
            return None, -np.inf
        leaves = iter(words if output_words is None else output_words)
        return self._tree(root, leaves), float(self.pool_score[root])

    def _tree(self, entry, leaves):
        label = self.grammar.labels[self.pool_symbol[entry]]
        if self.pool_left[entry] < 0:
            return (label, next(leaves))
        left = self._tree(self.pool_left[entry], leaves)
        return (label, left, self._tree(self.pool_right[entry], leaves))


def flat_tree(tagged):
    """The tree a sentence without a parse gets: ``(ROOT (X (tag word) …))``."""
    return ("ROOT", ("X", *tagged))


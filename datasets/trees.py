"""Penn trees: sentences with their constituency trees, as treebanks are distributed.

A tree is a nested tuple ``(label, child, child, …)``; a word is a ``str`` and a preterminal is
``(tag, word)``, e.g. ``("ROOT", ("S", ("NP", ("DT", "the"), ("NN", "dog")), ("VP", ("VBZ",
"barks"))))``. Every tree read here has the root ``ROOT``.

The preprocessing of Liang, Jordan & Klein (2010, fn. 5, after Petrov et al. 2006) is here too:
``clean`` (traces, empty elements and function tags removed, as EVALB reads trees),
``binarise`` (unary chains collapsed, right-binarisation with horizontal Markovisation),
``debinarise`` (its exact inverse) and unknown-word classes for rare words (``map_rare``,
``map_unknown``).

This module is the trees kind of data (``TREES``, datasets.kinds): its readers (the format told
from the text when asked), its built-in treebank and how its sentences are measured.
"""
import re
from collections import Counter
from itertools import count
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from datasets import kinds
from datasets.errors import CorpusError
from datasets.text import decode, read_bytes

MAX_WORDS = 400  # words in one tree; a longer one is almost surely several sentences run together
MAX_DEPTH = 200  # nested brackets in one tree as read (a binarised tree may add MAX_WORDS more)
MAX_TREES = 200_000  # trees in one file (the WSJ treebank has about 49,000)
ROOT = "ROOT"
NONE = "-NONE-"  # the tag of an empty element (a trace), whose word is no word of the sentence
AUTO = "auto"  # tell the format from the text (``detect_format``)
FORMATS = ("penn", "binarised")
BUILTIN = Path(__file__).resolve().parent / "builtin" / "trees.txt"
EXAMPLE = "(ROOT (S (NP (DT the) (NN dog)) (VP (VBZ barks))))"

# A bracket, or a run of anything else but white space: a label or a word.
_TOKEN = re.compile(r"[()]|[^\s()]+")
# A label that only the transforms write: a collapsed chain (A+B), an intermediate node (@X…)
# or a node the model marks as cut (X*).
_PRETERMINAL = re.compile(r"\(\s*[^\s()]+\s+[^\s()]+\s*\)")  # (TAG word)
_TRANSFORMED = re.compile(r"\(\s*(?:@|[^\s()]*[+*])")
# Where EVALB cuts a label: its function tags (NP-SBJ) and indices (NP-SBJ-1, NP=2).
_FUNCTION = re.compile(r"[-=]")


@dataclass(frozen=True)
class TreeCorpus:
    """Trees in file order, each rooted at ``ROOT``.

    Attributes
    ----------
    trees : tuple of tree
        Nested tuples ``(label, child, …)``; words are ``str``, preterminals ``(tag, word)``.
    name : str
        A label for the user (a file name, or how the corpus was made).
    lines : tuple of int
        The 1-based line where each tree starts in its file (for messages about one tree).
    """

    trees: tuple
    name: str
    lines: tuple[int, ...]

    def head(self, n):
        """The first n trees (a corpus too large for a page, cut)."""
        return TreeCorpus(self.trees[:n], f"{self.name}, first {n:,} sentences", self.lines[:n])

    def words(self, i):
        """The words of tree ``i``, in order (a tuple of str)."""
        return leaves(self.trees[i])

    @property
    def n_words(self) -> int:
        """The number of word tokens over all trees (empty elements included)."""
        return sum(len(leaves(tree)) for tree in self.trees)


# --- reading ----------------------------------------------------------------------------------
def _line(text, position):
    """The 1-based line of a character offset."""
    return text.count("\n", 0, position) + 1


def _check_label(label, binarised, text, position):
    """Refuse a label that only the transforms may write, unless reading their output."""
    if binarised:
        return
    if "+" in label or "*" in label or label.startswith("@"):
        raise CorpusError(f"the label {label!r} has a '+', a '*' or a leading '@', which mark "
                          "binarised trees: rename it, or read the file as binarised trees "
                          "(a model's analysis file)", _line(text, position))


def _constituent(label, children, text, position):
    """The node ``(label, *children)`` once its ``)`` is read; refuses a node that is empty or
    that has a word beside other children (a word needs a preterminal of its own)."""
    if not children:
        what = "an empty tree '()'" if label is None else f"the constituent ({label}) is empty"
        raise CorpusError(f"{what}: a constituent needs a word or constituents under it; "
                          "delete it or fill it in", _line(text, position))
    if len(children) > 1:
        words = [child for child in children if isinstance(child, str)]
        if words:
            raise CorpusError(_word_beside(label, children, words), _line(text, position))
    return (label, *children)


def _word_beside(label, children, words):
    """What is wrong with a constituent that has a word and other children."""
    shown = label or "the unlabelled constituent"
    if len(words) == len(children):
        return (f"{shown} has {len(words)} words directly under it ({' '.join(words)!r}): a "
                f"preterminal has one word; give each word its own, e.g. (TAG {words[0]})")
    if isinstance(children[0], str):
        spaced = f"{label} {words[0]}" if label else words[0]
        return (f"the label {spaced!r} has a space, or "
                f"{words[0]!r} is a word directly under {shown} beside constituents: write "
                f"labels without spaces (NP-SBJ) and each word under its own preterminal, "
                f"e.g. (TAG {words[0]})")
    return (f"the word {words[0]!r} is directly under {shown} beside constituents: give it "
            f"its own preterminal, e.g. (TAG {words[0]})")


def _names_root(label, binarised):
    """Whether a label is a root's: ``ROOT`` or ``TOP``; in a binarised tree any ``ROOT…``."""
    return label in (ROOT, "TOP") or binarised and label.startswith(ROOT)


def _rooted(node, binarised, text, position):
    """A whole tree under ``ROOT``: an unlabelled or ``TOP`` wrapper is renamed ``ROOT``, a tree
    without a wrapper gets one; a binarised tree's root ``ROOT…`` (``ROOT+S``) is kept."""
    label, *children = node
    if label is None and len(children) == 1 and _names_root(children[0][0], binarised):
        label, *children = children[0]  # ( (ROOT …) ): one wrapper is enough
    if binarised and label is not None and label.startswith(ROOT):
        return (label, *children)
    if label in (None, ROOT, "TOP"):
        if isinstance(children[0], str):
            raise CorpusError(f"the word {children[0]!r} is directly under the root: a word "
                              f"needs its preterminal, e.g. (ROOT (TAG {children[0]}))",
                              _line(text, position))
        return (ROOT, *children)
    return (ROOT, node)


def _unclosed(text, stack, line_start):
    """The error for a file that ends inside a tree."""
    opened = _line(text, stack[0][2])
    message = (f"the tree opened here is not closed: {len(stack)} ')' "
               f"{'are' if len(stack) > 1 else 'is'} missing; add them where the tree ends")
    if line_start is not None:
        message += (f" (a new tree seems to start at line {_line(text, line_start)}, at the "
                    "start of a line inside this tree)")
    return CorpusError(message, opened)


def parse_trees(text: str, name: str = "corpus", binarised: bool = False) -> TreeCorpus:
    """Read Penn bracketed trees from a string.

    Parameters
    ----------
    text : str
        One or more trees, with blank lines between them or not, a tree over several lines or
        several trees on one line. A tree's outer wrapper may be ``(ROOT …)``, ``(TOP …)`` or
        unlabelled ``( …)``; a tree without one gets ``ROOT`` above it.
    name : str
        The corpus's label.
    binarised : bool
        Read trees written after `binarise` (a model's analysis file): labels with ``+``, a
        leading ``@`` or a trailing ``*`` are accepted, and a root labelled ``ROOT…`` is kept.

    Returns
    -------
    TreeCorpus

    Raises
    ------
    CorpusError
        Naming the line, for unbalanced brackets, a word without its own preterminal, an empty
        tree or constituent, a label reserved for binarised trees, a tree of only empty
        elements (``-NONE-``), a tree too large or too deep, too many trees, and a file with no
        tree at all.
    """
    max_depth = MAX_DEPTH + MAX_WORDS if binarised else MAX_DEPTH
    trees, lines = [], []
    stack = []  # the open constituents: [label or None, children, offset of its '(']
    expect_label = False  # the token just after '(' is its label
    n_words = n_empty = 0  # of the tree being read: all its words, those of empty elements
    line_start = None  # a '(' at the start of a line inside a tree: maybe a ')' was forgotten
    for match in _TOKEN.finditer(text):
        token, position = match.group(), match.start()
        if token == "(":
            if stack and line_start is None and text[position - 1] == "\n":
                line_start = position
            stack.append([None, [], position])
            expect_label = True
            if len(stack) > max_depth:
                raise CorpusError(f"a tree nested more than {max_depth} brackets deep: check "
                                  "its brackets", _line(text, position))
        elif token == ")":
            if not stack:
                raise CorpusError("a ')' that closes nothing: delete it, or add the '(' it "
                                  "closes", _line(text, position))
            label, children, opened = stack.pop()
            expect_label = False
            node = _constituent(label, children, text, opened)
            n_empty += label == NONE
            if stack:
                if label is None:
                    raise CorpusError("a constituent without a label inside a tree: only a "
                                      "tree's outer wrapper '( …)' may have none; give it its "
                                      "label", _line(text, opened))
                stack[-1][1].append(node)
                continue
            if n_words == n_empty:
                raise CorpusError("the tree has no words but empty elements (-NONE-): nothing "
                                  "of it is left for learning; delete it", _line(text, opened))
            trees.append(_rooted(node, binarised, text, opened))
            lines.append(opened)
            if len(trees) > MAX_TREES:
                raise CorpusError(f"more than {MAX_TREES:,} trees: split the file",
                                  _line(text, opened))
            n_words = n_empty = 0
            line_start = None
        elif expect_label:
            _check_label(token, binarised, text, position)
            stack[-1][0] = token
            expect_label = False
        elif not stack:
            raise CorpusError(f"the word {token!r} is outside any tree: write trees in Penn "
                              f"brackets, e.g. {EXAMPLE}", _line(text, position))
        else:
            stack[-1][1].append(token)
            n_words += 1
            if n_words > MAX_WORDS:
                raise CorpusError(f"a tree of more than {MAX_WORDS} words: it is almost surely "
                                  "several sentences run together; check its brackets",
                                  _line(text, stack[0][2]))
    if stack:
        raise _unclosed(text, stack, line_start)
    if not trees:
        raise CorpusError("the file has no trees: write one or more trees in Penn brackets, "
                          f"e.g. {EXAMPLE}")
    return TreeCorpus(tuple(trees), name, _lines_of(text, lines))


def _lines_of(text, positions):
    """The 1-based lines of increasing character offsets, counted in one pass."""
    lines, line, previous = [], 1, 0
    for position in positions:
        line += text.count("\n", previous, position)
        lines.append(line)
        previous = position
    return tuple(lines)


def read_trees(data: bytes | str, name: str = "corpus", binarised: bool = False) -> TreeCorpus:
    """Read Penn trees from bytes (an upload) or a string.

    Parameters
    ----------
    data : bytes or str
        Bytes are decoded as UTF-8; a byte-order mark is dropped.
    name : str
        The corpus's label.
    binarised : bool
        Read trees written after `binarise` (see `parse_trees`).

    Returns
    -------
    TreeCorpus

    Raises
    ------
    CorpusError
        For bytes that are not UTF-8 (naming the line of the first bad byte) and as
        `parse_trees` does.
    """
    if isinstance(data, bytes):
        data = decode(data)
    return parse_trees(data.removeprefix("\ufeff"), name, binarised)


def read_file(path: str | Path, binarised: bool = False) -> TreeCorpus:
    """Read Penn trees from a file; the corpus is named after the file.

    Parameters
    ----------
    path : str or Path
    binarised : bool
        Read trees written after `binarise` (see `parse_trees`).

    Returns
    -------
    TreeCorpus

    Raises
    ------
    CorpusError
        When the file is missing or unreadable, and as `read_trees` does.
    """
    path = Path(path)
    return read_trees(read_bytes(path), path.name, binarised)


def detect_format(text: str) -> str:
    """"binarised" when some label is one only the transforms write (``A+B``, ``@X…``, ``X*``),
    else "penn" (whose reader then says what else is wrong)."""
    return "binarised" if _TRANSFORMED.search(text) else "penn"


def read_formatted(data: bytes | str, name: str = "corpus", format: str = AUTO) -> TreeCorpus:
    """Read Penn trees in a named format, or one told from the text (the kind's reader).

    Parameters
    ----------
    data : bytes or str
    name : str
    format : {"auto", "penn", "binarised"}
        Trees as treebanks write them, trees after `binarise`, or told from the text.

    Raises
    ------
    ValueError
        For an unknown `format`, listing the known ones.
    CorpusError
        As `read_trees` does.
    """
    if format not in (AUTO, *FORMATS):
        raise ValueError(f"format must be one of {AUTO}, {', '.join(FORMATS)} (got {format!r})")
    if isinstance(data, bytes):
        data = decode(data)
    if format == AUTO:
        format = detect_format(data)
    return read_trees(data, name, binarised=format == "binarised")


def format_tree(tree) -> str:
    """A tree on one line in Penn brackets, the inverse of reading it."""
    return _rebuild(tree, lambda label, children: f"({label} {' '.join(children)})")


def format_trees(trees) -> str:
    """Trees in Penn brackets, one per line, each line ending in ``\\n``."""
    return "".join(format_tree(tree) + "\n" for tree in trees)


# --- walking a tree ---------------------------------------------------------------------------
def _rebuild(tree, node, word=None):
    """A tree rebuilt bottom-up, without recursion (a binarised tree is as deep as its words
    are many, and Python's recursion is limited).

    Parameters
    ----------
    tree : tree
    node : callable (label, children list) -> tree or None
        Makes each constituent from its label and its rebuilt children, in order; None
        drops it from its parent.
    word : callable (str) -> str, optional
        Makes each word; words are kept as they are without it.
    """
    stack = [(tree[0], iter(tree[1:]), [])]
    while True:
        label, rest, children = stack[-1]
        child = next(rest, None)
        if child is None:
            stack.pop()
            built = node(label, children)
            if not stack:
                return built
            if built is not None:
                stack[-1][2].append(built)
        elif isinstance(child, str):
            children.append(child if word is None else word(child))
        else:
            stack.append((child[0], iter(child[1:]), []))


def preterminals(tree) -> list[tuple[str, str]]:
    """The (tag, word) pairs of a tree, in order."""
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node[1], str):
            out.append(node)
        else:
            stack.extend(reversed(node[1:]))
    return out


def leaves(tree) -> tuple[str, ...]:
    """The words of a tree, in order."""
    return tuple(word for _, word in preterminals(tree))


# --- cleaning ---------------------------------------------------------------------------------
def _cut(label):
    """A label without its function tags and index (``NP-SBJ-1``, ``NP=2`` → ``NP``); labels
    that start with '-' (``-NONE-``, ``-LRB-``) are kept whole."""
    if label.startswith("-"):
        return label
    return _FUNCTION.split(label, maxsplit=1)[0] or label


def _cleaned(label, children):
    if not children or label == NONE:
        return None  # an empty element, or a constituent over nothing but empty elements
    return (_cut(label), *children)


def clean(tree):
    """A tree as EVALB reads it, for learning: empty elements (``-NONE-`` preterminals) removed,
    then every constituent left empty; function tags and indices cut from labels (``NP-SBJ-1``,
    ``NP=2`` → ``NP``; ``-NONE-``, ``-LRB-`` and other labels starting with '-' kept whole).

    Raises
    ------
    ValueError
        For a tree of nothing but empty elements (the readers refuse such a tree).
    """
    cleaned = _rebuild(tree, _cleaned)
    if cleaned is None:
        raise ValueError(f"nothing is left of the tree {format_tree(tree)[:80]} once its empty "
                         "elements (-NONE-) are removed")
    return cleaned


# --- binarising -------------------------------------------------------------------------------
def _intermediate(label, siblings, markov):
    """The label of an intermediate node of ``label`` after the sibling labels ``siblings``:
    ``@X`` and the last ``markov`` of them (all when None), nearest last, each in angle
    brackets: ``@NP|<DT><JJ>``; ``@NP`` at order 0."""
    kept = siblings if markov is None else siblings[max(0, len(siblings) - markov):]
    return f"@{label}|{''.join(f'<{s}>' for s in kept)}" if kept else f"@{label}"


def _binarised(markov):
    def node(label, children):
        if "+" in label or "*" in label or label.startswith("@"):
            raise ValueError(f"the label {label!r} is one binarise writes: binarise a tree as "
                             "read or cleaned, not one binarised already")
        if len(children) == 1 and not isinstance(children[0], str):
            child = children[0]  # already collapsed below: its chain joins this one
            return (f"{label}+{child[0]}", *child[1:])
        if len(children) <= 2:
            return (label, *children)
        names = [child[0] for child in children]
        right = (_intermediate(label, names[:-2], markov), children[-2], children[-1])
        for i in range(len(children) - 3, 0, -1):
            right = (_intermediate(label, names[:i], markov), children[i], right)
        return (label, children[0], right)
    return node


def binarise(tree, markov: int | None = 1):
    """A tree in the grammar's binary form (Liang et al. 2010, fn. 5; Petrov et al. 2006).

    (a) Unary chains are collapsed: a node whose only child is not a word is merged with it
    into one node ``A+B`` (chains of any length, ``ROOT+S``, ``NP+NNP`` over a word).
    (b) A node X with children c1 … ck, k > 2, is right-binarised into
    X(c1, @X…(c2, @X…(… c_{k−1} c_k))), each intermediate label ``@X|<…>`` remembering the
    last `markov` sibling labels already generated (horizontal Markovisation), nearest last:
    NP → DT JJ JJ NN at order 1 is NP(DT, @NP|<DT>(JJ, @NP|<JJ>(JJ, NN))).

    Every node of the result has two children, or is a preterminal over one word.

    Parameters
    ----------
    tree : tree
        A tree as read or cleaned: no label with '+' or '*' or a leading '@'.
    markov : int >= 0 or None
        The order of the horizontal Markovisation; None for infinite (every earlier sibling).

    Raises
    ------
    ValueError
        For a negative or non-integer `markov`, or a label that binarise writes.
    """
    if markov is not None and (not isinstance(markov, int) or markov < 0):
        raise ValueError(f"markov must be an integer >= 0 or None (got {markov!r})")
    return _rebuild(tree, _binarised(markov))


def _debinarised(label, children):
    spliced = []
    for child in children:  # an intermediate child is already flat: its children join ours
        if not isinstance(child, str) and child[0].startswith("@"):
            spliced.extend(child[1:])
        else:
            spliced.append(child)
    if label.startswith("@"):
        return (label, *spliced)  # spliced into its parent in turn
    *chain, last = label.removesuffix("*").split("+")
    node = (last, *spliced)
    for upper in reversed(chain):
        node = (upper, node)
    return node


def debinarise(tree):
    """The tree `binarise` was given: intermediate ``@`` nodes spliced into their parents,
    ``A+B`` chains split into A over B. A trailing ``*`` (a model's mark of a cut node) is
    dropped. ``debinarise(binarise(t, m)) == t`` for every tree t as read or cleaned."""
    return _rebuild(tree, _debinarised)


# --- unknown words ----------------------------------------------------------------------------
# Suffixes that tell a word's class in English (Petrov et al.'s simple signatures), the longest
# that matches counting: "kindness" is -ness, not -s.
SUFFIXES = tuple(sorted(("ing", "ed", "s", "ly", "ion", "er", "est", "al", "ity", "y", "ic",
                         "ous", "ive", "able", "ment", "ness", "ful", "ism", "ist", "ise",
                         "ize", "an"), key=len, reverse=True))
MIN_SUFFIXED = 4  # shorter words have no telling suffix ("is", "as", "us")


def _shape(word, first):
    """The capitalisation part of a word's class."""
    letters = [char for char in word if char.isalpha()]
    if not letters:
        return ""
    if len(letters) > 1 and all(char.isupper() for char in letters):
        return "-CAPS"
    if word[0].isupper():
        return "-INITC" if first else "-C"
    return "-LC"


def unknown_class(word: str, first: bool = False) -> str:
    """The unknown-word class of a word: ``UNK`` and its features, in this order.

    Capitalisation: ``-CAPS`` (all capitals, two letters or more), ``-INITC`` (capitalised,
    the sentence's first word), ``-C`` (capitalised elsewhere), ``-LC`` (starting in lower
    case), nothing (no letters). Then ``-NUM`` (a digit), ``-DASH`` (a hyphen), ``-DOT`` (a
    period); then, for a word of at least 4 characters without digits, its longest suffix
    among `SUFFIXES` (``-ing``, ``-ness``…). "Kindness" → ``UNK-C-ness``, "1990s" →
    ``UNK-LC-NUM``, "U.S." → ``UNK-CAPS-DOT``.

    Parameters
    ----------
    word : str
    first : bool
        Whether the word begins its sentence (capitalised there, it says nothing of a name).
    """
    digit = any(char.isdigit() for char in word)
    parts = ["UNK", _shape(word, first), "-NUM" * digit, "-DASH" * ("-" in word),
             "-DOT" * ("." in word)]
    if not digit and len(word) >= MIN_SUFFIXED:
        lower = word.lower()
        parts.append(next((f"-{s}" for s in SUFFIXES if lower.endswith(s)), ""))
    return "".join(parts)


def _with_classes(tree, vocabulary):
    """A tree whose words outside `vocabulary` are replaced by their classes."""
    positions = count()  # words come in sentence order: the first is position 0

    def word(w):
        first = next(positions) == 0
        return w if w in vocabulary else unknown_class(w, first=first)
    return _rebuild(tree, lambda label, children: (label, *children), word)


def map_rare(trees, min_count: int = 2):
    """Rare words replaced by their unknown-word classes (`unknown_class`).

    Parameters
    ----------
    trees : iterable of tree
    min_count : int
        Words seen fewer times than this in `trees` are rare.

    Returns
    -------
    trees : list of tree
        The trees with every rare word replaced.
    vocabulary : frozenset of str
        The words kept (seen at least `min_count` times): give it to `map_unknown` for
        held-out sentences.
    """
    trees = list(trees)
    counts = Counter(word for tree in trees for word in leaves(tree))
    vocabulary = frozenset(word for word, n in counts.items() if n >= min_count)
    return [_with_classes(tree, vocabulary) for tree in trees], vocabulary


def map_unknown(words, vocabulary) -> tuple[str, ...]:
    """A held-out sentence's words, each one outside `vocabulary` replaced by its class."""
    return tuple(word if word in vocabulary else unknown_class(word, first=i == 0)
                 for i, word in enumerate(words))


# --- the kind ---------------------------------------------------------------------------------
def builtin() -> TreeCorpus:
    """The built-in treebank, "Built-in: small treebank".

    Short English sentences in Penn brackets, written for this project: determiners,
    adjectives, prepositional phrases, relative clauses, coordination, questions, unary chains
    and punctuation, each construction recurring so that tree fragments recur.
    """
    return replace(read_file(BUILTIN), name="Built-in: small treebank")


def looks_like_trees(text: str) -> bool:
    """Whether ``text`` is plainly Penn-bracketed: it opens with a bracket and holds a
    preterminal, ``(TAG word)``."""
    return text.lstrip().startswith("(") and _PRETERMINAL.search(text) is not None


# sentences with their constituency trees, in Penn brackets
TREES = kinds.register(kinds.Kind(
    name="trees", label="Penn trees", unit="sentences", builtin=builtin, read=read_formatted,
    formats={AUTO: "told from the text", "penn": "Penn brackets, as treebanks write them",
             "binarised": "binarised Penn brackets, as a model's analysis file writes them"},
    suffixes=("ptb", "mrg", "tree", "trees", "txt"),
    unit_sizes=lambda corpus: np.array([len(leaves(tree)) for tree in corpus.trees],
                                       dtype=np.int64),
    looks="Penn-bracketed trees", recognise=looks_like_trees))

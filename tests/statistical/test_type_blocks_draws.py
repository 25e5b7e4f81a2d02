"""The Type blocks page's p(m) chart is the distribution its m was drawn from: over many moves
of the page's lab (ui/type_lab.py), the m drawn at each move against the p(m) kept for that very
move (the chart's bars), by a chi-square test.

Moves are pooled by how probable the page said the drawn m was: every m of a move adds its
p(m) to the expected count of its probability class, the m drawn adds one to the observed count
of its class. A chart that showed another move's p(m) (the one before or after), or p(m) before
the block's counts were removed, draws improbable m's far more often than it says. Planted
bugs this test was shown to catch: the drawn m paired with the previous move's p(m), or with
the next move's (USM: 1,206 draws of p(m) < 0.05 where the charts expect 16; p ≈ 0).

Issue 46's report ("seed 7, move 10: m = 3 of 8 drawn where p(3) = 0.006") is one such rare
draw, not a wrong chart: over 3,000 moves of that lab 18 draws had p(m) < 0.05 where the
charts expected 17.5 (p = 0.56).
"""
import numpy as np
import pytest

from engine.models import registry
from tests.statistical.exact import chi_square_p
from ui.kinds.registry import views
from ui.type_lab import new_lab, type_move

CLASSES = np.array([0.05, 0.2, 0.5, 0.8, 0.95])  # edges of p(m)'s probability classes
MOVES = 1500


def page_model(name, seed, **options):
    """The model the page builds at ``seed``: the first small corpus of its kind, 40 units."""
    model_class = registry.get(name)
    view = views()[model_class.display]
    return model_class.from_corpus(view.small_corpus(view.corpora[0], 40, seed), **options)


def moves_shown(model, seed, moves):
    """(p(m) of the chart, m drawn) of each move of the page's lab that made one."""
    lab = new_lab(model, seed, eta=1.0, skip=True)
    shown = []
    for _ in range(moves):
        type_move(lab)
        if lab["move"] is not None:
            info = lab["move"]["info"]
            shown.append((np.exp(info.log_p), info.drawn))
    return shown


def by_class(shown):
    """Observed and expected counts of the drawn m's probability classes."""
    observed, expected = np.zeros(len(CLASSES) + 1), np.zeros(len(CLASSES) + 1)
    for p, drawn in shown:
        observed[np.searchsorted(CLASSES, p[drawn])] += 1
        np.add.at(expected, np.searchsorted(CLASSES, p), p)
    return observed, expected


@pytest.mark.parametrize("name, seed, options", [
    ("usm", 7, {}),  # the page's default model, at the report's seed
    ("hmm", 4, dict(n_states=5, alpha=0.1, alpha_emit=0.1)),  # the page's preset: K-state slices
])
def test_the_m_drawn_follows_the_p_m_shown_for_its_move(name, seed, options):
    shown = moves_shown(page_model(name, seed, **options), seed, MOVES)
    observed, expected = by_class(shown)
    assert expected[0] > 5  # improbable draws (p(m) < 0.05) are part of the test
    assert chi_square_p(observed, expected / expected.sum()) > 1e-3, (observed, expected)

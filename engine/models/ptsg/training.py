"""Learning a tree-substitution grammar from a treebank for the ``parse`` command: a chain of
one of the PTSG's samplers, then the posterior mean grammar of its last samples (Liang et al.
2010, fn. 6; engine.models.ptsg.grammar), offered to engine.parsing.grammars as ``PTSG``.
"""
from datasets.trees import debinarise
from engine.core.rng import make_rng
from engine.models.ptsg.grammar import posterior_grammar, snapshot
from engine.models.ptsg.model import PtsgModel
from engine.parsing.pipeline import GrammarKind, Trained
from engine.samplers import make_sampler


def train(trees, markov=1, sampler="type", iters=100, seed=0, average=10, eta=1.0, **prior):
    """A PTSG learnt from ``trees`` (as read): ``iters`` sweeps of ``sampler`` from η, then
    the posterior mean grammar of the chain's last ``average`` samples, ``sample_step``
    sweeps apart; (model, state, grammar). ``prior``: the model's α and s, its defaults if
    left out."""
    model = PtsgModel(trees, markov=markov, **prior)
    rng = make_rng(seed)
    state = model.new_state(rng, eta=eta)
    chain = make_sampler(sampler, total_sweeps=iters)
    step, samples = sample_step(iters, average), []
    for done in range(1, iters + 1):
        chain.sweep(rng, state)
        if (iters - done) % step == 0 and iters - done < average * step:
            samples.append(snapshot(state))
    return model, state, posterior_grammar(model, samples)


def sample_step(iters, average):
    """Sweeps between the samples a grammar averages: ``average`` of them within the chain's
    second half (every sweep when there are fewer sweeps than that)."""
    return max(1, iters // (2 * average))


def train_ptsg(trees, markov=1, sampler="type", iters=100, seed=0, average=10):
    """``train``'s grammar, ready to parse (``Trained``; its parses debinarised)."""
    model, _, flattened = train(trees, markov, sampler, iters, seed, average)
    return Trained(flattened, model.vocabulary, debinarise)


PTSG = GrammarKind("ptsg", "the tree-substitution grammar of a chain's samples (--sampler, "
                   "--iters, --seed, --average; Liang et al. 2010, fn. 6)", train_ptsg,
                   settings=("sampler", "iters", "seed", "average"))

"""The Type blocks page's lab, without Streamlit: a chain of TYPE moves on one model, each move
kept with what the page shows of it (its block, eq. 7's p(m) and the m drawn) and TOKEN's
conditional at the same pivot. tests/statistical/test_type_blocks_draws.py checks, over many
moves, that the m drawn follows the p(m) kept beside it."""
import numpy as np

from engine.core.rng import make_rng
from engine.samplers.token import token_conditional
from engine.samplers.type_based import TypeSampler

HISTORY = 12  # the recent moves the page lists


def new_lab(model, seed, eta, skip):
    """A lab at the start: the model's state from ``eta``, no move made yet."""
    rng = make_rng(seed)
    # pivots at random, as the page says: each move lands anywhere in the corpus, whatever
    # order a model's own sweeps take (interface.pivots_in_order)
    return dict(model=model, rng=rng, state=model.new_state(rng, eta=eta),
                sampler=TypeSampler(skip=skip, pivots_at_random=True),
                token_rng=make_rng(seed + 1), move=None, token=None, moves=0, history=[])


def type_move(lab):
    """One TYPE move, and TOKEN's conditional at the same pivot on a copy of the state before;
    the lab's ``move`` and ``token`` then describe it (None when the pass had no pivot left:
    the next move starts a new pass)."""
    model, state = lab["model"], lab["state"]
    before = model.clone_state(state)
    info = lab["sampler"].step(lab["rng"], state)
    lab["moves"] += 1
    if info.pivot < 0:
        lab["move"], lab["token"] = None, None
        return
    log_p, drawn = token_conditional(lab["token_rng"], before, info.pivot)
    site = model.describe_site(state, info.pivot)
    lab["move"] = dict(info=info, type=site.type_text, values=list(site.value_names),
                       slice=(info.value_zero, info.value_one))
    lab["token"] = dict(p=np.exp(log_p), drawn=drawn, old=int(info.before[0]))
    lab["history"].insert(0, {"move": lab["moves"], "type": lab["move"]["type"],
                              "sites of the type": len(info.type_sites),
                              "|S|": len(info.block), "m": info.drawn,
                              "changed": len(info.changed)})
    del lab["history"][HISTORY:]

"""Copies of `ab` on the pages (Liang et al. §2's toy): no corpus to choose — the model's options
make its data — and each copy drawn as `ab` or `a│b` for the Type blocks view."""
from ui.kinds.registry import View, register
from ui.kinds.segmentation import utterance_html


def copy_row(model, state, u, marks):
    """Copy u: `ab`, or `a│b` when split; its one site is the gap."""
    split = model.values(state)[u] == 1
    return utterance_html("ab", ["found" if split else ""], marks, number=u + 1)


VIEW = register(View(
    name="copies", picker=None, unit="", corpora=(), small_corpus=None,
    analysis="analysis of every copy (`ab` or `a│b`)",
    edge_help="every copy's site has this one type: `ab` joined (b = 0) or `a b` split (b = 1)",
    conflict_text="same type, left out (conflict)",
    caption="Every copy has the pivot's type ({n:,} of them); `a│b` is a split copy.",
    n_units=lambda model: model.n_sites,
    row=copy_row,
    legend=lambda: "",
    status=lambda model, state: f"m = {int(model.values(state).sum()):,} of "
                                f"{model.n_sites:,} copies split"))

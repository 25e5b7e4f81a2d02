"""The course around the lessons: the suggested order through the pages, each lesson's goal and
what it assumes, and the glossary that the lessons' exercises and Home's text link to.

Each glossary entry is a heading on Home with an anchor of its own (``glossary-<name>``);
``term`` writes a markdown link to it, so a word in an exercise opens its definition.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    """One page of the course: its file, its title and icon in the navigation, what a student
    should take from it (goal), what the page shows, the lessons it builds on (their
    titles), and the models it runs (Home says when their kernels are ready)."""

    page: str
    title: str
    icon: str
    goal: str
    shows: str
    assumes: tuple = ()
    models: tuple = ()  # the models whose kernels it runs (engine.models.registry names)


@dataclass(frozen=True)
class Entry:
    """A glossary entry: the word as the pages write it, its anchor on Home, its definition
    (one or two plain sentences)."""

    word: str
    anchor: str
    text: str


LESSONS = (
    Lesson("pages/toy_posterior.py", "Toy posterior", ":material/stacked_line_chart:",
           "See why a sampler that changes one site at a time (TOKEN) stays for passes in a "
           "poor mode that TYPE, changing every site of one type at once, leaves in one move.",
           "n copies of the string `ab`, each either one word or two. The exact posterior over "
           "m, the number of split copies, has a sharp mode; TOKEN started at m = n needs "
           "several passes to leave it, TYPE jumps there in one move. Race TOKEN, TYPE, "
           "TOKEN-anneal and TYPE-greedy from the same start, see TYPE's draws against the "
           "exact posterior, and measure TOKEN's escape time over many seeds.",
           models=("toy",)),
    Lesson("pages/type_blocks.py", "Type blocks", ":material/view_module:",
           "Take one TYPE move apart: the pivot, its type, the block and its conflicts, the "
           "exact distribution of m (eq. 7), and what TOKEN would do at the same site.",
           "One TYPE move at a time on a small corpus of utterances: the pivot boundary, its "
           "type (`ab|c` versus `abc`), every site of that type across the corpus, the ones "
           "left out because they touch a word already in the block, the exact distribution "
           "of how many to split (eq. 7), the draw, and what TOKEN would do at the same site.",
           ("Toy posterior",), models=("toy", "usm", "hmm", "ptsg", "scfg")),
    Lesson("pages/word_segmentation.py", "Word segmentation", ":material/segment:",
           "Race the samplers on a real model of child-directed speech and read "
           "log-probability and F against engine time, as in Liang et al.'s Fig. 5.",
           "The unigram or the bigram word-segmentation model on a corpus of child-directed "
           "speech (built in, synthetic, or yours): TOKEN, TYPE, TOKEN-anneal, TYPE-greedy and "
           "SENTENCE (the bigram model: TOKEN, TOKEN-anneal, SENTENCE) race from the same "
           "start, with log-probability and F against engine time (Fig. 5), the segmentation "
           "coloured correct / spurious / missed, and the lexicon each sampler has found.",
           ("Type blocks",), models=("usm", "bigram")),
    Lesson("pages/tag_trajectories.py", "HMM tag trajectories", ":material/label:",
           "Carry types and blocks over to the HMM tagger, and see that who wins depends on "
           "the prior and on how many tokens each word has.",
           "The Bayesian HMM for part-of-speech induction on simple tagged sentences (built "
           "in, synthetic from a known HMM, or your CoNLL-U / word/TAG file): heatmaps of every "
           "token's state pass by pass for TOKEN and TYPE side by side, one word's states over "
           "time, accuracy and log-probability for all five samplers, and the "
           "states-against-tags confusion matrix.",
           ("Word segmentation",), models=("hmm",)),
    Lesson("pages/hmm_estimators.py", "HMM estimators", ":material/compare_arrows:",
           "Compare EM, variational Bayes and four Gibbs samplers of one HMM, and see how the "
           "choice of evaluation measure can change the winner (Gao & Johnson 2008).",
           "Gao & Johnson's six estimators of the same HMM from one start: EM, variational "
           "Bayes, explicit and collapsed Gibbs, pointwise and blocked. Their objectives and "
           "the four tagging measures against iterations or engine time, their eight (α, α′), "
           "and a grid on Dask that fills their Figures 2–5 on your corpus.",
           ("HMM tag trajectories",), models=("hmm",)),
    Lesson("pages/restaurants.py", "Restaurants", ":material/restaurant:",
           "Watch the Chinese restaurant seat its customers, and see why a hierarchical model "
           "must count its tables — and why the bigram model has no TYPE sampler.",
           "The Chinese restaurant behind the Dirichlet and Pitman-Yor processes, filling up "
           "customer by customer, with its seating kept both explicitly and as the histogram "
           "of table sizes (Blunsom et al. 2009); then the note's Figure 2 on a corpus you "
           "pick: the expected number of tables against word frequency, Antoniak's and GGJ06's "
           "approximations, and why the bigram segmentation model must count its tables.",
           ("Word segmentation",), models=("bigram",)),
    Lesson("pages/tree_fragments.py", "Tree fragments", ":material/account_tree:",
           "Carry types and blocks over to trees: a Dirichlet process per nonterminal over "
           "tree fragments, where one TYPE move makes or unmakes a fragment everywhere, and "
           "what the learned fragments are worth for parsing.",
           "Liang et al.'s third model, a tree-substitution grammar learned from a treebank "
           "(built in, or your Penn trees): TOKEN, TYPE, TOKEN-anneal, TYPE-greedy and "
           "SENTENCE race from the same cuts, with log p(fragments) and held-out bracket F1 against engine "
           "time (Fig. 5c), the trees drawn cut into their fragments, the fragment lexicon "
           "per nonterminal, and held-out sentences parsed by the sampled grammar beside the "
           "PCFG baselines.",
           ("Word segmentation", "Restaurants"), models=("ptsg",)),
    Lesson("pages/forests.py", "Tree fragments from forests", ":material/lan:",
           "Carry types and blocks over to structure that is itself uncertain: from word-aligned "
           "sentence pairs, a sampler picks a tree in each pair's forest and cuts it into SCFG "
           "rules, and TYPE makes a composed rule everywhere in one move.",
           "Peng & Gildea's SCFG rule sampler on word-aligned sentence pairs (built in, or "
           "yours): each pair drawn as its alignment grid with its phrase pairs boxed (Fig. 1) "
           "and as its forest with the current tree and its cuts (Fig. 2); TOKEN, TYPE, "
           "TYPE-greedy, TYPE-anneal and the one-stage draw, as the paper has it and corrected, "
           "race from the same start, with log p(rules) against engine time and passes (Fig. "
           "4), and the rules learned, in Hiero's format.",
           ("Tree fragments",), models=("scfg",)),
    Lesson("pages/particle_filter.py", "Particle filter", ":material/scatter_plot:",
           "Learn segmentation online: watch weights degenerate, resampling merge the "
           "genealogy, Ẑ estimate the corpus's probability, and rejuvenation repair early "
           "mistakes.",
           "Word segmentation learned online (Börschinger & Johnson 2011): N weighted "
           "particles read the utterances once, each drawing a segmentation from its own "
           "frozen model. Watch the weights degenerate, the effective sample size fall to the "
           "threshold, resampling merge the genealogy, and Ẑ estimate the corpus's "
           "probability; switch on rejuvenation (TOKEN or TYPE moves inside each particle), "
           "run their Table 1 on Dask, and see what reading once costs against batch samplers "
           "of the same model.",
           ("Word segmentation", "Restaurants"), models=("usm", "bigram")),
    Lesson("pages/sampler_race.py", "Sampler race", ":material/monitoring:",
           "Tell a stuck sampler from a mixed one with several chains per sampler, R̂ and ESS, "
           "on any model and corpus.",
           "Diagnose mixing on any model and any corpus (yours too): several chains of every "
           "sampler (and of TYPE + TOKEN, TYPE + SENTENCE) from different starts, running in "
           "worker processes, with R̂ and ESS per sampler, a verdict line, the "
           "autocorrelation, and the initialisation sweep over η (Fig. 5 d–f) on a Dask "
           "cluster.",
           ("Word segmentation", "HMM tag trajectories"),
           models=("toy", "usm", "bigram", "hmm", "ptsg", "scfg")),
)

GLOSSARY = (
    Entry("site", "site",
          "A place where the sampler makes one choice b_s: a gap between two symbols in word "
          "segmentation (boundary or not), a token in the HMM (its state), a copy of `ab` in "
          "the toy (split or not)."),
    Entry("pass", "pass",
          "One round over the corpus in which every site is visited once (SENTENCE: every "
          "utterance or sentence once). Traces are drawn against passes, pass 0 being the "
          "shared initial state."),
    Entry("sweep", "sweep",
          "Another name for a pass; for EM and variational Bayes one iteration (an E- and an "
          "M-step) counts as one."),
    Entry("type", "type",
          "Two sites have the same type when setting either to the same value adds the same "
          "counts (Liang et al. §4): in segmentation both read `ab|c` or `abc`, in the HMM both "
          "are the same word between the same previous and next states. A site's type depends "
          "on the current analysis."),
    Entry("pivot", "pivot",
          "The site a TYPE move starts from (a sweep takes each site in turn, in site order or "
          "in a random one); its type decides which sites the move looks at."),
    Entry("conflict", "conflict",
          "Two sites conflict when some choice depends on both — the two boundaries of one "
          "word, or two adjacent HMM tokens sharing a transition. A block leaves out every site "
          "that conflicts with one already in it."),
    Entry("block", "block",
          "The set S of non-conflicting sites of the pivot's type that one TYPE move resamples "
          "together. Its sites are exchangeable: every assignment with m of them at value 1 has "
          "the same probability g(m)."),
    Entry("m", "m",
          "In a TYPE move, how many of the block's sites get value 1; it is drawn from "
          "p(m) ∝ C(|S|, m) g(m) (eq. 7). On the toy, the number of copies split as `a b`."),
    Entry("η", "eta",
          "The initial state's setting: each site starts at value 1 — a boundary, state 1, a "
          "split copy — with probability η (the HMM: the share of tokens starting in state 1, "
          "the rest at random). η = 1 is the paper's start for TYPE."),
    Entry("TOKEN", "token",
          "Gibbs sampling one site at a time from its conditional given all the others "
          "(Liang et al. eq. 4)."),
    Entry("TYPE", "type-sampler",
          "Liang et al.'s type-based sampler: pick a pivot, gather its block, draw m exactly "
          "from eq. 7 and give a uniformly random m of the block's sites value 1."),
    Entry("SENTENCE", "sentence",
          "A blocked sampler: it draws a whole utterance's segmentation or sentence's tags by "
          "dynamic programming with the other counts fixed, then accepts it by "
          "Metropolis-Hastings."),
    Entry("anneal", "anneal",
          "TOKEN-anneal raises TOKEN's conditional to the power 1/T, the temperature T cooling "
          "from 10 to 1 over the first half of the run, so early moves are bolder."),
    Entry("greedy", "greedy",
          "TYPE-greedy sets each block all to one value, whichever of all-0 and all-1 is more "
          "probable. It is not a sampler of the posterior and can freeze."),
    Entry("engine time", "engine-time",
          "The seconds a sampler spends inside the engine, without drawing or measuring. The "
          "clock “equal engine time” gives every sampler the same share of it, as in Fig. 5."),
    Entry("R̂", "r-hat",
          "The potential scale reduction: it compares the spread between chains with the "
          "spread within them (each split in halves). Near 1 the chains agree; above 1.01 they "
          "have not mixed, and their draws should not be used."),
    Entry("ESS", "ess",
          "Effective sample size: how many independent draws a chain's correlated draws are "
          "worth. In the particle filter, the weights' ESS = 1 / Σ w² says how many particles "
          "really carry the weight."),
    Entry("CRP", "crp",
          "The Chinese restaurant process: each customer (a word token) joins an occupied "
          "table in proportion to its customers, or opens a new table in proportion to α; a "
          "new table draws its dish (a word) from the base distribution."),
    Entry("table", "table",
          "In a CRP, a group of customers sharing one draw from the base. The number of tables "
          "of a word, t_w, is what a hierarchical model's higher level counts."),
    Entry("particle", "particle",
          "One hypothesis of the particle filter: a segmentation of the utterances read so far "
          "with the model state it implies, and a weight saying how well it predicted them."),
    Entry("resampling", "resampling",
          "Replacing the particles by N draws among them in proportion to their weights, when "
          "the ESS falls to the threshold: heavy particles are copied, light ones dropped."),
    Entry("rejuvenation", "rejuvenation",
          "MCMC moves (TOKEN or TYPE) inside each particle on the utterances it has already "
          "read, after every utterance: the particle may revise earlier segmentations."),
    Entry("Ẑ", "z-hat",
          "The particle filter's estimate of the probability of the utterances read: the "
          "product, over utterances, of the mean unnormalised weight. It is unbiased."),
    Entry("DPS / DPM", "dps-dpm",
          "Dynamic-programming sampling and maximisation (Pearl et al. 2011): online learners "
          "that segment each utterance once with the lexicon learned so far, DPS drawing the "
          "segmentation, DPM taking the most probable one. DPS is a particle filter with one "
          "particle."),
    Entry("EM / VB", "em-vb",
          "Expectation-maximisation finds a point estimate of the HMM's probabilities; "
          "variational Bayes fits an approximate posterior over them. Both iterate an E-step "
          "over the whole corpus and an M-step."),
    Entry("explicit", "explicit",
          "An explicit Gibbs sampler draws the probabilities θ, φ as well as the tags; a "
          "collapsed one (TOKEN, SENTENCE) integrates them out (Gao & Johnson 2008)."),
    Entry("many-to-one", "many-to-one",
          "Tagging accuracy with each state mapped to the gold tag it meets most; several "
          "states may map to one tag. Greedy 1-to-1 maps each state to a different tag."),
    Entry("VI", "vi",
          "Variation of information, in bits: how much the states and the gold tags fail to "
          "tell each other. Lower is better, but a tagger with one state scores well on it."),
)
_BY_WORD = {entry.word: entry for entry in GLOSSARY}


def term(word, text=None, here=False):
    """A markdown link from ``text`` (default ``word``) to the glossary entry of ``word`` on
    Home. ``here``: the link is on Home itself, so it scrolls there instead of opening Home in
    a new tab. KeyError for a word the glossary lacks: a link must not lead nowhere."""
    # a relative link: the pages sit one level below Home, whatever the app's base path
    return f"[{text or word}]({'' if here else './'}#{anchor(word)})"


def anchor(word):
    """The anchor of ``word``'s entry on Home."""
    return f"glossary-{_BY_WORD[word].anchor}"


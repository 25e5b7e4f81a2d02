"""Every lesson's "predict, then run" exercises, keyed by the page's settings prefix.

Each answer says what the seeded run of its link shows; tests/app/test_exercises.py opens each
link, runs it as the answer says and checks every claim, so an answer cannot drift from the page.
"""
from ui.course import term
from ui.exercise import Exercise

FIG2 = "Fig. 2: TOKEN stuck at m = n, TYPE at the mode"
THE_BLOCK = "One block of “the” (HMM)"
TYPE_WINS = "TYPE wins on large word types (α′ = 0.0001)"
GREEDY = "TYPE-greedy collapses"
DP_ONE = "DP, α = 1: a few big tables (the rich get richer)"
POWER_LAW = "Pitman-Yor, d = 0.8: tables keep opening (a power law)"
ESCAPES = "TYPE escapes where TOKEN crawls"
STAY_PUT = "EM and VB stay put from one tag (η = 1)"
STUCK_CHAIN = "R̂ catches a stuck chain (toy, starts spread from m = 0 to m = n)"
ONE_PARTICLE = "N = 1 collapses: one particle is DPS"
FIGURE_TWO = "Figure 2: Antoniak's approximation fails when αP(w) < 1"
TYPE_CLIMBS = "From η = 1, TYPE climbs ahead of TOKEN"
GREEDY_STICKS = "From η = 0, TYPE-greedy sticks far below TYPE"
ALL_CUT = "TOKEN stuck at all-cut"
HOT_THEN_HIGH = "TYPE-anneal: hot, then as high as TYPE"
WITHOUT_DEG = "Without deg(v) the edge sampler is wrong"

EXERCISES = {
    "toy": (
        Exercise(
            f"Every chain starts at m = n = 1,000: every copy split. Predict after how many "
            f"{term('pass', 'passes')} {term('TOKEN')}'s m is below n/2 = 500, and "
            f"{term('TYPE')}'s. Where do TOKEN-{term('anneal')} and TYPE-{term('greedy')} go?",
            "TOKEN stays above 800 for three passes (994, 962, 847), is at 485 after the "
            "fourth and at 0 after the seventh: it has to make enough `ab`s, one copy at a "
            "time, before joining pays. TYPE is at 0 after its first pass: one move draws m "
            "for the whole block of 1,000 copies. TOKEN-anneal drops to about 550 in its "
            "first pass and then wanders between 400 and 550 for the next ten: hot, it "
            "flattens the posterior and cannot settle at the mode. TYPE-greedy goes to m = 0 "
            "at once, since g(0) > g(n).",
            preset=FIG2),
        Exercise(
            "TOKEN's escape time (the chart under the exact posterior) is measured over 200 "
            "chains from m = n. At n = 1,000 it reads a median of 5 passes. Predict the median "
            "at n = 10,000 — ten times as many copies.",
            "A median of 6 passes: ten times the copies costs about one more pass (at n = 100 "
            "the median is 3). From m = n, TOKEN joins each copy with probability ≈ 2/n, so a "
            "pass joins about two copies whatever n is; the `ab`s it makes then make joining "
            "more probable, so their number grows geometrically and escaping takes about "
            "log n passes. Each pass, though, costs n site updates. In the race above, TOKEN's "
            "m is still above 9,000 after five passes, and TYPE is at 0 after one.",
            settings=dict(n=10_000, m=10_000),
            then="Read the caption under “TOKEN's escape time”, then press Play."),
    ),
    "tb": (
        Exercise(
            f"All 40 sentences start in state 1 (η = 1, K = 5). The first {term('pivot')} is a "
            f"`the`. Predict how many {term('site', 'sites')} its {term('block')} holds, how many "
            "of them the move changes, and how likely TOKEN would be to move this one `the`.",
            "The block holds all 27 `the`s of the type (between state 1 and state 1; none "
            f"{term('conflict', 'conflicts')}: no two `the`s are adjacent). The move drew "
            "m = 26: 26 `the`s went to the other state of the slice in one move. TOKEN, "
            "weighing this one `the` with the other 26 held in state 1, would move it with "
            "probability below 0.001: it would stay stuck.",
            preset=THE_BLOCK, then="Press TYPE move once."),
        Exercise(
            "Word segmentation on 40 utterances of nursery talk, every symbol a word (η = 1). "
            "Predict the largest block among the first ten TYPE moves, and how many sites "
            "that move changes.",
            "The fifth move's pivot has the type `t|h · th`: 24 sites, all in the block. It "
            "drew m = 1, so 23 `t h` pairs became the word `th` in one move. The other nine "
            "blocks hold one to seven sites. TOKEN at that pivot would have joined it with "
            "probability 0.003.",
            settings=dict(model="usm", eta=1.0),
            then="Press 10 moves and read the table of recent moves."),
        Exercise(
            f"Now start with no boundary at all ({term('η')} = 0): every utterance is one word. "
            "Predict the block sizes of the first ten TYPE moves.",
            "Every block has a single site. A pivot's type is its whole utterance split at one "
            "place (`itwentunderthe|chair` against `itwentunderthechair`), and no other site in "
            "the corpus has that type: TYPE then makes TOKEN's move. None of the ten moves "
            "changes anything — splitting a long word is improbable for one site alone.",
            settings=dict(model="usm", eta=0.0),
            then="Press 10 moves and read the table of recent moves."),
    ),
    "seg": (
        Exercise(
            f"The unigram model on nursery talk, every symbol a word at the start ({term('η')} "
            f"= 1). Predict {term('TOKEN')}'s and {term('TYPE')}'s token F after 10 and after "
            f"200 {term('pass', 'passes')}.",
            "TYPE is at token F 0.39 after 10 passes and 0.52 after 200 (log-probability "
            "−11,899); TOKEN is at 0.02 after 10, 0.10 after 100 and 0.16 after 200 "
            "(−14,795). TOKEN must build each word boundary by boundary, and merging two "
            "frequent one-symbol words is improbable for one site alone; TYPE creates or "
            "removes every occurrence of a word in one move.",
            preset=ESCAPES, settings=dict(clock="passes")),
        Exercise(
            "Start from the other end: no boundaries (η = 0), each utterance one long word. "
            "Predict: does TOKEN still crawl, and does TYPE still lead after 100 passes?",
            "Both do better than from η = 1, and TYPE still leads by far: TOKEN reaches token "
            "F 0.30 (log-probability −13,347) against 0.10 from η = 1 at the same pass, TYPE "
            "0.53 (−11,928) against 0.49. The start matters, and more for TOKEN: Liang et "
            "al.'s Fig. 5 d–f sweeps η (the Sampler race lesson runs that sweep).",
            settings=dict(samplers=("token", "type"), eta=0.0, passes=100, clock="passes")),
        Exercise(
            "TYPE alone with the skip approximation off: a site may be a pivot again after its "
            "block was resampled in the same pass. Predict: more or less progress per pass "
            "than with skip on (the first exercise's TYPE: token F 0.49 at pass 100)?",
            "More per pass: at pass 100 token F 0.53 and log-probability −11,897, against "
            "0.49 and −12,017 with skip on — each pass makes more moves. Each pass also costs "
            f"more {term('engine time')} (the metric's tooltip gives it): per second, the gain "
            "is smaller, which is why Liang et al. skip.",
            settings=dict(samplers=("type",), passes=100, skip=False, clock="passes")),
    ),
    "hmm": (
        Exercise(
            f"TYPE against TYPE-{term('greedy')}, which sets each {term('block')} all to one "
            "state of its slice. Predict: does greedy keep improving like TYPE over 200 "
            "passes, and how many of the 15 states does it use?",
            "Greedy is frozen from pass 5 on: its log-probability stays at −11,206 and its "
            "many-to-one accuracy at 36.6% to the end, with every token in one of 2 states "
            "(its heatmaps show two colours, its confusion matrix two rows with tokens). TYPE "
            "uses all 15 states and ends at 50.4%. Taking the more probable of all-k and "
            "all-k′ is a hill-climb, not a sampler: once no whole-block move raises the "
            "probability, nothing changes again.",
            preset=GREEDY),
        Exercise(
            f"The preset “{TYPE_WINS}” shows TYPE ahead with a sparse emission prior. Predict "
            "who leads with the default α′ = 0.1, where a word's tokens are coupled less "
            "strongly.",
            "TYPE leads early — at pass 50 its log-probability is −10,774 against TOKEN's "
            "−11,358 — but TOKEN overtakes it before pass 100 and ends at −10,426 and 70.5% "
            "many-to-one accuracy, against TYPE's −10,984 and 50.4%. With α′ = 0.1 TOKEN is "
            "not stuck on 2,062 tokens, and a TYPE move weighs only 2 of the 15 states where "
            "TOKEN weighs all of them.",
            preset=TYPE_WINS, settings=dict(alpha_emit=0.1, clock="passes")),
    ),
    "rest": (
        Exercise(
            f"A Dirichlet process with α = 1: 200 customers sit at 6 {term('table', 'tables')}. "
            "Predict how many tables 1,000 customers open.",
            "7 tables: five times the customers, one more table. A new customer opens a table "
            "with probability α / (n + α), so after n customers a DP has about "
            "α log(1 + n/α) ≈ 6.9 tables: they grow with the logarithm of n. The two biggest "
            "tables seat 850 of the 1,000 (the rich get richer).",
            preset=DP_ONE, settings=dict(customers=1000),
            then="Press Play and let all the customers arrive."),
        Exercise(
            "The Pitman-Yor process with discount d = 0.8: 400 customers sit at 175 tables. "
            "Predict the tables for 1,600 customers — four times as many.",
            "505 tables, 2.9 times as many: the discount gives new tables probability "
            "(α + d·T) / (n + α), which stays large while T grows, so T grows like nᵈ "
            "(4 to the power 0.8 ≈ 3.0) — a power law, where a DP's would grow by a constant. "
            "The median table still seats one customer while the biggest seats 211, and the metric "
            "“P(next customer opens a table)” reads 0.253.",
            preset=POWER_LAW, settings=dict(customers=1600),
            then="Press Play and let all the customers arrive."),
        Exercise(
            "Simple sentences have V = 518 word types; with α = 100 each word's base weight is "
            "a = α P(w) = 100/518 ≈ 0.19. 114 words are seen twice. Predict their expected "
            "number of tables exactly, by Antoniak's approximation, and in the HDP bigram "
            "model. Then the same at α = 100,000.",
            "Exactly 1.16: the first customer always opens a table, the second opens one with "
            "probability a / (a + 1) ≈ 0.16 (the stars, sampled, sit at 1.16 too). Antoniak's "
            "a log((n + a)/a) gives 0.47 — fewer tables than the one a seen word always has. "
            "The bigram model's circle is at 1.75: its base P₁ is learned from the tables, so "
            "a word with tables in several contexts gets a base far above 1/V, and more "
            "tables. At α = 100,000 (a ≈ 193) all agree near 2 (exact 1.99, Antoniak 1.99, "
            "the bigram model 1.99): when a ≫ n nearly every customer opens a table, and the "
            "approximation only fails for a < 1.",
            preset=FIGURE_TWO,
            then="Read the figure under “Why count the tables?” at frequency 2 (hover a point "
                 "or a line); the α box chooses the colours shown."),
    ),
    "gj": (
        Exercise(
            f"Every token starts in state 1 ({term('η')} = 1). Predict which of "
            f"{term('EM / VB', 'EM')}, variational Bayes and {term('TOKEN')} leave that "
            "one-state tagging within 50 "
            "iterations, and their greedy 1-to-1 accuracy at the end.",
            "VB never moves: its log p(tags, words) stays at −12,027.4 and its accuracy at "
            "20.5% — the score of giving every word one tag — at every iteration. EM moves "
            "a little: its first iteration takes a second state, it never takes a third, and "
            "it ends at 26.5%. "
            "TOKEN uses 14 states by iteration 10 and all 15 by 50, and reaches 43.3%. EM and "
            "VB compute expected counts deterministically, and from a tagging with 14 empty "
            "states they have little to break the symmetry with; TOKEN draws each token's "
            "state, and its random draws fill the empty states.",
            preset=STAY_PUT),
        Exercise(
            "All six from a random tagging (η = 0, their jittered start), 200 iterations. "
            "Predict which ends with the highest log p(tags, words), and which is the most "
            f"accurate. Does {term('explicit')} sampling cost anything here?",
            "Blocked sampling wins: the two SENTENCE samplers end highest and most accurate "
            "— collapsed SENTENCE at −10,070 (1-to-1 54.7%, many-to-one 72.4%, "
            f"{term('VI')} 2.93 bits, the lowest), explicit SENTENCE at −10,348 (49.4%, "
            "64.8%, 3.42 bits). Among the pointwise samplers collapsed TOKEN (−10,429) beats "
            "explicit TOKEN (−10,494) in log-probability, though at this seed explicit TOKEN's "
            "tagging is the more accurate (48.9% against 46.2%). EM ends at −10,367 with "
            "45.5%, VB lowest at −12,110 and 41.5%. Explicit sampling costs log-probability "
            "here: each explicit sampler ends below its collapsed twin.",
            settings=dict(eta=0.0)),
    ),
    "tf": (
        Exercise(
            f"From {term('η')} = 0 (every tree one fragment) TYPE-{term('greedy')} sticks at "
            "log p(fragments) −1,981, far below TYPE's −1,818. Predict where it ends from "
            "η = 1 (every rule its own fragment), against TYPE and TOKEN.",
            "Above both: from η = 1 greedy is frozen from pass 4 on at −1,688, against TYPE's "
            "−1,836 and TOKEN's −1,868 at pass 100. It joins only what raises the probability "
            "at once, so it stays close to the PCFG (643 fragments of 1.53 rules on average, "
            "against TYPE's 479 of 2.05) at a state more probable than any the samplers visit: "
            "the posterior's mass lies in the many states a little less probable than its "
            "peak. Its start decides where it sticks; a sampler's does not in the long run.",
            preset=GREEDY_STICKS, settings=dict(eta=1.0)),
        Exercise(
            "Held-out F1 of the plain PCFG on this split is 0.743, of the parent-annotated "
            "PCFG 0.643. Predict TYPE's and TOKEN's held-out F1 after 100 passes from η = 1, "
            "and at pass 0.",
            "F1 does not follow log p(fragments) here: at pass 0 (every rule its own "
            "fragment) the grammar scores 0.780; after 100 passes TYPE's scores 0.780 again "
            "and TOKEN's 0.714, though both raised log p (TYPE to −1,836, TOKEN to −1,868). "
            "Every "
            "grammar stays above the parent-annotated PCFG, which splits 72 training trees' "
            "counts too thinly. The 18 held-out sentences have 99 gold brackets, so one "
            "bracket moves F1 by about a point. On GUM's thousands of training trees the "
            "grammar of 10 samples of 100 TYPE passes parses the dev sentences at 0.733 "
            "against the PCFG's 0.686 (the last sample's alone: 0.714).",
            preset=TYPE_CLIMBS, settings=dict(passes=100)),
    ),
    "pf": (
        Exercise(
            f"50 {term('particle', 'particles')} read the 408 utterances, {term('resampling')} "
            f"whenever the {term('ESS')} falls to N/2 = 25. Predict how many times they "
            f"resample, and how low the ESS gets.",
            "91 resamplings in 408 utterances, and at some utterance the ESS is 1.0: one "
            "particle predicted it so much better than the others that it took all the "
            f"weight. At the end log {term('Ẑ')} = −12,310.9.",
            settings=dict(particles=50, threshold="N/2"),
            then="Press Play and let the particles read every utterance."),
        Exercise(
            "Now resample after every utterance (threshold N). Predict: more or fewer "
            "distinct parents at the last utterance, and a higher or lower log Ẑ?",
            "Resampling at all 408 utterances merges the genealogy far more often: at the "
            "last utterance only 29 of the 50 particles have offspring (under N/2 no "
            "resampling was needed there, all 50 went on). log Ẑ ends at −12,837.3, 526 "
            "below N/2's on this seed — resampling when the weights are still even throws "
            "hypotheses away for nothing. Other seeds spread widely: try a few.",
            settings=dict(particles=50, threshold="N"),
            then="Press Play and let the particles read every utterance."),
        Exercise(
            f"One particle: the online learner {term('DPS / DPM', 'DPS')}. Predict its log Ẑ "
            "against 50 particles' −12,310.9, and how often it resamples.",
            "log Ẑ = −14,248.5, about 1,940 lower: with nothing to choose between, every early "
            "mistake stays in its lexicon and makes later utterances less probable. It never "
            "resamples: the ESS of one particle is always 1, above N/2 = 0.5.",
            preset=ONE_PARTICLE, then="Press Play and let the particles read every utterance."),
    ),
    "race": (
        Exercise(
            "The toy with n = 100,000: four chains per sampler start spread out, at m = 0, "
            f"33,538, 66,709 and 100,000. Predict {term('R̂')} for TOKEN and for TYPE after 12 "
            "passes.",
            "TOKEN's R̂ is 4.8, far above 1.01: its other three chains are at m = 0 by pass "
            "6, but the one from m = n is still at 99,813 after three passes, 82,190 after six "
            "and 51 after nine, so the last half of the chains — what R̂ reads — holds its "
            "descent. TYPE's four chains are all at m = 0 after their first pass and stay "
            "there: identical draws leave no spread to compare, so R̂ is undefined — the "
            "chains agree exactly.",
            preset=STUCK_CHAIN),
        Exercise(
            "The same chains for 100 passes. Predict TOKEN's R̂ now.",
            "Undefined, like TYPE's: every TOKEN chain is at m = 0 by pass 12, so the "
            "last half of each chain (passes 50–100) is the same in all four. R̂ only sees "
            "the draws it is given: once the stuck chain has escaped, it no longer tells that "
            "the chain was stuck — the traces do.",
            preset=STUCK_CHAIN, settings=dict(passes=100)),
    ),
    "fo": (
        Exercise(
            f"From {term('η')} = 1 every phrase pair is its own rule: 376 rules in use, 39 "
            "distinct, log p(rules) −1,586.8. Predict TOKEN's and TYPE's log p after 30 "
            "passes, and how many rules TYPE ends with.",
            "TOKEN has not moved: −1,586.8 at every pass, all 376 rules. Merging a node into "
            "the rule above it makes a composed rule that does not exist yet, weighed by the "
            "base P₀ alone — 1/33 for each of its source symbols and 1/34 for each target "
            "symbol (the pairs' vocabularies) — and "
            "one node at a time that never pays. TYPE ends at −1,214.7 with 229 rules, 33 "
            "distinct, 1.64 phrase pairs each: it merges a whole block at once, e.g. "
            "`[X,1] o mitsuketa ||| found the [X,1]`, 11 times — the verb with its object "
            "particle, reordered.",
            preset=ALL_CUT),
        Exercise(
            "TYPE-anneal raises the posterior to β, 0.1 for its first three passes, then up by "
            "0.1 every three passes to 1.3 and back to 1 from pass 45. Predict its log p at "
            "pass 3 and at pass 60, against TOKEN's −1,586.8 and TYPE's.",
            "At pass 3 it is at −2,339.6, 753 below TOKEN: hot, it merges and splits almost "
            "at random. By pass 30 it has passed TYPE (−1,173.6 against −1,214.7) and at pass "
            "60 it stands at −1,173.6, TYPE at −1,170.9: annealing ends as high as TYPE here, "
            "as in the paper's Fig. 4 it ends a little above.",
            preset=HOT_THEN_HIGH),
        Exercise(
            "One four-word pair, `a b c d ||| w x y z`, aligned word to word: its forest has 5 "
            "trees, and its root three edges, (a | b c d), (a b | c d) and (a b c | d), with "
            "exact posterior 0.4, 0.2 and 0.4. The link runs TOKEN without the ∏ deg(v) of "
            "eq. 9 (Model settings). Predict how often its root has the middle edge in 2,000 "
            "passes, then with the factor back.",
            "Without it, the middle edge in 34.0 % of the passes, far from 20 %: the chain "
            "keeps an edge and a cut at every node, on the tree or not, and a tree whose "
            "nodes have more incoming edges has more such completions — (a | b c d) and "
            "(a b c | d) each bring a node of two edges onto the tree, the middle edge none. "
            "With the factor back (tick it off in Model settings) the share is 19.2 %, the "
            "exact 20 % within the chain's noise.",
            preset=WITHOUT_DEG),
    ),
}

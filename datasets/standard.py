"""The standard public corpora the README's commands, the tests and the benchmarks use, which the
project does not ship (their licences are not ours to grant): where each comes from, under which
terms, and the SHA-256 of every file (``standard-corpora.sha256`` beside this module, in the
format ``sha256sum -c`` reads), so that a downloaded file can be checked (``python -m engine
corpora check FILE``).
"""
import fnmatch
import hashlib
from dataclasses import dataclass
from pathlib import Path

from datasets.text import read_bytes

CHECKSUMS = Path(__file__).resolve().parent / "standard-corpora.sha256"


@dataclass(frozen=True)
class StandardCorpus:
    """A public corpus: its name, where to download it (a release or commit, so the files are
    the ones the checksums were taken of), its terms, and its files as paths relative to the
    data folder (``files``, shell patterns)."""

    name: str
    what: str
    source: str
    version: str
    licence: str
    files: tuple

    def holds(self, path):
        """Whether the data folder's file ``path`` (relative, with /) belongs to this corpus."""
        return any(fnmatch.fnmatchcase(path, pattern) for pattern in self.files)


CORPORA = (
    StandardCorpus(
        "Brent corpus (br-phono)",
        "Brent & Cartwright's (1996) phonemic transcription of the Bernstein-Ratner corpus of "
        "child-directed speech: 9,790 utterances, 33,399 words",
        "https://github.com/kamperh/dpdp_aernn/blob/7712514027931093f179e984eb19810c32f31e92/"
        "data/br-phono.txt",
        "commit 7712514 of kamperh/dpdp_aernn",
        "CHILDES/TalkBank terms (research use)",
        ("br-phono.txt",)),
    StandardCorpus(
        "UD English-EWT",
        "Universal Dependencies English Web Treebank, dev and test splits: 2,001 and 2,077 "
        "sentences, UPOS (17 tags) and XPOS columns",
        "https://github.com/UniversalDependencies/UD_English-EWT/tree/r2.16",
        "release 2.16 (tag r2.16)",
        "CC BY-SA 4.0",
        ("en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu")),
    StandardCorpus(
        "GUM constituency trees",
        "the const/ folder of the Georgetown University Multilayer corpus, Penn brackets "
        "(automatic parses over gold POS tags), the genres academic, bio, court (less "
        "court_carpet), interview, news and voyage: 107 files, kept in a folder gum-const/",
        "https://github.com/amir-zeldes/gum/tree/72ce5ac14978a324c2fd18d49484e65292cbe316/const",
        "commit 72ce5ac of amir-zeldes/gum (2025-05-12)",
        "annotations CC BY 4.0; texts CC BY 4.0 (academic, court), CC BY-SA 3.0 (bio, voyage), "
        "CC BY 2.5 (interview, news)",
        ("gum-const/GUM_*.ptb",)),
    StandardCorpus(
        "KFTT Japanese-English alignments",
        "582 sentence pairs of the Kyoto Free Translation Task with hand word alignments, as "
        "awesome-align's examples ship them, kept in a folder kftt-jaen/ "
        "(jaen.gold.0idx.pharaoh is their jaen.gold made 0-indexed, less the 6 links past a "
        "sentence's end)",
        "https://github.com/neulab/awesome-align/tree/5f150d45bbe51e167daf0a84abebaeb07c3323d1/"
        "examples",
        "commit 5f150d4 of neulab/awesome-align",
        "text CC BY-SA 3.0 (KFTT); awesome-align's files BSD 3-Clause",
        ("kftt-jaen/jaen.*",)),
)


# GUM's own partition into train, dev and test documents (two of each genre in dev and in
# test; its README lists them), for the genres the standard corpus holds; every other document
# is train. Liang et al. trained on WSJ §2–21 and tested on §23: GUM is the public stand-in.
GUM_PARTS = {
    "dev": ("academic_exposure", "academic_librarians", "bio_byron", "bio_emperor", "court_loan",
            "court_negligence", "interview_cyclone", "interview_gaming", "news_homeopathic",
            "news_iodine", "voyage_athens", "voyage_coron"),
    "test": ("academic_discrimination", "academic_eegimaa", "bio_dvorak", "bio_jespersen",
             "court_insanity", "court_mitigation", "interview_hill", "interview_libertarian",
             "news_nasa", "news_sensitive", "voyage_oakland", "voyage_vavau"),
}


def gum_files(folder, part):
    """The GUM .ptb files of ``part`` ("train", "dev" or "test") in ``folder``, sorted; a
    CorpusError when the folder holds no GUM file."""
    from datasets.errors import CorpusError
    every = sorted(Path(folder).glob("GUM_*.ptb"))
    if not every:
        raise CorpusError(f"{folder} holds no GUM_*.ptb file: download GUM's const/ folder "
                          "there (python -m engine corpora list says from where)")
    held = {f"GUM_{name}.ptb" for names in GUM_PARTS.values() for name in names}
    if part == "train":
        return [path for path in every if path.name not in held]
    return [path for path in every if path.name[4:-4] in GUM_PARTS[part]]


def checksums():
    """{path in the data folder: SHA-256 in hex} of every standard file."""
    pairs = (line.split(maxsplit=1) for line in CHECKSUMS.read_text("utf-8").splitlines()
             if line.strip())
    return {path.strip(): digest for digest, path in pairs}


def corpus_of(path):
    """The StandardCorpus the data folder's file ``path`` belongs to."""
    return next(corpus for corpus in CORPORA if corpus.holds(path))


def sha256(path):
    """The SHA-256 of a file's bytes, in hex; a file that cannot be read is a CorpusError."""
    return hashlib.sha256(read_bytes(Path(path))).hexdigest()


@dataclass(frozen=True)
class Check:
    """What ``check`` found: whether the file is a standard file as published (``matches``),
    and a sentence saying which and what to do."""

    matches: bool
    message: str


def check(path):
    """Which standard corpus file ``path`` is, told by its SHA-256 (any name); else, by its
    name, which one it was meant to be and that it differs.

    Returns
    -------
    Check

    Raises
    ------
    CorpusError
        When the file cannot be read.
    """
    digest, known = sha256(path), checksums()
    same = [name for name, expected in known.items() if expected == digest]
    if same:
        corpus = corpus_of(same[0])
        return Check(True, f"{path}: matches {same[0]} of {corpus.name}, {corpus.version} "
                           f"(SHA-256 {digest[:12]}…)")
    named = [name for name in known if name.rsplit("/", 1)[-1] == Path(path).name]
    if named:
        corpus = corpus_of(named[0])
        return Check(False, f"{path}: named like {named[0]} of {corpus.name}, but its content "
                            f"differs (SHA-256 {digest[:12]}…, expected "
                            f"{known[named[0]][:12]}…): download it again from "
                            f"{corpus.source} ({corpus.version})")
    return Check(False, f"{path}: not one of the standard corpora's files (SHA-256 "
                        f"{digest[:12]}…); `python -m engine corpora list` lists them")


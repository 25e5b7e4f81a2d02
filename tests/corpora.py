"""The public corpora the tests and benchmarks read, which the project does not ship (README,
"Standard corpora": where to get them, and their checksums). They are looked for in the folder
``TYPEBLOCKS_DATA`` names, by default ``shared/data`` beside the project's folder; a test or a
benchmark whose corpus is missing is skipped, naming the file."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path(os.environ.get("TYPEBLOCKS_DATA") or ROOT.parent / "shared" / "data")
BR_PHONO = FOLDER / "br-phono.txt"
EWT_DEV = FOLDER / "en_ewt-ud-dev.conllu"
GUM_CONST = FOLDER / "gum-const"  # GUM's constituency trees, one .ptb file per document


def gum_split(part):
    """The GUM .ptb files of one part of GUM's partition ("train", "dev" or "test"), sorted."""
    from datasets.standard import gum_files
    return gum_files(GUM_CONST, part)
KFTT_PAIRS = FOLDER / "kftt-jaen" / "jaen.src-tgt"  # 582 Japanese-English pairs (KFTT)
KFTT_GOLD = FOLDER / "kftt-jaen" / "jaen.gold.0idx.pharaoh"  # their hand alignments, 0-based
KFTT_AUTO = FOLDER / "kftt-jaen" / "jaen.awesome-align.out"  # awesome-align's alignments

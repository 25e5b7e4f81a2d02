"""``python -m engine corpora``: the standard public corpora the README's commands use
(datasets.standard) — where to download each, its terms, and whether a downloaded file is the
one published.

    python -m engine corpora list
    python -m engine corpora check FILE [FILE …]
    python -m engine corpora gum {train,dev,test} FOLDER

``check`` prints a line per file — which corpus's file it is and whether it matches its
published SHA-256 — and exits with status 1 when any does not (as ``sha256sum -c`` does).
"""
import sys

from datasets import standard
from datasets.errors import CorpusError
from engine.cli.args import add_input


def add_corpora_parser(new_parser, model):
    """The ``corpora`` subcommand (``model`` is unused: it takes no --model)."""
    parser = new_parser()
    actions = parser.add_subparsers(dest="action", required=True, metavar="{list,check,gum}")
    actions.add_parser("list", help="every standard corpus: source, version, licence, files")
    checking = actions.add_parser("check", help="tell which standard file FILE is and whether "
                                                "it matches the published one (SHA-256)")
    add_input(checking, "files", nargs="+", metavar="FILE")
    gum = actions.add_parser("gum", help="the GUM tree files of one part of GUM's own "
                                         "partition, one per line (for parse's --train/--test)")
    gum.add_argument("part", choices=("train", "dev", "test"))
    add_input(gum, "folder", folder=True, what="the GUM folder", help="the folder holding GUM's GUM_*.ptb files")


def run_corpora(args):
    """The corpora command; its exit status (1: a checked file does not match)."""
    if args.action == "list":
        list_corpora()
        return 0
    if args.action == "gum":
        print("\n".join(str(path) for path in standard.gum_files(args.folder, args.part)))
        return 0
    matched = True
    for path in args.files:
        try:
            found = standard.check(path)
        except CorpusError as err:  # one unreadable file does not stop the others' checks
            found = standard.Check(False, str(err))
        print(found.message, file=sys.stdout if found.matches else sys.stderr)
        matched &= found.matches
    return 0 if matched else 1


def list_corpora():
    """Print every standard corpus and its files' checksums."""
    known = standard.checksums()
    for corpus in standard.CORPORA:
        files = [name for name in known if corpus.holds(name)]
        print(f"{corpus.name}: {corpus.what}\n  source:  {corpus.source}\n"
              f"  version: {corpus.version}\n  licence: {corpus.licence}\n"
              f"  files:   {len(files)} ({', '.join(files[:3])}{', …' * (len(files) > 3)})\n")
    print(f"Every file's SHA-256: {standard.CHECKSUMS} (sha256sum -c reads it in the folder "
          "holding the files).")

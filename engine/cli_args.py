"""Argument types for the command line: each rejects bad input with a message saying what to give."""
import argparse
import os


def int_in(low, high=None):
    """An argparse type: an integer in [low, high] (no upper bound when high is None)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"at least {low:,}" if high is None else f"between {low:,} and {high:,}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value:,}")
        return value
    return parse


def float_in(low, high):
    """An argparse type: a number in [low, high]."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low:g} and {high:g}, got {value:g}")
        return value
    return parse


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def option_type(option):
    """The argparse type of a model's Option (engine.models.protocol): its range or choices."""
    if option.kind is int:
        return int_in(int(option.low), int(option.high))
    if option.kind is float:
        return float_in(option.low, option.high)
    return str


def check_writable(parser, *paths):
    """Fail before any work when an output cannot be written: its folder does not exist, or
    the path is a folder itself."""
    for path in paths:
        if not path:
            continue
        if os.path.isdir(path):
            parser.error(f"cannot write {path}: it is a folder; give a file name")
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            parser.error(f"cannot write {path}: its folder does not exist")

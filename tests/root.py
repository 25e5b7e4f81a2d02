"""Where the project is, for tests that read its files or start its commands from any folder."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

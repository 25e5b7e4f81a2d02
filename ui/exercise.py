"""One "predict, then run" exercise: a question, the link that sets its experiment up (a
preset of the page and settings beyond it), what to do next, and the answer. ui/exercises.py
draws a page's; ui/lesson_exercises.py holds them all.
"""
from dataclasses import dataclass, field

from ui.settings import PRESET, slug


@dataclass(frozen=True)
class Exercise:
    """question and answer: markdown (glossary links from ui.course.term); preset: the label
    of one of the page's presets, or None; settings: {setting name: value} on top of it (or of
    the defaults); then: what to press once the link has opened the page."""

    question: str
    answer: str
    preset: str = None
    settings: dict = field(default_factory=dict)
    then: str = "Press Play and let the run reach its last pass."

    def query(self, page_settings):
        """The link's address parameters: the preset's name, then each setting as the
        address writes it."""
        query = {PRESET: slug(self.preset)} if self.preset else {}
        query.update({name: page_settings.settings[name].text(value)
                      for name, value in self.settings.items()})
        return query

    def setup_text(self, page_settings):
        """What the link sets, in words."""
        parts = [f"the preset “{self.preset}”"] if self.preset else []
        for name, value in self.settings.items():
            parts.append(f"{page_settings.settings[name].what} "
                         f"{spoken(page_settings.settings[name], value)}")
        if not parts:
            return "The link sets the page's defaults"
        listed = "; ".join(parts[:-1]) + "; and " + parts[-1] if len(parts) > 2 \
            else " and ".join(parts)
        return "The link sets " + listed


def spoken(setting, value):
    """A setting's value as the sentence “The link sets …” says it."""
    if isinstance(value, bool):
        return "off" if not value else "on"
    if isinstance(value, (tuple, str)):
        return "to " + setting.say(value)
    return f"= {value:,}" if isinstance(value, int) else f"= {value:g}"

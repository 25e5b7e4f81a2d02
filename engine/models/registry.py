"""The models, by name. Every model lives in its own folder under engine/models, whose
``model.py`` registers it with ``register``; ``models()`` imports them all, so adding a model
touches no other file."""
import importlib
import importlib.util
import pkgutil

import engine.models
from engine import samplers
from engine.kernels.interface import missing

_MODELS = {}


def register(cls):
    """Class decorator: add a model class to the registry under ``cls.name``, after checking
    that its state implements every interface function its samplers call."""
    if _MODELS.get(cls.name, cls) is not cls:
        raise ValueError(f"a model named {cls.name!r} is registered already")
    for name in cls.samplers:
        absent = missing(cls.state_class, samplers.entry(name).needs)
        if absent:
            raise TypeError(f"the {cls.name} model offers {samplers.label(name)}, but "
                            f"{cls.state_class.__name__} does not implement {', '.join(absent)}: "
                            "implement them with engine.kernels.interface.for_state")
    for name in getattr(cls, "populations", ()):
        if samplers.entry(name).kind != "population" or not hasattr(cls, "particles"):
            raise TypeError(f"the {cls.name} model offers {samplers.label(name)} as a population "
                            "but it is not one, or the model has no particles() to give it")
    _MODELS[cls.name] = cls
    return cls


def models():
    """{name: model class} for every model, in a fixed order (the modules' names)."""
    for folder in sorted(pkgutil.iter_modules(engine.models.__path__), key=lambda m: m.name):
        if folder.ispkg and importlib.util.find_spec(f"engine.models.{folder.name}.model"):
            importlib.import_module(f"engine.models.{folder.name}.model")
    return dict(sorted(_MODELS.items(), key=lambda item: (item[1].order, item[0])))


def get(name):
    """The model class registered as ``name`` (or one of its ``aliases``, the name its paper
    uses); an unknown name is refused with the choices."""
    known = models()
    name = next((cls.name for cls in known.values() if name in getattr(cls, "aliases", ())), name)
    if name not in known:
        raise ValueError(f"unknown model {name!r}: choose one of {', '.join(known)}")
    return known[name]

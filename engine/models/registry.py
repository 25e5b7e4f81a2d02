"""The models, by name. Every model lives in its own folder under engine/models, whose
``model.py`` registers it with ``register``; ``models()`` imports them all, so adding a model
touches no other file.

``register`` first derives what a model may leave out (its name, whether it reads a corpus,
its state class: ``derive``), then refuses, with one message naming the model, a class that
falls short of a role it claims (engine.models.protocol), that offers what belongs to a role it
does not claim (a population sampler, a sampler of explicit parameters), whose options its
methods do not take, or whose state does not implement an interface function its samplers call.
"""
import importlib
import importlib.util
import inspect
import pkgutil

import engine.models
from engine import samplers
from engine.kernels.interface import IMPLEMENTED, missing
from engine.models.protocol import (EVERY_MODEL, MODEL_ROLES, CorpusModel, Parameters,
                                    Population, not_taken, shortfall)

_MODELS = {}

# what a model offers that makes a role its own: (role, whether the class offers it, what it
# offers, what it lacks then)
OFFERS = (
    (Population, lambda cls: bool(cls.populations),
     "offers a population sampler (populations)", "its populations is empty"),
    # every sampler of explicit parameters sizes θ (engine.kernels.interface.parameter_size)
    (Parameters, lambda cls: any("parameter_size" in samplers.entry(name).needs
                                 for name in cls.samplers),
     "offers samplers of explicit parameters", "it offers none (em, vb, explicit-…)"),
)


def register(cls):
    """Class decorator: add a model class to the registry under ``cls.name``, after checking
    the roles it claims, what it offers, its options, and that its state implements every
    interface function its samplers call."""
    check_roles(cls)
    if _MODELS.get(cls.name, cls) is not cls:
        raise ValueError(f"a model named {cls.name!r} is registered already")
    check_offers(cls)
    check_options(cls)
    check_interface(cls)
    _MODELS[cls.name] = cls
    return cls


def check_roles(cls):
    """A TypeError unless ``cls`` claims known roles, those every model plays among them, and
    has every member of each (those it may leave out derived first: ``derive``)."""
    name = inspect.getattr_static(cls, "name", cls.__name__)
    roles = inspect.getattr_static(cls, "roles", None)
    if not isinstance(roles, tuple) or not set(roles) <= set(MODEL_ROLES):
        raise TypeError(f"the {name} model must say the roles it claims: roles = a tuple of "
                        f"{', '.join(r.__name__ for r in MODEL_ROLES)} (engine.models.protocol)")
    absent = [role.__name__ for role in EVERY_MODEL if role not in roles]
    if absent:
        raise TypeError(f"the {name} model does not claim the {' and '.join(absent)} role: "
                        "every model plays it (add it to roles)")
    derive(cls)
    falls_short = [f"claims the {role.__name__} role but {text}" for role in roles
                   if (text := shortfall(cls, role))]
    if falls_short:
        raise TypeError(f"the {name} model {'; it '.join(falls_short)}")


def derive(cls):
    """Set the members a model class may leave out because they follow from what it says:
    its ``name``, its folder's (engine/models/<name>/); ``needs_data``, whether it claims the
    CorpusModel role; its ``state_class``, the one state class that the modules of its folder
    implement the kernel interface for (engine.kernels.interface.for_state; they are imported
    by its model.py before it registers)."""
    folder = cls.__module__.rpartition(".")[0]
    if inspect.getattr_static(cls, "name", None) is None:
        cls.name = folder.rpartition(".")[2]
    cls.needs_data = CorpusModel in cls.roles
    if inspect.getattr_static(cls, "state_class", None) is None:
        found = [state for state, functions in IMPLEMENTED.items()
                 if any(f.__module__.startswith(f"{folder}.") for f in functions.values())]
        if len(found) != 1:
            raise TypeError(f"the {cls.name} model's folder ({folder}) implements the kernel "
                            f"interface for {len(found)} state classes, not one: name its "
                            "state_class")
        cls.state_class = found[0]


def check_offers(cls):
    """A TypeError unless ``cls`` claims exactly the roles of what it offers, and lists its
    chain and population samplers where each belongs."""
    for role, offers, what, lacking in OFFERS:
        if offers(cls) and role not in cls.roles:
            raise TypeError(f"the {cls.name} model {what} but does not claim the "
                            f"{role.__name__} role: add it to roles")
        if role in cls.roles and not offers(cls):
            raise TypeError(f"the {cls.name} model claims the {role.__name__} role but {lacking}")
    for listed, listing, kind in ((cls.samplers, "samplers", "chain"),
                                  (cls.populations, "populations", "population")):
        for name in listed:
            if samplers.entry(name).kind != kind:
                raise TypeError(f"the {cls.name} model lists {samplers.label(name)} in its "
                                f"{listing}, but it is not a {kind} sampler")


def check_options(cls):
    """A TypeError unless each method that takes a model's settings takes every one of them."""
    takers = [("build", cls.options), ("new_state", cls.init_options)]
    if Population in cls.roles:
        takers.append(("particles", cls.particle_options))
    if CorpusModel in cls.roles:
        takers.append(("from_corpus", [o for o in cls.options if not o.reads]))
    for method, options in takers:
        absent = not_taken(inspect.getattr_static(cls, method), [o.name for o in options])
        if absent:
            raise TypeError(f"the {cls.name} model's {method}() does not take its option "
                            f"{', '.join(absent)}")


def check_interface(cls):
    """A TypeError unless the state implements every interface function its samplers call."""
    for name in cls.samplers:
        absent = missing(cls.state_class, samplers.entry(name).needs)
        if absent:
            raise TypeError(f"the {cls.name} model offers {samplers.label(name)}, but "
                            f"{cls.state_class.__name__} does not implement {', '.join(absent)}: "
                            "implement them with engine.kernels.interface.for_state")


def models(role=None):
    """{name: model class} for every model (claiming ``role``, when given), in a fixed order
    (the lessons' order, then the names)."""
    for folder in sorted(pkgutil.iter_modules(engine.models.__path__), key=lambda m: m.name):
        if folder.ispkg and importlib.util.find_spec(f"engine.models.{folder.name}.model"):
            importlib.import_module(f"engine.models.{folder.name}.model")
    return {name: cls for name, cls in sorted(_MODELS.items(), key=lambda i: (i[1].order, i[0]))
            if role is None or role in cls.roles}


def get(name):
    """The model class registered as ``name`` (or one of its ``aliases``, the name its paper
    uses); an unknown name is refused with the choices."""
    known = models()
    name = next((cls.name for cls in known.values() if name in cls.aliases), name)
    if name not in known:
        raise ValueError(f"unknown model {name!r}: choose one of {', '.join(known)}")
    return known[name]

"""One module per registered model: its conformance case (``CASE``, a tests.conformance.case.Case)
and its exact oracle, the model recomputed from its definition without the engine. A module
that defines no ``CASE`` holds what several models share (segmentation.py).

Adding a model to the lab = its folder under engine/models + one module here; ``CASES`` finds it.
"""
import importlib
import pkgutil


def discover():
    """{model name: its Case} from every module of this package that defines a ``CASE``."""
    found = {}
    for module in pkgutil.iter_modules(__path__):
        case = vars(importlib.import_module(f"{__name__}.{module.name}")).get("CASE")
        if case is None:
            continue
        if case.model.name in found:
            raise ValueError(f"two conformance cases for the {case.model.name} model "
                             f"(the second in {module.name}.py)")
        found[case.model.name] = case
    return found


CASES = discover()

"""Every kernel of the engine — each Numba dispatcher (``@kernel``, ``@inline``) defined in an
engine module, and each model's implementation of an interface function — has a numpydoc
docstring: a Parameters section naming each of its arguments (with their shapes and dtypes),
or, for a kernel of no arguments, a Returns section."""
import importlib
import inspect
import pkgutil
import re

from numba.core.dispatcher import Dispatcher

import engine
from engine.core.jit import inline, kernel
from engine.kernels import interface
from engine.models.registry import models

SECTION = r"^{}\n-{{3,}}\n(.*?)(?=^\S[^\n]*\n-{{3,}}$|\Z)"


def engine_modules():
    """Every module of the engine package, imported."""
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name != "engine.__main__":
            yield importlib.import_module(info.name)


def kernels():
    """{qualified name: Python function} of every kernel: the dispatchers each engine module
    defines, and the models' interface implementations."""
    found = {}
    for module in engine_modules():
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = value.py_func
    models()  # every model registers its implementations
    for implementations in interface.IMPLEMENTED.values():
        for impl in implementations.values():
            if impl.__module__.startswith("engine."):
                found[f"{impl.__module__}.{impl.__name__}"] = impl
    return found


def undocumented(function):
    """Why ``function``'s docstring is not a kernel's numpydoc docstring, or None when it is."""
    doc = inspect.getdoc(function) or ""
    arguments = list(inspect.signature(function).parameters)
    name = "Parameters" if arguments else "Returns"
    section = re.search(SECTION.format(name), doc, re.MULTILINE | re.DOTALL)
    if not section:
        return f"no {name} section"
    unnamed = [a for a in arguments if a not in parameter_names(section[1])]
    return f"arguments not in its Parameters: {', '.join(unnamed)}" if unnamed else None


def parameter_names(section):
    """The names a Parameters section describes: on its unindented lines, before each " : "
    (several to a line when separated by "; "), comma-separated."""
    names = set()
    for line in section.splitlines():
        if line and not line[0].isspace():
            for entry in line.split("; "):
                names.update(name.strip() for name in entry.split(" : ")[0].split(","))
    return names


def test_every_kernel_has_a_numpydoc_docstring():
    found = kernels()
    assert len(found) > 300  # the walk reached them
    missing = {name: why for name, function in found.items() if (why := undocumented(function))}
    assert not missing, f"{len(missing)} kernels without a numpydoc docstring: {missing}"


def test_the_check_refuses_a_kernel_without_one():
    @kernel
    def summary_only(a, n):
        """Fill a[:n] with ones."""
        for i in range(n):
            a[i] = 1.0

    @inline
    def no_arguments():
        return 1

    @kernel
    def one_argument_left_out(a, n):
        """Fill a[:n] with ones.

        Parameters
        ----------
        a : float64[≥ n]
            Output.
        """
        for i in range(n):
            a[i] = 1.0

    @kernel
    def documented(a, n):
        """Fill a[:n] with ones.

        Parameters
        ----------
        a : float64[≥ n]
            Output.
        n : int
        """
        for i in range(n):
            a[i] = 1.0

    assert undocumented(summary_only.py_func) == "no Parameters section"
    assert undocumented(no_arguments.py_func) == "no Returns section"
    assert undocumented(one_argument_left_out.py_func) == "arguments not in its Parameters: n"
    assert undocumented(documented.py_func) is None

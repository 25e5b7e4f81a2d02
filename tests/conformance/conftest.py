"""Parametrisation of the conformance suite from the registries.

A test that takes ``model_name`` runs once per registered model (id ``usm``); one that takes
``sampler_name`` runs once per (model, sampler it offers) pair (id ``usm-type``), restricted to
the samplers named by ``@pytest.mark.samplers(...)`` when the test carries that mark. The
``case`` fixture is the model's case (tests/conformance/cases/<model>.py) and FAILS the test when
there is none: a newly registered model is never silently left untested.
"""
import pytest

from engine.models import registry
from engine.models.protocol import Population
from engine.samplers import offered
from tests.conformance.cases import CASES

NO_CASE = ("the {name!r} model is registered but no module of tests/conformance/cases/ defines "
           "its CASE: add one (a tiny model small enough to enumerate, its exact posterior "
           "computed independently of the engine, and the row of an analysis in it)")


def pytest_generate_tests(metafunc):
    models = registry.models()
    if "sampler_name" in metafunc.fixturenames:
        mark = metafunc.definition.get_closest_marker("samplers")
        wanted = mark.args if mark else None
        pairs = [(model, sampler) for model, cls in models.items()
                 for sampler in offered(cls.samplers) if wanted is None or sampler in wanted]
        metafunc.parametrize(("model_name", "sampler_name"), pairs,
                             ids=[f"{model}-{sampler}" for model, sampler in pairs])
    elif "population_model" in metafunc.fixturenames:  # the models offering a population
        names = list(registry.models(Population))
        metafunc.parametrize("population_model", names, ids=names, scope="module")
    elif "model_name" in metafunc.fixturenames:
        metafunc.parametrize("model_name", list(models), ids=list(models))


@pytest.fixture
def model_class(model_name):
    return registry.models()[model_name]


@pytest.fixture
def case(model_name):
    if model_name not in CASES:
        pytest.fail(NO_CASE.format(name=model_name), pytrace=False)
    return CASES[model_name]


@pytest.fixture(scope="module")
def population_case(population_model):
    """(a tiny population, its exact (log Z, posterior)) of a model offering the particle
    filter; FAILS when its case has none."""
    case = CASES.get(population_model)
    if case is None or case.particles is None:
        pytest.fail(f"the {population_model!r} model offers the particle filter but its case in "
                    "tests/conformance/cases/ has no `particles`: add a tiny population and "
                    "its exact log Z and posterior", pytrace=False)
    build, exact = case.particles
    return build(), exact()

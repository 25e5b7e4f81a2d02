"""Registration checks the roles a model claims (engine.models.protocol): a class that lacks a
member of one, has it in the wrong kind, or offers what belongs to a role it does not claim is
refused with one message naming the model, the role and what is missing. Each refused class
here is the toy model with one thing taken away or changed (the registry is left untouched)."""

import ast
import inspect

import pytest

from engine.models import registry
from engine.models.protocol import (ChainModel, CorpusModel, Lesson, ModelBase, Option,
                                    ParticlePopulation, Population, Presentation, Shards,
                                    members, shortfall)
from engine.models.toy.model import ToyModel


def toy_like(name="broken", drop=(), **changes):
    """A class with the toy's own members but ``drop``, and ``changes``, named ``name``."""
    members = {key: value for key, value in vars(ToyModel).items()
               if key not in drop and key not in ("__dict__", "__weakref__")}
    return type("Broken", (ModelBase,), {**members, "name": name, **changes})


def refused(cls, error=TypeError):
    """The message register gives for cls (which must not join the registry)."""
    with pytest.raises(error) as raised:
        registry.register(cls)
    assert registry.models().get(cls.name) is not cls
    return str(raised.value)


def test_the_toy_as_copied_here_would_be_accepted():
    """The baseline of the cases below: every check passes on the unchanged copy."""
    cls = toy_like()
    registry.check_roles(cls)
    registry.check_offers(cls)
    registry.check_options(cls)
    registry.check_interface(cls)


def test_a_model_lacking_members_of_a_role_it_claims_is_refused():
    message = refused(toy_like(drop=("loglik", "counts")))
    assert message == "the broken model claims the ChainModel role but lacks loglik, counts"


def test_a_model_claiming_the_population_role_without_particles_is_refused():
    cls = toy_like(roles=(ChainModel, Presentation, Lesson, Population),
                   populations=("particle",))
    assert refused(cls) == "the broken model claims the Population role but lacks particles"


def test_a_model_claiming_the_shards_role_needs_every_shard_method():
    """The parallel sampler's methods are checked when the model registers (they were found
    with hasattr when the sampler first ran)."""
    cls = toy_like(roles=(ChainModel, Presentation, Lesson, Shards),
                   shard_weights=lambda self: None, set_shard=lambda self, state, lo, hi: None)
    assert refused(cls) == ("the broken model claims the Shards role but lacks shard_values, "
                            "install")
    cls = toy_like(roles=(ChainModel, Presentation, Lesson, Shards),
                   shard_weights=lambda self: None, set_shard=lambda self, state: None,
                   shard_values=lambda self, state, lo, hi: None,
                   install=lambda self, state, values, lo, hi: 0)
    assert refused(cls) == ("the broken model claims the Shards role but its set_shard() does "
                            "not take lo, hi")


def test_a_model_without_the_base_lacks_its_defaults_by_name():
    members = {key: value for key, value in vars(ToyModel).items()
               if key not in ("__dict__", "__weakref__")}
    cls = type("Bare", (), {**members, "name": "bare"})
    assert refused(cls) == ("the bare model claims the ChainModel role but lacks aliases, "
                            "kernel_modules, populations, particle_options, rebuilt_state, "
                            "clone_state, scalars; it claims the Presentation role but lacks "
                            "loglik_label, site_place, formulas")


def test_members_of_the_wrong_kind_are_named():
    cls = toy_like(tiny=lambda self: ToyModel(4), label=lambda self: "toy")
    assert refused(cls) == ("the broken model claims the ChainModel role but its tiny is a "
                            "method, not a class method; it claims the Presentation role but "
                            "its label is a method, not a class attribute")


def test_a_method_without_the_roles_parameters_is_refused():
    cls = toy_like(describe_site=lambda self, state: None)
    assert refused(cls) == ("the broken model claims the Presentation role but its "
                            "describe_site() does not take s")


def test_a_model_must_claim_the_roles_every_model_plays():
    assert refused(toy_like(roles=(ChainModel,))) == (
        "the broken model does not claim the Presentation role: every model plays it (add it "
        "to roles)")
    assert refused(toy_like(drop=("roles",))) == (
        "the broken model must say the roles it claims: roles = a tuple of ChainModel, "
        "Presentation, CorpusModel, Population, Parameters, Lesson, Shards "
        "(engine.models.protocol)")


def test_offering_a_population_without_claiming_the_role_is_refused():
    cls = toy_like(populations=("particle",), particles=lambda self, **options: None)
    assert refused(cls) == ("the broken model offers a population sampler (populations) but "
                            "does not claim the Population role: add it to roles")


def test_offering_em_without_claiming_the_parameters_role_is_refused():
    cls = toy_like(samplers=("token", "em"))
    assert refused(cls) == ("the broken model offers samplers of explicit parameters but does "
                            "not claim the Parameters role: add it to roles")


def test_reading_a_corpus_is_the_corpus_model_role():
    """needs_data is derived from the roles: a model claiming CorpusModel reads a corpus, one
    that does not reads none, whatever it says; claiming the role needs from_corpus."""
    cls = toy_like(needs_data=True)
    registry.derive(cls)
    assert cls.needs_data is False
    cls = toy_like(roles=(ChainModel, Presentation, CorpusModel),
                   from_corpus=classmethod(lambda cls, corpus, **options: None))
    registry.derive(cls)
    assert cls.needs_data is True
    assert "claims the CorpusModel role but lacks from_corpus" in refused(
        toy_like(roles=(ChainModel, Presentation, CorpusModel)))


def test_a_model_is_named_by_its_folder_and_its_state_class_found_in_it():
    """What a model may leave out: its name (its folder's) and its state class (the one its
    folder's kernels implement the interface for)."""
    from engine.models.toy import kernels
    assert "name" not in ToyModel.__module__ and ToyModel.name == "toy"
    assert ToyModel.state_class is kernels.ToyState
    cls = toy_like(drop=("state_class",))
    cls.__module__ = "tests.engine.models.test_model_roles"  # a folder with no kernels
    assert "implements the kernel interface for 0 state classes, not one: name its " \
           "state_class" in refused(cls)


def test_a_population_listed_among_the_chain_samplers_is_refused():
    assert refused(toy_like(samplers=("token", "particle"))) == (
        "the broken model lists Particle filter in its samplers, but it is not a chain sampler")


def test_an_option_build_does_not_take_is_refused():
    options = ToyModel.options + (Option("k", "--k", int, 2, "a setting build ignores", 1, 9),)
    assert refused(toy_like(options=options)) == (
        "the broken model's build() does not take its option k")


def test_a_sampler_whose_functions_the_state_lacks_is_still_refused():
    message = refused(toy_like(samplers=("token", "sentence")))
    assert message.startswith("the broken model offers SENTENCE, but ToyState does not "
                              "implement n_sentences")


def test_a_second_model_of_a_registered_name_is_refused():
    assert refused(toy_like(name="toy"), ValueError) == "a model named 'toy' is registered already"


def test_an_object_is_checked_for_its_instance_attributes_too():
    """A population built without n_observations is no ParticlePopulation; the class alone
    cannot tell (its instances set it)."""
    population = registry.get("usm").tiny().particles()
    assert shortfall(type(population), ParticlePopulation) == ""
    del population.n_observations
    assert shortfall(population, ParticlePopulation) == "lacks n_observations"


def test_the_toy_writes_at_most_15_members_of_the_chain_contract():
    """What the smallest model must write: the rest is ModelBase's or derived (its name, its
    state class, whether it reads a corpus) — 20 of ChainModel's members before, 14 now."""
    tree = ast.parse(inspect.getsource(ToyModel))
    written = {target.id for node in tree.body[0].body if isinstance(node, ast.Assign)
               for target in node.targets} | {node.name for node in tree.body[0].body
                                              if isinstance(node, ast.FunctionDef)}
    assert len(written & set(members(ChainModel))) <= 15
    assert not written & {"name", "needs_data", "state_class", "clone_state", "scalars"}

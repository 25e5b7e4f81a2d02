"""The model a command names (``--model``): its options as arguments, the checks of a chosen
model's settings, and loading its corpus. Models come from the registry: nothing here knows a
model by name."""
import sys

from datasets import kinds
from datasets.errors import CorpusError
from engine import samplers
from engine.cli.args import add_input, option_type
from engine.models import registry


def model_names(role=None):
    """Every model's registered name and its aliases (the unigram model is also `unigram`);
    with ``role``, only the models claiming it (engine.models.protocol)."""
    return [n for name, cls in registry.models(role).items() for n in (name, *cls.aliases)]


def model_named(argv):
    """The model class that argv's --model names, if it names a registered one (so the parser
    can list that model's options)."""
    for i, arg in enumerate(argv):
        name = arg.split("=", 1)[1] if arg.startswith("--model=") else (
            argv[i + 1] if arg == "--model" and i + 1 < len(argv) else None)
        if name is not None and name in model_names():
            return registry.get(name)
    return None


def model_epilog(model, role=None):
    """The list of models (claiming ``role``, when given) under a command's help, before
    --model is given."""
    if model is not None:
        return None
    lines = ["models (give --model NAME --help for a model's options):"]
    lines += [f"  {name:<6} {cls.label}" for name, cls in registry.models(role).items()]
    return "\n".join(lines)


def add_model_arguments(parser, model, initialisation=False, role=None):
    """--model, --data and, once the model is known, its options (and with ``initialisation``
    its initialisation options); with ``role``, --model offers only the models claiming it."""
    parser.add_argument("--model", choices=model_names(role), required=True,
                        help="the model (its options follow once it is given)")
    add_input(parser, "--data", what="the corpus",
              help="the corpus file (default: the model's built-in corpus)")
    if model is None:
        return
    group = parser.add_argument_group(f"{model.name} options")
    for option in model.options + (model.init_options if initialisation else ()):
        if option.file:  # an input: no output may overwrite it
            add_input(group, option.flag, dest=option.name, default=option.default,
                      help=option.help, metavar=option.flag.lstrip("-").upper())
        elif option.kind is bool:
            group.add_argument(option.flag, dest=option.name, action="store_true",
                               help=option.help)
        else:
            default = "" if option.default is None else f" (default {option.default})"
            group.add_argument(option.flag, dest=option.name, type=option_type(option),
                               default=option.default, help=option.help + default,
                               metavar=option.flag.lstrip("-").upper().replace("-", "_"))


def checked_model(args, wanted=()):
    """The model class of ``args.model`` after checking the settings a parser cannot: --data
    for a model that reads none, each option's range, and that it offers every sampler in
    ``wanted``; a ValueError saying what to change."""
    model = registry.get(args.model)
    if args.data is not None and not model.needs_data:
        raise ValueError(f"the {model.name} model reads no corpus: leave out --data")
    for option in model.options + model.init_options:
        option.check(getattr(args, option.name, None))
    for name in wanted:
        if name not in samplers.offered(model.samplers):
            raise ValueError(f"the {model.name} model has no {name} sampler: choose one of "
                             f"{', '.join(samplers.offered(model.samplers))}")
    return model


def model_options(model, args):
    """The model's options as given: {name: value}."""
    return {o.name: getattr(args, o.name) for o in model.options}


def load_model(model, args):
    """The model of --data (or its built-in corpus), reporting what the loader skipped; the
    note of the built-in corpus once it is built (a refusal is then the only line)."""
    try:
        built = model.build(args.data, **model_options(model, args))
    except CorpusError as err:  # name the file: score reads two
        mistake = kind_mistake(model, args.data)
        if mistake is None:
            raise in_file(args.data, err) from None
        said = str(err).removeprefix(f"{args.data}: ")  # the mistake names the file
        raise CorpusError(f"{mistake}: {said}", path=args.data) from None
    if args.data is None and model.needs_data:
        print(f"no --data: using the {model.name} model's built-in corpus", file=sys.stderr)
    mistake = kind_mistake(model, args.data)
    if mistake:  # read, but almost surely not what the user meant
        print(f"warning: {mistake}; it is read as such all the same", file=sys.stderr)
    for note in built.notes:
        print(f"{args.data}: {note}", file=sys.stderr)
    return built


def kind_mistake(model, path):
    """What the file at ``path`` plainly is when it is a kind of data other than the one
    ``model`` reads (datasets.kinds.mistaken), naming the models that read it; None when it
    is not, or there is no file."""
    known = kinds.kinds()
    if path is None or model.display not in known:
        return None
    try:
        start = kinds.read_start(path)
    except OSError:  # no file, or a folder: the reader has said so
        return None
    return kinds.mistaken(start, known[model.display], path, readers=readers)


def readers(kind):
    """The models that read a kind of data, as a message says them: "--model usm or bigram
    reads those"."""
    names = [name for name, cls in registry.models().items() if cls.display == kind.name]
    return f"--model {' or '.join(names)} reads those" if names else ""


def in_file(path, err):
    """A CorpusError that names the file ``path`` it is about: ``err`` itself when its message
    names it already (a file that cannot be opened)."""
    return err if err.path is not None else CorpusError(f"{path}: {err}")


def initialisation(model, args):
    """The chains' initialisation settings given: the model's init options and --eta."""
    init = {o.name: getattr(args, o.name) for o in model.init_options
            if getattr(args, o.name, None) is not None}
    if args.eta is not None:
        init["eta"] = args.eta
    return init

"""No import circles among the project's modules, counting the imports inside functions: an
import moved into a function hides a circle from Python's import order, it does not break it
(issue 48 found five so hidden). Each module's imports are read from its source (ast), so the
check imports nothing."""
import ast
import textwrap
from tests.root import ROOT

PACKAGES = ("engine", "datasets", "ui", "pages", "benchmarks")


def module_files(root, packages=PACKAGES):
    """{dotted module name: its file} under ``root``; a package by its own name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_names(path, module):
    """Every dotted name ``module`` (at ``path``) imports, wherever the import statement is."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x, from ..core import y
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(files):
    """{module: the project's modules it imports} (a name resolves to its longest module
    prefix; a module's own package and itself are left out)."""
    graph = {}
    for module, path in files.items():
        targets = set()
        for name in imported_names(path, module):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                targets.add(name)
        graph[module] = targets
    return graph


def circles(graph):
    """One import path back to its start for each module on a circle, shortest first found by
    a breadth-first search from the module: [[a, b, …, a], …], one per set of modules."""
    found, seen = [], set()
    for start in sorted(graph):
        if start in seen:
            continue
        parent, frontier = {}, [start]
        while frontier and start not in parent:
            following = []
            for module in frontier:
                for target in sorted(graph[module]):
                    if target not in parent:
                        parent[target] = module
                        following.append(target)
            frontier = following
        if start in parent:
            path, at = [start], parent[start]
            while at != start:
                path.append(at)
                at = parent[at]
            path = [start, *reversed(path)]
            found.append(path)
            seen.update(path)
    return found


def test_no_module_of_the_project_is_on_an_import_circle():
    found = circles(import_graph(module_files(ROOT)))
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_a_circle_hidden_by_an_import_inside_a_function_is_found(tmp_path):
    """The check's own test: a circle closed by a function's import, and a relative import."""
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "base.py").write_text(textwrap.dedent("""
        def form():
            from engine.forest import Walk  # the circle's hidden half
            return Walk
    """))
    (package / "forest.py").write_text("from .base import form\nclass Walk: pass\n")
    (package / "other.py").write_text("import engine.base\n")
    graph = import_graph(module_files(tmp_path, ("engine",)))
    assert graph["engine.other"] == {"engine.base"}
    assert circles(graph) == [["engine.base", "engine.forest", "engine.base"]]

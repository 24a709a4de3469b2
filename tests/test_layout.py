"""The project's shape: a small root, no import cycles, no function-level imports of project modules."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".venv", "var", ".git", "node_modules", "__pycache__"}
# Root modules the design fixes; everything else lives in a package.
ROOT_MODULES = {"app.py", "intelligent_mcp.py", "llama_client.py", "prompt_registry.py", "gunicorn.conf.py"}


def project_files() -> list[Path]:
    return [p for p in ROOT.rglob("*.py") if not SKIP & set(p.relative_to(ROOT).parts)]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in project_files()}
TOP_LEVEL = {name.split(".")[0] for name in MODULES}


def resolve(name: str) -> str | None:
    """The project module an import names, or None for third-party and standard modules."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(path: Path, module: str):
    """(imported project module, is at module level, line) for every import statement in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set(map(id, tree.body))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{a.name}" for a in node.names] if base else []
        else:
            continue
        for name in names:
            target = resolve(name)
            if target and target != module:
                yield target, id(node) in top, node.lineno


def graph() -> dict:
    edges = {}
    for module, path in MODULES.items():
        edges[module] = {t for t, at_top, _ in imports(path, module) if at_top}
        # importing a.b.c runs a/__init__ and a/b/__init__ first
        edges[module] |= {p for t in set(edges[module]) for p in _parents(t) if p in MODULES and p != module}
    return edges


def _parents(name: str):
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def test_no_import_cycles():
    edges = graph()
    state, stack, cycles = {}, [], []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_project_modules_are_imported_at_module_level():
    """A function-level import of a project module hides a cycle; only lazy heavy dependencies may, with a comment."""
    offenders = []
    for module, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, at_top, line in imports(path, module):
            if at_top:
                continue
            context = " ".join(lines[max(0, line - 3):line])
            if "Lazy" not in context and "lazy" not in context:
                offenders.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not offenders, "\n".join(offenders)


def test_root_holds_only_the_fixed_modules():
    root_py = {p.name for p in ROOT.glob("*.py")}
    assert root_py <= ROOT_MODULES and len(root_py) <= 5, sorted(root_py - ROOT_MODULES)


def test_packages_have_a_docstring_and_no_reexports():
    for path in ROOT.rglob("__init__.py"):
        if SKIP & set(path.relative_to(ROOT).parts) or path.parent.name == "tests":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), path
        assert not [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))], f"{path} re-exports"


def test_every_package_is_installed_by_pyproject():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    included = {pattern.rstrip("*") for pattern in config["packages"]["find"]["include"]}
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages <= included, sorted(packages - included)
    assert set(config["py-modules"]) == {name.removesuffix(".py") for name in ROOT_MODULES - {"gunicorn.conf.py"}}


def test_runtime_requirements_hold_no_test_only_packages():
    runtime = (ROOT / "requirements.txt").read_text().lower()
    for name in ("pytest", "playwright", "hypothesis", "gguf", "responses"):
        assert f"\n{name}" not in runtime, name


# The layers, lowest first. A package (or root module) may import only from its own layer or below; a name in a
# tuple shares a layer with the others there (they do not import each other either way, which the cycle test
# below checks at package level).
LAYERS = (
    "settings",  # typed settings and their loading
    "semantic",  # the semantic layer: declared measures and dimensions, one typed query, its executor on pandas
    "tools",  # data loading and the data tools (query_data is the semantic layer's)
    ("maps", "models", "analyzer"),  # map boundaries; the model catalogue and pulls; the question analyzer
    "prompt_registry",  # prompt texts and their version
    "toolcall",  # the TOOL_CALL text protocol
    "backends",  # the model backends (and the no-model "rules" marker)
    "loop",  # run state, decisions, gathering, synthesis, the answer check
    "rules",  # the rule planner, the loop's collaborator
    "intelligent_mcp",  # the orchestrator
    "llama_client",  # choosing a backend
    "store",  # the run history and conversations
    "assembly",  # the composition root and the one way a question is answered
    ("evals", "protocols"),  # the eval runner; /v1 formats and the MCP server
    "web",  # the Flask app
    "cli",  # the command line's commands
    ("bench", "gunicorn"),
    "app",  # the entry point
)


def layer_of() -> dict:
    out = {}
    for rank, layer in enumerate(LAYERS):
        for name in (layer if isinstance(layer, tuple) else (layer,)):
            out[name] = rank
    return out


def package_edges() -> dict:
    edges: dict = {}
    for module, targets in graph().items():
        top = module.split(".")[0]
        edges.setdefault(top, set()).update(t.split(".")[0] for t in targets if t.split(".")[0] != top)
    return edges


def test_every_package_has_a_layer():
    missing = sorted(set(package_edges()) - set(layer_of()) - {"tests"})
    assert not missing, f"add these to LAYERS: {missing}"


def test_packages_import_only_from_their_layer_or_below():
    rank = layer_of()
    upward = [f"{a} -> {b}" for a, targets in package_edges().items() if a != "tests"
              for b in sorted(targets) if rank[b] > rank[a]]
    assert not upward, "imports that go up a layer:\n" + "\n".join(upward)


def test_no_package_level_cycles():
    edges = {a: t for a, t in package_edges().items() if a != "tests"}

    def reaches(start: str, goal: str, seen: set) -> bool:
        for nxt in edges.get(start, ()):
            if nxt == goal or (nxt not in seen and (seen.add(nxt) or reaches(nxt, goal, seen))):
                return True
        return False

    cyclic = sorted(a for a in edges if reaches(a, a, set()))
    assert not cyclic, f"packages on an import cycle: {cyclic}"


def test_no_function_in_the_loop_is_over_60_lines():
    """The run's steps stay readable: each phase function fits on a screen."""
    long = []
    for path in [*sorted((ROOT / "loop").glob("*.py")), ROOT / "intelligent_mcp.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 60:
                long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1})")
    assert not long, "\n".join(long)


def test_no_function_in_the_project_is_over_80_lines():
    """A function a reader can hold in mind: the question reader was one 363-line function, split into its phases."""
    long = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in (".venv", "var", "tests", "build") or "site-packages" in rel.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 80:
                long.append(f"{rel}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1})")
    assert not long, "\n".join(long)

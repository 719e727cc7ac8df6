"""The package's layering, checked from the source: no module imports a stage above its own.

The stages read bottom to top as the README's architecture section lists them; a newcomer can change one stage
knowing that only the stages above it can be affected. The two engines never import each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "memory_bank"
LAYERS = [
    {"errors", "limits", "settings", "events", "control", "watchdog"},
    {"text"},
    {"loaders"},
    {"structure"},
    {"memory"},
    {"retrieval"},
    {"tools"},
    {"engines"},
    {"long_term"},
    {"ingest"},
    {"run"},
    {"store"},
    {"accounts"},
    {"wiring", "bank", "cli", "__main__"},
    {"testing"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def _module_name(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path) -> list[list[str]]:
    """Absolute dotted names of the memory_bank modules a file imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path)[:-1]
    found: list[list[str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = (node.module or "").split(".")
            if target[0] != "memory_bank":
                continue
            if len(target) == 1:  # from memory_bank import x: x is the stage
                found.extend(["memory_bank", alias.name] for alias in node.names)
            else:
                found.append(target)
        elif isinstance(node, ast.Import):
            found.extend(a.name.split(".") for a in node.names if a.name.startswith("memory_bank."))
    return found


def _stage(parts: list[str]) -> str:
    return parts[1]


def test_no_module_imports_a_stage_above_its_own() -> None:
    upward: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        me = _module_name(path)
        if len(me) < 2:  # the package's __init__: lazy re-exports of the public API
            continue
        assert _stage(me) in RANK, f"{path}: stage {_stage(me)!r} is not in the layer list"
        for target in _imports(path):
            stage = _stage(target)
            if stage in RANK and RANK[stage] > RANK[_stage(me)]:
                upward.append(f"{'.'.join(me)} -> {'.'.join(target)}")
    assert not upward, "imports going up a stage:\n" + "\n".join(upward)


def test_the_engines_do_not_import_each_other() -> None:
    crossing: list[str] = []
    for engine, other in (("llm", "offline"), ("offline", "llm")):
        for path in sorted((PACKAGE / "engines" / engine).rglob("*.py")):
            for target in _imports(path):
                if target[:3] == ["memory_bank", "engines", other]:
                    crossing.append(f"{path.name} -> {'.'.join(target)}")
    assert not crossing, crossing

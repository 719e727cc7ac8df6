"""The public API: `import memory_bank` is cheap, every exported name resolves, and the app uses nothing else.

The UI (`app.py`, `pages/`, `ui/`, `components/`) sits on top of the core; importing internals would tie it to a
layout that is free to change, so it may import only the `memory_bank` package itself.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import memory_bank

ROOT = Path(__file__).resolve().parents[1]
APP_SOURCES = [ROOT / "app.py", *(p for d in ("ui", "pages", "components") for p in sorted((ROOT / d).rglob("*.py")))]
HEAVY = ("torch", "sentence_transformers", "transformers", "openai", "pydantic", "numpy", "streamlit")


def _core_imports(path: Path) -> list[tuple[int, str]]:
    """(line, what) for each import of the core that is not `import memory_bank` / `from memory_bank import X`."""
    bad = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            bad += [(node.lineno, a.name) for a in node.names if a.name.startswith("memory_bank.")]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("memory_bank"):
            if node.module != "memory_bank":
                bad.append((node.lineno, f"from {node.module}"))
            else:
                bad += [(node.lineno, f"memory_bank.{a.name}") for a in node.names if a.name not in memory_bank.__all__]
    return bad


def test_import_is_cheap() -> None:
    code = f"import json, sys, memory_bank; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == []


def test_every_exported_name_resolves() -> None:
    assert memory_bank.__all__ == sorted(set(memory_bank.__all__))
    assert set(memory_bank.__all__) == set(memory_bank._EXPORTS)
    for name in memory_bank.__all__:
        assert getattr(memory_bank, name) is not None, name
    assert set(memory_bank.__all__) <= set(dir(memory_bank))
    with pytest.raises(AttributeError):
        memory_bank.no_such_name  # noqa: B018


def test_the_app_imports_only_the_public_api() -> None:
    assert len(APP_SOURCES) > 10
    offenders = {str(p.relative_to(ROOT)): bad for p in APP_SOURCES if (bad := _core_imports(p))}
    assert offenders == {}


def test_describe_engine_matches_the_built_engines_label() -> None:
    from memory_bank import Settings, describe_engine
    from memory_bank.engines.llm.engine import engine_label
    from memory_bank.engines.offline.engine import LABEL

    assert describe_engine(Settings(engine="offline")) == LABEL
    llm = Settings(engine="llm", llm_model="m", llm_base_url="http://127.0.0.1:9/v1")
    assert describe_engine(llm) == engine_label(llm) == "LLM engine (m at 127.0.0.1:9)"


def test_check_connection_reports_a_refused_endpoint_at_once() -> None:
    from memory_bank import LLMError, Settings, check_connection

    settings = Settings(engine="llm", llm_model="m", llm_base_url="http://127.0.0.1:9/v1", llm_max_retries=5)
    with pytest.raises(LLMError):
        check_connection(settings)

"""The LLM engine: every agent backed by one `LLMClient` (DESIGN §5).

The client is passed in already wrapped (metered, cancellable) by the caller, so every agent's calls count
against the same run budgets; nothing here builds a client.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlparse

from ...settings import Settings
from ...tools.base import ToolBox
from ..base import Engine, Extractive
from ..models import ToolCallRecord
from .analysis import AnalysisAgent
from .classification import ClassificationAgent
from .client import LLMClient
from .integration import IntegrationAgent
from .local_model import DEFAULT_MODEL
from .planning import PlanningAgent
from .react import ReactAgent
from .recognizer import ImageRecognizer
from .structure import StructureAgent
from .structure_select import SelectingStructureAgent

DEFAULT_HOST = "api.openai.com"


def engine_label(settings: Settings) -> str:
    if settings.llm_provider == "local":
        return f"LLM engine (local model {settings.llm_model or DEFAULT_MODEL.name}, llama.cpp on this machine)"
    host = urlparse(settings.llm_base_url).netloc if settings.llm_base_url else DEFAULT_HOST
    return f"LLM engine ({settings.llm_model or 'no model set'} at {host or settings.llm_base_url})"


def build_llm_engine(settings: Settings, client: LLMClient, toolbox: ToolBox,
                     on_tool_call: Callable[[ToolCallRecord], None] | None = None,
                     on_answer_text: Callable[[str, int], None] | None = None,
                     extractive: Extractive | None = None) -> Engine:
    """`extractive` (the offline structurer) is what summaries by selection build on; without it the structure
    agent writes its summaries whatever `summary_mode` says."""
    settings.check_llm()
    structure = (SelectingStructureAgent(client, settings, extractive)
                 if settings.summaries_by_selection() and extractive is not None else StructureAgent(client, settings))
    return Engine(
        name="llm", label=engine_label(settings),
        classification=ClassificationAgent(client, settings), structure=structure,
        analysis=AnalysisAgent(client, settings), integration=IntegrationAgent(client, settings),
        planning=PlanningAgent(client, settings),
        executor=ReactAgent(client, settings, toolbox, on_tool_call, on_answer_text),
        recognizer=ImageRecognizer(client, settings), uses_llm=True)

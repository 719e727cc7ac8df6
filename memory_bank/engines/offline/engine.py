"""The offline engine: every agent's contract with classical NLP on the embedding model (DESIGN §5).

One embedder and one memory view are shared by the agents that need them; nothing here builds its own model.
"""

from __future__ import annotations

from ...retrieval.embedding import Embedder
from ...retrieval.view import MemoryView
from ...settings import Settings
from ..base import Engine
from ..protocol.figures import TableIndex
from .analysis import OfflineAnalyzer
from .classification import OfflineClassifier
from .executor import OfflineExecutor
from .integration import OfflineIntegrator
from .planning import OfflinePlanner
from .recognizer import OfflineRecognizer
from .structure import OfflineStructurer

LABEL = "Offline engine (classical NLP, no LLM)"
# ~3,000 words (~8 pages): big enough for keyword statistics within a chunk, small enough that the first nodes
# of a long PDF appear within seconds while the rest is read.
CHUNK_TOKENS = 4_000


def build_offline_engine(settings: Settings, embedder: Embedder, view: MemoryView) -> Engine:
    return Engine(
        name="offline",
        label=LABEL,
        classification=OfflineClassifier(),  # lexical boundaries: embedding them cost 20 s on the NIST PDF
        structure=OfflineStructurer(),
        analysis=OfflineAnalyzer(embedder, view),
        integration=OfflineIntegrator(),
        planning=OfflinePlanner(),
        executor=OfflineExecutor(embedder, view, TableIndex(view)),
        recognizer=OfflineRecognizer(),
        uses_llm=False,
        chunk_tokens=CHUNK_TOKENS,
    )

"""Every page through `streamlit.testing.v1.AppTest` (no browser), on the offline engine and real documents.

The sample task (the NIST PDF) runs once per module; its tests go in the order a user would: the run, a click in
the graph, deep retrieval, a citation, a follow-up, the Graph page, export and import back. A component click is
simulated the way the browser reports one: the component's value in session state, with a fresh nonce.
"""

from __future__ import annotations

import gc
import io
import json
import re
import time
import uuid
from pathlib import Path

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from memory_bank import MemoryBank, Settings
from memory_bank.events import Event
from tests.support.fake_openai import FakeOpenAI
from tests.support.scripted_llm import ScriptedLLM

ROOT = Path(__file__).resolve().parents[2]
BUDGET_5 = ("Northwind project overview\n\nThe Northwind project budget is 5 million dollars for the fiscal year "
            "2021. The budget was approved by the steering board in March 2021 and covers hardware, staff and "
            "travel.\n\nZero trust migration plan\n\nThe migration to a zero trust architecture starts with an "
            "inventory of all enterprise resources, subjects and workflows. Each access request is evaluated by "
            "the policy engine before a session is granted.\n")
ALPHA_NOTES = ("ALPHA systems were first deployed FACT:year=1990 according to the archive of the ministry.\n\n"
               "The ALPHA maintenance crews were trained by the OMEGA institute.\n\n"
               "The BETA protocol is a separate matter about postal codes.")
BUDGET_9 = BUDGET_5.replace("overview", "financial review").replace("5 million", "9 million")


def new_app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)


def task_of(at: AppTest):  # noqa: ANN201 - ui.session.TaskSession
    return at.session_state["task_session"]


def wait_for_start(at: AppTest) -> None:
    """A Start made before the embedding model is ready waits; the Run page begins it on a later rerun."""
    for _ in range(480):
        if task_of(at).pending is None:
            break
        time.sleep(0.25)
        at.run()
    assert task_of(at).pending is None, "the start still waits for the embedding model"


def finish_runs(at: AppTest) -> None:
    """Wait for the session's runs, once a Start that waited for the embedding model has begun."""
    wait_for_start(at)
    for run in task_of(at).runs:
        run.join(240)
        assert not run.alive, "the run did not finish in time"
    at.run()
    assert not at.exception, at.exception


def run_alpha_task(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                   question: str = "When were ALPHA systems first deployed?") -> AppTest:
    """Start a task on the ALPHA notes through the New task form, with `env` set, and wait for its run."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    at = new_app()
    at.run()
    at.text_area[0].set_value(question)
    at.text_area[1].set_value(ALPHA_NOTES)
    at.button(key="FormSubmitter:new-task-Start").click().run()
    finish_runs(at)
    return at


def click_node(at: AppTest, key: str, node_id: str) -> None:
    """What the graph component sends when a node is clicked."""
    at.session_state[key] = {"node_id": node_id, "nonce": uuid.uuid4().hex}
    at.run()
    assert not at.exception, at.exception


def plain(markdown: str) -> str:
    """Markdown source without backslash escapes: what the browser shows."""
    return re.sub(r"\\(.)", r"\1", markdown)


def texts(at: AppTest) -> str:
    return "\n".join(t.value for t in at.text)


@pytest.fixture(scope="module")
def sample_app() -> AppTest:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MEMORY_BANK_ENGINE", "offline")
        at = new_app()
        at.run()
        at.button(key="run-sample").click().run()
        assert not at.exception, at.exception
        finish_runs(at)
        yield at


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """Bytes handed to st.download_button, by file name (AppTest keeps them in a mock media store)."""
    seen: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def record(self, path_or_data, mimetype, kind, filename=None):  # noqa: ANN001, ANN202
        if filename and isinstance(path_or_data, bytes):
            seen[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", record)
    return seen


def test_sample_run_fills_every_part_of_the_run_page(sample_app: AppTest) -> None:
    at, task = sample_app, task_of(sample_app)
    assert at.title[0].value == "Run"
    snapshot = task.bank.snapshot()
    assert snapshot.counts["nodes"] > 50 and snapshot.counts["edges"] > 0
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Nodes"] == f"{snapshot.counts['nodes']:,}"
    # offline there is no LLM call to count: the meters show the work done
    assert "LLM calls (run)" not in metrics and int(metrics["Pages read"]) >= 50
    assert metrics["Reading speed"].endswith("pages/s")
    result = task.current_run.monitor.view().result
    assert result.termination == "done" and result.citations
    assert any(result.answer[:60] in m.value for m in at.markdown)
    assert at.get("component_instance")[0].proto.component_name.endswith("graph_view")
    assert not at.error


def test_graph_click_opens_deep_retrieval_with_the_nodes_pages(sample_app: AppTest) -> None:
    at, task = sample_app, task_of(sample_app)
    node = next(n for n in task.bank.snapshot().nodes if n.pages)
    click_node(at, "run-graph", node.id)
    assert task.selected == node.id
    shown = texts(at)
    assert node.summary in shown
    deep = task.bank.deep_retrieve(node.id)
    assert deep.entries and deep.entries[0].entry.text in shown
    assert any(a.content[:200] in shown for e in deep.entries for a in e.attachments if a.ok)


def test_citation_opens_its_node(sample_app: AppTest) -> None:
    at, task = sample_app, task_of(sample_app)
    citation = task.current_run.monitor.view().result.citations[0]
    at.button(key="answer-0-cite-1").click().run()
    assert task.selected == citation.node_id
    assert task.bank.node(citation.node_id).summary in texts(at)


def test_follow_up_reuses_the_memory(sample_app: AppTest) -> None:
    at, task = sample_app, task_of(sample_app)
    before = task.bank.snapshot().counts["entries"]
    at.text_input(key="follow-up-question").set_value("What is a policy enforcement point?")
    at.button(key="FormSubmitter:follow-up-Ask").click().run()
    finish_runs(at)
    assert len(task.runs) == 2 and task.runs[1].follow_up
    assert task.bank.snapshot().counts["entries"] == before, "a follow-up must not re-ingest anything"
    follow = task.runs[1].monitor.view().result
    assert follow.question == "What is a policy enforcement point?" and follow.answer
    assert any(m.value.endswith("What is a policy enforcement point?") for m in at.markdown)


def test_a_follow_up_naming_only_it_is_read_against_the_previous_question(sample_app: AppTest) -> None:
    """The follow-up form asks in the same task: "What does it do?" after "What is a policy enforcement point?" asks
    what that point does, and the page says how it read the question above the answer."""
    at, task = sample_app, task_of(sample_app)
    at.text_input(key="follow-up-question").set_value("What does it do?")
    at.button(key="FormSubmitter:follow-up-Ask").click().run()
    finish_runs(at)
    result = task.runs[2].monitor.view().result
    assert result.question == "What does it do?" and result.follow_up is not None
    assert result.insight_doc.task_goal == "What does a policy enforcement point do?"
    note = "Reading “it” as “a policy enforcement point”."
    assert result.answer.startswith(f"{note}\n"), result.answer
    assert any(plain(c.value) == note for c in at.caption), [c.value for c in at.caption]
    assert any(m.value.endswith("What does it do?") for m in at.markdown)


def test_graph_page_click_shows_node_and_neighbours(sample_app: AppTest) -> None:
    at, task = sample_app, task_of(sample_app)
    at.switch_page("pages/graph.py").run()
    assert at.title[0].value == "Query Graph" and not at.exception
    snapshot = task.bank.snapshot()
    degree = {n.id: 0 for n in snapshot.nodes}
    for a, b in snapshot.edges:
        degree[a] += 1
        degree[b] += 1
    hub = max(degree, key=degree.get)
    click_node(at, "graph-page", hub)
    assert task.bank.node(hub).summary in texts(at)
    neighbours = [d.value for d in at.dataframe if "node" in d.value.columns]
    assert neighbours and len(neighbours[0]) == degree[hub]


def test_export_is_json_that_imports_back(sample_app: AppTest, downloads: dict[str, bytes]) -> None:
    at, task = sample_app, task_of(sample_app)
    at.switch_page("pages/export_import.py").run()
    name = f"memory-{task.graph_id}.json"
    data = json.loads(downloads[name])
    assert data["settings"]["secrets_configured"] == [] and "llm_api_key" not in data["settings"]
    restored = MemoryBank.from_export(data, Settings(), embedder=task.bank.embedder)
    assert restored.snapshot().counts == task.bank.snapshot().counts

    at.file_uploader(key="import-file").upload("broken.json", b'{"format": "something else"}', "application/json")
    at.run()
    at.button(key="import-button").click().run()
    assert any("broken.json cannot be imported: not a memory bank export" in plain(e.value) for e in at.error)
    assert task.bank.snapshot().counts["nodes"] > 50, "a bad import must leave the memory alone"

    at.file_uploader(key="import-file").set_value(("saved.json", downloads[name], "application/json"))
    at.run()
    at.button(key="import-button").click().run()
    assert not at.error and any("Imported saved.json" in plain(s.value) for s in at.success)
    answers = [e["answer"] for e in data["run_log"] if e["kind"] == "answer"]
    assert task.origin == "import: saved.json" and len(answers) == 3  # the sample's question and two follow-ups
    assert [r.monitor.view().result.answer for r in task.runs] == answers, "import restores the answers"
    assert task.bank.snapshot().counts == restored.snapshot().counts
    at.switch_page("pages/graph.py").run()
    node = task.bank.snapshot().nodes[0]
    click_node(at, "graph-page", node.id)
    assert node.summary in texts(at)


def test_uploads_with_a_bad_file_conflicts_merges_and_the_timeline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.file_uploader[0].set_value([("overview.txt", BUDGET_5.encode(), "text/plain"),
                                   ("review.txt", BUDGET_9.encode(), "text/plain"),
                                   ("broken.pdf", b"%PDF-1.4 this is not a PDF", "application/pdf")])
    at.text_area[0].set_value("What is the Northwind budget?")
    at.button(key="FormSubmitter:new-task-Start").click().run()
    finish_runs(at)
    task = task_of(at)
    assert any("broken.pdf" in plain(e.value) for e in at.error), "a bad upload must be reported with its name"
    snapshot = task.bank.snapshot()
    assert snapshot.counts["merges"] >= 2 and len(snapshot.conflicts) == 1

    at.switch_page("pages/timeline.py").run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert list(table["event"]).count("merge") >= 1 and any(e.startswith("conflict") for e in table["event"])
    conflict_row = next(i for i, e in enumerate(table["event"]) if e.startswith("conflict ("))
    at.session_state["timeline"] = {"selection": {"rows": [conflict_row], "columns": [], "cells": []}}
    at.run()
    conflict = snapshot.conflicts[0]
    assert set(task.highlight) == {conflict.node_a, conflict.node_b, conflict.merged_into}
    shown = texts(at)
    assert "5 million" in shown and "9 million" in shown and conflict.description in shown
    task_workdir = task.workdir
    at.switch_page("pages/new_task.py").run()
    at.button[0].click().run()  # "Clear memory and start over"
    assert task.bank is None and list(task_workdir.iterdir()) == []


def test_settings_key_stays_in_the_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    secret = "sk-ui-" + uuid.uuid4().hex
    with FakeOpenAI("OK", "OK") as fake:  # one answer for "Test connection", one for the test on save
        at = new_app()
        at.run()
        at.switch_page("pages/settings.py").run()
        assert plain(at.caption[0].value).startswith("Now: Offline engine (classical NLP, no LLM)")
        at.radio[0].set_value("llm")
        at.text_input[0].set_value(fake.base_url)
        at.text_input[1].set_value(fake.models[0])
        at.text_input[2].set_value(secret)
        at.button(key="FormSubmitter:settings-Test connection").click().run()
        assert any("Connected to" in plain(s.value) for s in at.success), [e.value for e in at.error]
        at.button(key="FormSubmitter:settings-Save").click().run()
        task = task_of(at)
        assert any(plain(s.value).startswith("Saved for this session") for s in at.success)
        assert plain(at.caption[0].value).startswith(f"Now: LLM engine ({fake.models[0]} at 127.0.0.1")
        assert task.settings.engine == "llm" and task.settings.secret("llm_api_key") == secret
        assert at.text_input[2].value == "", "the key must never be shown back"
        page_text = json.dumps([str(e.proto) for e in at.main.children.values()], default=str)
        assert secret not in page_text and secret not in json.dumps(task.settings.public_dict())
        assert not at.error
        fake.stop()
        at.button(key="FormSubmitter:settings-Test connection").click().run()
        assert any("Connection failed" in plain(e.value) for e in at.error)
        at.button(key="FormSubmitter:settings-Save").click().run()  # saving a dead endpoint says so plainly
        assert any(plain(e.value).startswith("The LLM endpoint is not answering") for e in at.error)
        assert any(plain(s.value).startswith("Saved for this session") for s in at.success)


def test_notes_sample_shows_a_merge_and_a_settled_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.button(key="run-sample-notes").click().run()
    finish_runs(at)
    task = task_of(at)
    result = task.current_run.monitor.view().result
    assert "5 million" in result.answer and "9 million" not in result.answer
    (conflict,) = task.bank.snapshot().conflicts
    assert conflict.status == "resolved"
    at.switch_page("pages/timeline.py").run()
    assert not at.exception, at.exception
    events = list(at.dataframe[0].value["event"])
    assert "merge" in events and any(e.startswith("conflict") for e in events)


def test_a_whole_llm_engine_run_through_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """New task -> run -> answer with citations on the LLM engine, every agent through the real OpenAI client
    against the scripted model on 127.0.0.1; the metrics show the calls and tokens it really made."""
    with FakeOpenAI(handler=ScriptedLLM(per_cluster=1)) as fake:
        # every candidate judged: the three short notes are too far apart in meaning for the default threshold
        at = run_alpha_task(monkeypatch, {"MEMORY_BANK_ENGINE": "llm", "LLM_BASE_URL": fake.base_url,
                                          "LLM_MODEL": fake.models[0], "LLM_API_KEY": "sk-test-secret",
                                          "ANALYSIS_MIN_SIMILARITY": "0"})
        task = task_of(at)
        result = task.current_run.monitor.view().result
        assert task.settings.engine == "llm" and result.termination == "done", result
        assert "1990" in result.answer and result.citations
        agents = {r.agent for r in fake.chat_requests}
        # the three short notes are each their own summary (a cluster of at most 40 words needs no structure call);
        # pasted as one text, they are one file, whose passages the offline analysis relates (its detector finds
        # the 1990 / 1995 conflict); the conflict's cross-validation, the first answering step and the end after
        # its answer are the rules'
        assert {"classification", "react"} <= agents and not {"structure", "planning", "analysis"} & agents
        calls = next(plain(m.value) for m in at.metric if m.label == "LLM calls (run)")
        assert calls.split(" / ")[0] == f"{len(fake.chat_requests):,}", calls  # counts what the server received
        assert "1990" in texts(at) + " ".join(plain(m.value) for m in at.markdown)


def test_a_run_against_a_dead_endpoint_ends_with_one_plain_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not "Working on it…" for minutes: the run stops after the breaker's limit and the page says why."""
    fake = FakeOpenAI().start()
    dead_url = fake.base_url
    fake.stop()  # nothing listens there any more: every connection is refused
    at = run_alpha_task(monkeypatch, {"MEMORY_BANK_ENGINE": "llm", "LLM_BASE_URL": dead_url, "LLM_MODEL": "fake-model",
                                      "LLM_API_KEY": "sk-test-secret", "LLM_MAX_RETRIES": "0",
                                      "LLM_MAX_CONSECUTIVE_FAILURES": "1"})
    result = task_of(at).current_run.monitor.view().result
    assert result.termination == "endpoint_down"
    assert sum("LLM endpoint is not usable" in str(e) for e in result.errors) == 1, "\n".join(map(str, result.errors))
    shown = [plain(e.value) for e in at.error]  # the answer panel, and the run log's line for the same event
    assert any(e.startswith("The LLM endpoint is not usable") and "Connection refused" in e for e in shown), shown


def test_cancel_stops_the_run_and_keeps_what_was_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """The run is held after its first linked nodes until Cancel is clicked: on a fast machine the sample could
    otherwise finish before the click, and the test would cancel a finished run."""
    from memory_bank.events import Progress
    from ui.worker import RunMonitor

    original = RunMonitor.on_event

    def held(self: RunMonitor, event: Event) -> None:
        original(self, event)
        if isinstance(event, Progress) and event.stage == "link":  # published outside the memory's lock
            deadline = time.monotonic() + 120
            while not self.view().cancel_requested and time.monotonic() < deadline:
                time.sleep(0.02)

    monkeypatch.setattr(RunMonitor, "on_event", held)
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.button(key="run-sample").click().run()
    wait_for_start(at)
    task = task_of(at)
    run = task.current_run
    assert run is not None, "the sample run never started"
    deadline = time.monotonic() + 180
    while run.alive and not task.bank.snapshot().counts["nodes"] and time.monotonic() < deadline:
        time.sleep(0.05)
    built = task.bank.snapshot().counts["entries"]  # entries are never deleted (nodes can merge)
    at.run()
    cancel = next(b for b in at.button if b.label == "Cancel")
    cancel.click().run()
    finish_runs(at)
    view = run.monitor.view()
    assert view.cancel_requested and view.status == "cancelled" and view.result.termination == "cancelled"
    assert any("ended early: it was cancelled" in plain(w.value) for w in at.warning)
    after = task.bank.snapshot().counts
    assert after["entries"] >= built > 0 and after["nodes"] > 0, "cancelling must keep the memory built so far"


def test_session_temp_folder_goes_when_the_session_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    task = task_of(at)
    from ui.session import save_upload

    saved = save_upload(task, "notes.txt", b"some notes")
    workdir = task.workdir
    assert saved.is_file() and saved.is_relative_to(workdir)
    del task, at
    gc.collect()
    assert not workdir.exists(), "a dropped session must leave no temp files"


def test_image_upload_is_previewed_in_deep_retrieval(monkeypatch: pytest.MonkeyPatch) -> None:
    from PIL import Image, ImageDraw

    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    picture = Image.new("RGB", (420, 120), "white")
    ImageDraw.Draw(picture).text((12, 45), "Policy engine grants access", fill="black")
    png = io.BytesIO()
    picture.save(png, "PNG")
    at = new_app()
    at.run()
    at.file_uploader[0].set_value([("diagram.png", png.getvalue(), "image/png")])
    at.text_area[0].set_value("What does the diagram show?")
    at.button(key="FormSubmitter:new-task-Start").click().run()
    finish_runs(at)
    task = task_of(at)
    node = next(n for n in task.bank.snapshot().nodes if n.kind == "image")
    click_node(at, "run-graph", node.id)
    assert at.get("image"), "an image node's deep retrieval shows the picture"
    assert "diagram.png" in texts(at)


@pytest.mark.parametrize(("page", "hint"), [("pages/graph.py", "The memory is empty"),
                                            ("pages/run.py", "No run yet"),
                                            ("pages/timeline.py", "The memory is empty")])
def test_pages_without_memory_point_to_a_new_task(monkeypatch: pytest.MonkeyPatch, page: str, hint: str) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    assert any(hint in i.value for i in at.info), [i.value for i in at.info]


def test_a_bad_setting_in_the_environment_is_named_and_the_app_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BUDGET_TOKENS", "lots")
    at = new_app()
    at.run()
    assert not at.exception
    warning = " ".join(w.value for w in at.warning)
    assert "MEMORY_BUDGET_TOKENS" in warning and "default settings" in warning and "lots" not in warning
    assert task_of(at).settings.memory_budget_tokens == 2000


def test_settings_choose_the_local_model_for_answers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.switch_page("pages/settings.py").run()
    at.radio[0].set_value("llm")
    at.radio[1].set_value("local")
    at.selectbox[0].set_value("answers")
    at.button(key="FormSubmitter:settings-Save").click().run()
    settings = task_of(at).settings
    assert settings.llm_provider == "local" and settings.preset_name() == "answers"
    assert plain(at.caption[0].value).startswith("Now: LLM engine (local model") and "for react; offline" in \
        plain(at.caption[0].value)


def test_a_question_the_documents_do_not_answer_is_shown_apart_from_an_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = run_alpha_task(monkeypatch, {}, "When were the GAMMA-7 systems first deployed?")
    shown = [i.value for i in at.info if "Not found in the documents" in i.value]
    assert shown and "GAMMA-7" in shown[0], [i.value for i in at.info]


def test_start_without_a_file_says_an_upload_may_be_under_way_and_keeps_the_question(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Start pressed before a picked file has finished uploading submits no file: the page says so, starts
    nothing, and the typed question is still in the form for the next Start."""
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    at = new_app()
    at.run()
    at.text_area[0].set_value("What does the policy engine decide?")
    at.button(key="FormSubmitter:new-task-Start").click().run()
    assert not at.exception, at.exception
    [error] = [e.value for e in at.error]
    assert "may still be uploading" in error and "press Start again" in error, error
    assert at.text_area[0].value == "What does the policy engine decide?"
    assert task_of(at).bank is None and not task_of(at).running

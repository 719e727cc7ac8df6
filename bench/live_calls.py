"""What the Run page's live panel says during one structured call on the real local model (issue 29 item 4).

    python bench/live_calls.py [--calls 2]

Starts the local llama.cpp server, makes `--calls` structured calls of the structure agent through the metered
client (the app's path: streamed with its schema), and prints the panel's lines once a second while each call is
in flight, then the measured speeds and the time-left line for 10 more such calls. Prints the load average too:
the speeds move with it. Needs the model: `python -m memory_bank fetch-model`.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory_bank import Settings  # noqa: E402
from memory_bank.control import CancelToken  # noqa: E402
from memory_bank.engines.llm.client import MeteredClient, ResponseSchema, UsageMeter  # noqa: E402
from memory_bank.engines.llm.live import LiveCalls, PlanRules  # noqa: E402
from memory_bank.engines.llm.local_server import LocalModelServer  # noqa: E402
from memory_bank.engines.llm.openai_client import OpenAIClient  # noqa: E402
from memory_bank.events import EventBus, Progress  # noqa: E402
from memory_bank.settings import default_data_dir  # noqa: E402
from ui.call_panel import call_line, speed_line, time_left_line  # noqa: E402

SCHEMA = ResponseSchema("summary", {"type": "object", "properties": {"summary": {"type": "string", "maxLength": 300}},
                                    "required": ["summary"]})
PROMPT = [{"role": "system", "content": "Summarise the passage in one sentence as JSON {\"summary\": ...}."},
          {"role": "user", "content": "The Northwind project budget was approved at 5 million euros by the steering "
                                      "board on 3 March; the board asked for quarterly reports and named Ana Ruiz "
                                      "as the project lead, replacing the interim lead from the January meeting."}]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2)
    args = parser.parse_args()
    server = LocalModelServer.for_data_dir(default_data_dir())
    server.start()
    try:
        settings = server.settings_for(Settings(engine="llm", llm_provider="local"))
        meter = UsageMeter(100, 1_000_000, live=LiveCalls(PlanRules.of(settings)))
        client = MeteredClient(OpenAIClient(settings), meter, EventBus(), CancelToken())
        print(f"load average {os.getloadavg()[0]:.1f}")
        for i in range(args.calls):
            def call(i: int = i) -> None:
                with meter.live.working_on(f"cluster 'Northwind budget' #{i + 1}"):
                    client.complete(PROMPT, agent="structure", temperature=0.1, top_p=0.9, max_tokens=120,
                                    json_mode=True, schema=SCHEMA)

            thread = threading.Thread(target=call)
            start = time.perf_counter()
            thread.start()
            while thread.is_alive():
                thread.join(1.0)
                for live_call in meter.live.view().calls:
                    print(f"  {time.perf_counter() - start:5.1f} s  {call_line(live_call)}")
        meter.live.begin_run()
        meter.live.hear(Progress(stage="structure", done=0, total=10 * settings.llm_batch_items,
                                 message="bench"))
        live = meter.live.view()
        for speed in live.speeds:
            print(f"{speed.agent}: {speed.calls} calls, {speed.seconds_per_call:.1f} s a call, prompt "
                  f"{speed.prompt_per_s or 0:.1f} tok/s, reply {speed.gen_per_s or 0:.1f} tok/s")
        print(speed_line(live))
        print(time_left_line(live), "(10 structure batches planned, the answer)")
        print(f"load average {os.getloadavg()[0]:.1f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()

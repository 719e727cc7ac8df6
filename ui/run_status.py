"""What a finished run is called, from what it did rather than from the loop having ended.

A run whose every input failed to load answered from nothing: it "failed", even though the loop played to its
end and planned, say, a successful "answer" task. A run that read some inputs and lost others, or whose
sub-tasks failed, "partly failed". Kept apart from the worker so the rule is one function, tested on its own.
"""

from __future__ import annotations

from memory_bank import RunResult

LABELS = {"running": "Running", "done": "Done", "cancelled": "Cancelled", "failed": "Failed",
          "partly failed": "Partly failed"}


def finished_status(result: RunResult, *, inputs: int, cancel_requested: bool = False) -> str:
    """`inputs`: how many files (and pasted texts) the run was given to read."""
    if result.termination == "cancelled" or cancel_requested:
        return "cancelled"
    if not result.errors:
        return "done"
    if inputs and not result.new_node_ids:
        return "failed"
    return "partly failed"

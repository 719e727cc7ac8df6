"""The text protocol between the memory and an agent: the <task>/<memory> tags, escaping of untrusted text, and
the ReAct tags (<think>, <tool_call>, <tool_response>, <answer>)."""

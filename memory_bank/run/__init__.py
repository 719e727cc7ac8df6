"""The task loop: plan one step, execute it through the adapter's prompt, intercept its context, plan again."""

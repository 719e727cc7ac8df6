"""Streamlit-side helpers: per-session task state, the run worker and its monitor, drawing blocks, formatting.

The core (`memory_bank`) never imports Streamlit; this package is the only bridge, and pages only draw.
"""

"""Scoring: per-episode metrics, per-family counters, tables, the SmartPlay summary."""

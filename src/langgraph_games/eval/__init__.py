"""Evaluation: run specs, executors, results files, metrics, arenas and reports."""

__all__: list[str] = []

"""Errors of the model layer: bad specs, unreachable endpoints, failed calls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["ModelCallError", "ModelError", "ModelSpecError", "ModelUnavailableError"]


class ModelError(Exception):
    """Base class of model-layer errors."""


class ModelSpecError(ModelError, ValueError):
    """A model spec that is not one of the accepted forms (the message lists them)."""


class ModelUnavailableError(ModelError):
    """The model cannot be used at all: missing weights, unreachable endpoint, bad key.

    Attributes:
        model: The spec or endpoint that was tried.
    """

    def __init__(self, model: str, reason: str) -> None:
        self.model = model
        super().__init__(f"Model {model!r} is unavailable: {reason}")


class ModelCallError(ModelError):
    """One call failed after its retries (the run records it and goes on).

    Attributes:
        model: The model that failed.
        waits: The waits between its attempts
            (:class:`~langgraph_games.models.retry.RetryWait`), oldest first.
    """

    def __init__(self, model: str, reason: str, waits: Sequence[Any] = ()) -> None:
        self.model = model
        self.waits = list(waits)
        super().__init__(f"Call to model {model!r} failed: {reason}")

"""Keeping credentials out of what a run writes down.

A run's spec carries the model settings given on the command line, ``api_key`` among
them, and the spec is written to the results manifest and hashed for resume. A key
must do neither: it is not part of what a run computes, and a manifest is shared.
:func:`redact_settings` is the one rule: a setting whose name is a credential
(``api_key``, ``*_api_key``, ``*_key``, ``token``, ``*_token``, ``secret``,
``password``) is written as ``"<redacted>"``; every other setting is kept as given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import PlainSerializer

__all__ = ["REDACTED", "ModelSettings", "is_secret_setting", "redact_settings"]

REDACTED = "<redacted>"
_SECRET = re.compile(r"(?:^|_)(?:key|token|secret|password)$", re.IGNORECASE)


def is_secret_setting(name: str) -> bool:
    """Whether a model setting named ``name`` holds a credential.

    Example:
        >>> [is_secret_setting(n) for n in ("api_key", "max_tokens", "token", "base_url")]
        [True, False, True, False]
    """
    return _SECRET.search(name) is not None


def redact_settings(settings: Mapping[str, object]) -> dict[str, object]:
    """``settings`` with every credential's value replaced by :data:`REDACTED`.

    Example:
        >>> redact_settings({"api_key": "sk-1", "temperature": 0.0})
        {'api_key': '<redacted>', 'temperature': 0.0}
    """
    return {k: REDACTED if is_secret_setting(k) else v for k, v in settings.items()}


ModelSettings = Annotated[dict[str, Any], PlainSerializer(redact_settings, when_used="json")]
"""A run spec's model settings: kept whole in memory, credentials redacted in JSON.

A spec's JSON form is what its manifest records and what its hash is computed from, so
a key is never written and changing it does not change the run's identity.
"""

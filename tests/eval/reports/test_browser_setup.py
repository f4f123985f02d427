"""The browser tests' set-up: find chromium, or install it with apt-get, or say why not."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

import cdp


def _fake(
    monkeypatch: pytest.MonkeyPatch, *, installed_after: int, root: bool = True
) -> list[list[str]]:
    calls: list[list[str]] = []

    def run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        calls.append(argv)
        return subprocess.CompletedProcess(argv, 0, "ok", "")

    def find() -> str | None:
        installs = sum(1 for c in calls if c[:2] == ["apt-get", "install"])
        return "/usr/bin/chromium" if installs >= installed_after else None

    monkeypatch.setattr(cdp, "find_chromium", find)
    monkeypatch.setattr(cdp.shutil, "which", lambda name: "/usr/bin/apt-get")
    monkeypatch.setattr(cdp.os, "geteuid", lambda: 0 if root else 1000)
    monkeypatch.setattr(cdp.subprocess, "run", run)
    return calls


def test_an_installed_chromium_is_used_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake(monkeypatch, installed_after=0)
    assert cdp.ensure_chromium() == ("/usr/bin/chromium", "")
    assert calls == []


def test_a_missing_chromium_is_installed_and_lists_updated_only_if_needed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _fake(monkeypatch, installed_after=1)
    assert cdp.ensure_chromium()[0] == "/usr/bin/chromium"
    assert [c[:2] for c in calls] == [["apt-get", "install"]]
    calls = _fake(monkeypatch, installed_after=2)  # stale package lists: first install fails
    assert cdp.ensure_chromium()[0] == "/usr/bin/chromium"
    assert [c[:2] for c in calls] == [["apt-get", "install"], ["apt-get", "update"],
                                      ["apt-get", "install"]]  # fmt: skip


def test_the_reason_is_given_when_it_cannot_be_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, installed_after=99, root=False)
    assert cdp.ensure_chromium() == (
        None,
        "chromium is not installed and installing it needs root (apt-get)",
    )
    _fake(monkeypatch, installed_after=99)
    path, why = cdp.ensure_chromium()
    assert path is None and why.startswith("could not install chromium with apt-get: ok")

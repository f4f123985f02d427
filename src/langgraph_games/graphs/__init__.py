"""Strategy graphs (LangGraph), the episode loop and the learning loops."""

__all__: list[str] = []

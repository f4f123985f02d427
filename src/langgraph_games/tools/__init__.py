"""LangChain tools over a live game session."""

__all__: list[str] = []

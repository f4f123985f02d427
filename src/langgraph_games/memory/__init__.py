"""Memory: a Chroma-backed LangGraph store and the curation of experiences and truths."""

__all__: list[str] = []

"""Chat models: the embedded local model and OpenAI-compatible endpoints, with usage accounting."""

__all__: list[str] = []

"""Play against an agent in the browser: ``langgraph-games serve``.

:mod:`.matches` holds the matches (a person's seat on the ``human`` player's interrupt,
the agent as the arena builds it, one checkpointed episode thread per match);
:mod:`.app` is the stdlib HTTP server with its JSON API and the page in ``assets/``.
"""

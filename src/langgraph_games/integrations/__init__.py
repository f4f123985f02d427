"""Adapters that expose the games to other ecosystems.

* :mod:`.actions`: each game's action universe (fixed action indices and masks).
* :mod:`.pettingzoo`: PettingZoo AEC and Parallel environments for every game
  (the ``pettingzoo`` extra).
* :mod:`.gymnasium`: Gymnasium environments for the single-player games, registered as
  ``langgraph_games/<Name>-v<version>`` (the ``pettingzoo`` extra).
* :mod:`.mcp_server`: the game tools served over the Model Context Protocol (the ``mcp``
  extra).

The sub-modules import their optional dependencies themselves, so this package imports
none of them.
"""

from __future__ import annotations

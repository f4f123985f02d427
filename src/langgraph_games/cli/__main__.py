"""``python -m langgraph_games.cli``."""

import sys

from langgraph_games.cli import main

sys.exit(main())

"""GAMEBoT prompts, one module per game: RULES, INPUT and OUTPUT in our own words."""

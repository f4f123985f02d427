"""The papers' evaluation protocols: per-game defaults, ablations, SPRING, SmartPlay."""

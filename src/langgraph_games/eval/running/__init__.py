"""Running evaluations: specs, the executor, arenas, results files, training rounds, players."""

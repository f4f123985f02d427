"""Ratings over results files: Elo and openskill ratings, bootstrap intervals, a leaderboard."""

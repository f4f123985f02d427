"""Reports and replays: tables and plots of results, HTML pages that replay episodes."""

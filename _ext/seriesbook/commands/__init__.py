"""The `seriesbook` command and what only it does: read a book for check, rewrite it."""

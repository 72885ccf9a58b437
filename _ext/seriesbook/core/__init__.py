"""The shared ground of every capability: options, problem codes, numbers, the page store."""

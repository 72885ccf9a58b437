project = "minimal"

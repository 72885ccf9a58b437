"""Build-speed machinery: the same pages, built faster."""

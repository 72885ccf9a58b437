"""The renumbering history sibling volumes publish and check their links against."""

"""Text helpers every capability shares: what counts as a Han character.

The scale table counts Han characters and the search splits Han runs into bigrams; both must
agree on which characters those are (CJK Unified Ideographs, Extension A, Extensions B–F, and
the compatibility ideographs), so the class lives here once.
"""

from __future__ import annotations

import re

HAN = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002ebef\uf900-\ufaff]")

"""Text placed into a page, a script or a terminal, escaped for that context: one function each.

Everything a book or a catalog holds is untrusted text: a diagram label ``<!--<script>``, a
msgstr with an escape sequence that retitles or clears the terminal. Whoever writes such text
into one of these contexts calls the function for it, never a hand-made replacement.

* :func:`html_text`: element content (``<``, ``>``, ``&``).
* :func:`html_attribute`: a quoted attribute value (also ``"`` and ``'``).
* :func:`script_json`: a value as JSON inside ``<script>``: no ``<`` at all (so neither
  ``</script>`` nor ``<!--<script>``, which turns the rest of the page into script text), no
  ``>``, ``&``, U+2028 or U+2029.
* :func:`terminal`: C0 and C1 control characters (but newline and tab) and DEL shown as
  ``\\u001b``-style escapes, so nothing a book says can drive the terminal.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                  "\u2028": "\\u2028", "\u2029": "\\u2029"}
#: C0 but tab and newline, DEL, C1.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def html_text(text: str) -> str:
    """*text* as element content."""
    return html.escape(text, quote=False)


def html_attribute(text: str) -> str:
    """*text* as a quoted attribute value (either quote)."""
    return html.escape(text, quote=True)


def script_json(value: Any, **dumps: Any) -> str:
    """*value* as JSON that can stand inside a ``<script>`` element (and is still JSON)."""
    text = json.dumps(value, ensure_ascii=False, **dumps)
    # one pass per character (no replacement holds any of them), not a call per occurrence
    for unsafe, escaped in _SCRIPT_UNSAFE.items():
        if unsafe in text:
            text = text.replace(unsafe, escaped)
    return text


def terminal(text: str) -> str:
    """*text* with every control character but newline and tab written as ``\\uXXXX``.

    The same escape is valid inside a JSON string, so JSON output stays JSON.
    """
    return CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", text)

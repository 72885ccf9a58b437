"""``python -m seriesbook``: the same command as ``seriesbook``."""

import sys

from seriesbook.cli import main

sys.exit(main())

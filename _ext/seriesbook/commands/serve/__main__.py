"""``python -m seriesbook.commands.serve``: the worker process the supervisor starts."""

import sys

from seriesbook.commands.serve._worker import main

sys.exit(main())

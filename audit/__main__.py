"""``python -m audit``: the same as the ``rummy-audit`` command (``audit.cli.main``), for an
environment whose scripts folder is not on the PATH."""

from audit.cli import main

main()

"""`python -m rulesdsl.cli`: the `rulesdsl` command (cli.command).

Stage: the tools (the command line).
"""

from rulesdsl.cli import command

command()

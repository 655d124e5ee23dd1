"""without-proc.py DIR COMMAND...: runs COMMAND, with DIR first in PATH, in
a mount namespace (unshare) whose /proc is an empty tmpfs; exits with its
status."""
import os
import shlex
import subprocess
import sys

directory, command = sys.argv[1], sys.argv[2:]
script = "mount -t tmpfs none /proc && exec " + " ".join(shlex.quote(c) for c in command)
env = dict(os.environ, PATH=directory + os.pathsep + os.environ.get("PATH", ""))
sys.exit(subprocess.call(["unshare", "-rm", "sh", "-c", script], env=env))

"""sigterm-during-child.py STENCILC INPUT TMPDIR PIDFILE: runs STENCILC on
INPUT with the stand-in front end sleeping, sends stencilc SIGTERM once
the child runs, and fails unless stencilc ends by SIGTERM, the child is
gone and TMPDIR is empty."""
import os
import signal
import subprocess
import sys
import time

stencilc, source, tmpdir, pidfile = sys.argv[1:]
env = dict(os.environ, FAKE_CFRONT="sleep", FAKE_CFRONT_PID=pidfile, TMPDIR=tmpdir)
process = subprocess.Popen([stencilc, source, "--emit=stencil"], env=env)
for _ in range(300):
    if os.path.exists(pidfile) and open(pidfile).read().strip():
        break
    time.sleep(0.1)
else:
    process.kill()
    sys.exit("the stand-in front end never started")
child = int(open(pidfile).read())
process.send_signal(signal.SIGTERM)
status = process.wait(timeout=30)
if status != -signal.SIGTERM:
    sys.exit(f"stencilc exited with {status}, not by SIGTERM")


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[-1][0] != "Z"
    except FileNotFoundError:
        return False


for _ in range(100):
    if not alive(child):
        break
    time.sleep(0.1)
else:
    os.kill(child, signal.SIGKILL)
    sys.exit("stencilc-cfront is still running")
left = os.listdir(tmpdir)
if left:
    sys.exit(f"temporary files left behind: {left}")

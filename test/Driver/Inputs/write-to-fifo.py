"""write-to-fifo.py FIFO COPY COMMAND...: makes FIFO (a named pipe), runs
COMMAND while a reader copies what comes through the pipe to COPY, and
fails unless the command succeeds and FIFO is still a FIFO afterwards."""
import os
import stat
import subprocess
import sys
import threading

fifo, copy, command = sys.argv[1], sys.argv[2], sys.argv[3:]
if not os.path.exists(fifo):
    os.mkfifo(fifo)


def read():
    with open(fifo, "rb") as source, open(copy, "wb") as target:
        target.write(source.read())


reader = threading.Thread(target=read, daemon=True)
reader.start()
status = subprocess.call(command, timeout=120)
reader.join(10)
if reader.is_alive():
    # The command never opened the pipe, and the reader waits in open():
    # release it. The open must not block: a reader that has just closed
    # the pipe would leave a blocking open for writing waiting forever (as
    # one did on a loaded CI machine, 2026-12-07, until lit-Driver's 20
    # minutes ran out). ENXIO says no reader is left, which is as good.
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass
    reader.join(10)
if status != 0:
    sys.exit(f"write-to-fifo: the command exited with status {status}")
if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
    sys.exit(f"write-to-fifo: {fifo} is no longer a FIFO")

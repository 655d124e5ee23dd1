#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given status.

Usage: expect-status.py STATUS COMMAND [ARGS...]
lit's `not` accepts any failure; the driver's contract distinguishes 1 (bad
input) from 2 (bad usage), so tests pin the exact status with this.
"""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.call(sys.argv[2:])
if status != expected:
    sys.stderr.write(f"expect-status: exit status {status}, expected {expected}\n")
    sys.exit(1)

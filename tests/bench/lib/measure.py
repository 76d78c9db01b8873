#!/usr/bin/env python3
"""Runs a command and reports what its whole process tree cost, as one JSON line on fd 3:
wall time, exit code, bytes written to storage (the kernel adds a reaped child's I/O to its parent's,
so this process's own /proc entry holds the tree's: for `pulumi`, mostly its checkpoint writes) and
the peak resident memory of the largest process of the tree (getrusage of the reaped children)."""
import json, os, resource, subprocess, sys, time

t0 = time.monotonic()
code = subprocess.call(sys.argv[1:])
ms = (time.monotonic() - t0) * 1000
io = {}
with open("/proc/self/io") as f:
    for line in f:
        k, v = line.split(":")
        io[k.strip()] = int(v)
out = {
    "code": code,
    "ms": ms,
    "writeBytes": io.get("write_bytes", 0) - io.get("cancelled_write_bytes", 0),
    "maxRssBytes": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024,
}
os.write(3, (json.dumps(out) + "\n").encode())
sys.exit(code)

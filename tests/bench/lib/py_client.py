"""Baseline (b) of bench/client.js: Python's standard xmlrpc.client against the same emulator.

One ServerProxy per group, reused for every call (its Transport keeps the HTTP/1.1 connection
alive), a fresh currentDate and authString per call, as our client does. Prints one JSON line:
{"calls": n, "wall_s": s, "cpu_s": s, "rows": rows_of_last_answer}.

usage: py_client.py URL API_USER_ID API_KEY (list|report) CALLS [ZONE_ID]
"""
import datetime
import hashlib
import json
import sys
import time
import xmlrpc.client
import zoneinfo

PACIFIC = zoneinfo.ZoneInfo("America/Los_Angeles")


def auth(api_key, method):
    date = datetime.datetime.now(PACIFIC).replace(microsecond=0).isoformat()
    digest = hashlib.sha256(f"{date}:{api_key}:{method}".encode("utf-8")).hexdigest()
    return digest, date


def main():
    url, user_id, api_key, what, calls = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
    if what == "list":
        proxy = xmlrpc.client.ServerProxy(f"{url}/xmlrpc/pullzone")

        def call():
            a, d = auth(api_key, "listZones")
            return proxy.pullzone.listZones(user_id, a, d)
    else:
        zone_id = int(sys.argv[6])
        proxy = xmlrpc.client.ServerProxy(f"{url}/xmlrpc/report", allow_none=True)

        def call():
            a, d = auth(api_key, "getTotalTransferStats")
            return proxy.report.getTotalTransferStats(user_id, a, d, 1, "2024-01-01", "2025-02-20", zone_id, [], "hourly", 10000)

    rows = len(call())  # warm-up: connection, imports
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for _ in range(calls):
        rows = len(call())
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    print(json.dumps({"calls": calls, "wall_s": wall, "cpu_s": cpu, "rows": rows}))


if __name__ == "__main__":
    main()

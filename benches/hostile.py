#!/usr/bin/env python3
"""Load on `ontosite serve` from hostile clients, on loopback, bounded in
time: idle connections, slow-header clients and cache-busting requests
all at once, while a legitimate client measures its answers. Prints the
figures for docs/benchmarks.md.

    python3 benches/hostile.py target/release/ontosite SITE_DIR [SECONDS]
"""
import socket, statistics, subprocess, sys, threading, time, urllib.request, random

binary, site = sys.argv[1], sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20
server = subprocess.Popen([binary, "serve", "--port", "0", "--dir", site], stdout=subprocess.PIPE, text=True)
url = server.stdout.readline().split()[2]
host, port = url.split("//")[1].rstrip("/").split(":")
port = int(port)

def rss_mb():
    for line in open(f"/proc/{server.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

stop = time.time() + seconds
held = []
def hold_idle(count):
    for _ in range(count):
        try:
            held.append(socket.create_connection((host, port), timeout=5))
        except OSError:
            pass
def slow_client():
    """A connection that has sent only the start of a request."""
    try:
        s = socket.create_connection((host, port), timeout=5)
        s.sendall(b"GET /all HTTP/1.1\r\n")
        return s
    except OSError:
        return None
def slow_loris(count):
    socks = [s for s in (slow_client() for _ in range(count)) if s]
    while time.time() < stop:
        for s in list(socks):
            try:
                s.sendall(b"X")
            except OSError:
                socks.remove(s)
                again = slow_client()
                if again:
                    socks.append(again)
        time.sleep(2)
busted = [0]
def bust():
    while time.time() < stop:
        r = urllib.request.Request(f"{url}all?_={random.random()}", headers={"Accept-Encoding": "br"})
        urllib.request.urlopen(r).read()
        r = urllib.request.Request(f"{url}nope/{random.random()}")
        try:
            urllib.request.urlopen(r).read()
        except urllib.error.HTTPError:
            pass
        busted[0] += 2

before = rss_mb()
threads = [threading.Thread(target=hold_idle, args=(1000,)), threading.Thread(target=slow_loris, args=(100,)), threading.Thread(target=bust)]
for t in threads:
    t.start()
latencies, errors = [], 0
while time.time() < stop:
    started = time.perf_counter()
    try:
        urllib.request.urlopen(f"{url}index.json", timeout=5).read()
        latencies.append((time.perf_counter() - started) * 1000)
    except Exception:
        errors += 1
    time.sleep(0.02)
for t in threads:
    t.join()
after = rss_mb()
open_held = 0
for s in held:
    s.settimeout(0.5)
    try:
        open_held += s.recv(1) != b""
    except socket.timeout:
        open_held += 1
    except OSError:
        pass
server.terminate()
latencies.sort()
print(f"{seconds:.0f} s with {len(held)} idle and 100 slow-header connections and {busted[0]} cache-busting or unknown-path requests")
print(f"legitimate GET /index.json: {len(latencies)} answered, {errors} errors, p50 {statistics.median(latencies):.2f} ms, p99 {latencies[int(len(latencies) * 0.99) - 1]:.2f} ms, max {latencies[-1]:.2f} ms")
print(f"server memory: {before:.0f} MB before, {after:.0f} MB after")
print(f"idle connections still open at the end: {open_held} of {len(held)}")

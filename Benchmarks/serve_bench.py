"""`rote serve` at the size of a generated library: each API call behind a page (median of the
server's own Server-Timing over RUNS calls, with the wall time a client on loopback sees),
the first render of Today in headless Chromium, and the server's peak memory: private (RssAnon,
sampled) and all resident pages including mapped files (VmHWM).
Goals (issue #17): each call ≤ 50 ms server side, first render ≤ 1 s, memory ≤ 200 MB.

    serve_bench.py --library DIR --rote PATH [--runs K] [--work DIR] [--user NAME]

Runs in the browser tests' virtualenv (Selenium); bench.sh makes it when it is missing.
"""
import argparse
import json
import os
import statistics
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--library", required=True)
parser.add_argument("--rote", required=True)
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--work", default="/tmp")
parser.add_argument("--user", default="bench")
options = parser.parse_args()

work = Path(options.work) / "rote-bench-serve"
clone = work / "library"
subprocess.run(["rm", "-rf", str(work)], check=True)
work.mkdir(parents=True)
subprocess.run(["git", "clone", "-q", "--local", options.library, str(clone)], check=True)
progress = clone / "profiles" / options.user / "progress"
deck = sorted(p.name for p in progress.iterdir())[0]
word = sorted(p.stem for p in (progress / deck).glob("*.yaml"))[0]
entry_id = f"{deck}/{word}"
environment = dict(os.environ, ROTE_USER=options.user, NO_COLOR="1")

def private_memory(pid):
    """The server's anonymous resident memory (RssAnon): its own heap and stacks, without the
    pages of files it maps (the binary, the launch index, git's pack indexes), which the
    kernel shares with the page cache and can drop."""
    try:
        return next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("RssAnon"))
    except (OSError, StopIteration):
        return 0


def serve():
    """Starts `rote serve` on the clone: the process, its address, the seconds to the address."""
    begun = time.monotonic()
    process = subprocess.Popen([options.rote, "-C", str(clone), "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    return process, process.stdout.readline().strip(), time.monotonic() - begun


def peak_private_while(process, seconds):
    peak, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        peak = max(peak, private_memory(process.pid))
        time.sleep(0.005)
    return peak


# The first launch on a fresh clone builds the launch index from every file; it is measured on
# its own, then the server is started again as on every later day.
first, _, first_startup = serve()
first_peak = peak_private_while(first, 8)
first.send_signal(2)
first.wait(timeout=60)
server, address, startup = serve()
base, token = address.split("/?token=")
# VmHWM is the kernel's own peak of everything resident; the private peak is sampled.
peak_private = [0]
sampling = [True]


def sample():
    while sampling[0]:
        peak_private[0] = max(peak_private[0], private_memory(server.pid))
        time.sleep(0.005)


sampler = threading.Thread(target=sample, daemon=True)
sampler.start()


def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"X-Rote-Token": token, "Content-Type": "application/json"})
    begun = time.monotonic()
    try:
        with urllib.request.urlopen(request) as response:
            payload = response.read()
            timing = response.headers.get("Server-Timing", "app;dur=nan")
            status = response.status
    except urllib.error.HTTPError as error:
        payload = error.read()
        timing = error.headers.get("Server-Timing", "app;dur=nan")
        status = error.code
    wall = (time.monotonic() - begun) * 1000
    return status, float(timing.split("dur=")[1]), wall, payload


words = [p.stem for p in sorted((progress / deck).glob("*.yaml"))[:150]]
text = " ".join(words * 2)
rows = []


def measure(name, path, body=None, runs=options.runs):
    results = [call(path, body) for _ in range(runs)]
    statuses = {r[0] for r in results}
    rows.append((name, statistics.median(r[1] for r in results), statistics.median(r[2] for r in results), max(r[1] for r in results), statuses))


measure("GET /api/today (Today)", "/api/today")
measure("GET /api/decks (Library)", "/api/decks")
measure("GET /api/entries?deck= (Library, first 50)", f"/api/entries?deck={deck}&limit=50")
measure("GET /api/entries?q= (Library search)", f"/api/entries?q={word}")
measure("GET /api/entry?id= (entry page, history)", f"/api/entry?id={entry_id}")
measure("GET /api/lookup?word= (Reader word)", f"/api/lookup?word={word}")
measure(f"POST /api/reader ({len(text.split())} words)", "/api/reader", {"text": text})
measure("GET /api/stats (Stats)", "/api/stats")
measure("GET /api/strings", "/api/strings")
# A study session: start (lock, plan), one answer, stop and commit.
session = []
for _ in range(options.runs):
    status, server_ms, wall, payload = call("/api/session", {"reviews": 20, "new": 0})
    screen = json.loads(payload)
    answer = {"choice": "1", "grade": "", "reveal": "", "text": "x", "yes_no": "n", "order": "1"}.get((screen.get("prompt") or {}).get("kind"), "")
    reply = call("/api/session/reply", {"answer": answer, "version": screen.get("version", 0)})
    stop = call("/api/session/reply", {"command": "quit"})
    session.append((server_ms, reply[1], stop[1], {status, reply[0], stop[0]}))
rows.append(("POST /api/session (start)", statistics.median(s[0] for s in session), float("nan"), max(s[0] for s in session), set().union(*[s[3] for s in session])))
rows.append(("POST /api/session/reply (an answer)", statistics.median(s[1] for s in session), float("nan"), max(s[1] for s in session), set()))
rows.append(("POST /api/session/reply quit (saves, commits)", statistics.median(s[2] for s in session), float("nan"), max(s[2] for s in session), set()))
statuses = []
changes = []
for status in ["ignored", "active"] * ((options.runs + 1) // 2):
    result = call("/api/entries/status", {"entry": entry_id, "status": status})
    changes.append(result[1])
    statuses.append(result[0])
rows.append(("POST /api/entries/status (ignore, commit)", statistics.median(changes), float("nan"), max(changes), set(statuses)))

# First render: a new headless Chromium opening the printed address, until Today is drawn.
renders = []
try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
    for _ in range(3):
        chrome = webdriver.ChromeOptions()
        chrome.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
            chrome.add_argument(argument)
        driver = webdriver.Chrome(options=chrome, service=webdriver.ChromeService(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
        try:
            begun = time.monotonic()
            driver.get(address)
            WebDriverWait(driver, 30).until(EC.presence_of_element_located((By.ID, "today-due")))
            wall = (time.monotonic() - begun) * 1000
            in_page = driver.execute_script("return performance.now()")
            renders.append((wall, in_page))
        finally:
            driver.quit()
except ImportError:
    pass

peak = next((int(line.split()[1]) for line in Path(f"/proc/{server.pid}/status").read_text().splitlines() if line.startswith("VmHWM")), 0)
sampling[0] = False
sampler.join()
server.send_signal(2)
server.wait(timeout=60)

print(f"rote serve on {options.library} (user {options.user}), {options.runs} runs each; server-side time from Server-Timing, goal ≤ 50 ms")
print(f"  {'call':48} {'server median':>14} {'server max':>11} {'client wall':>12}  status")
for name, server_ms, wall, worst, codes in rows:
    flag = "" if server_ms <= 50 else "  over the goal"
    print(f"  {name:48} {server_ms:11.1f} ms {worst:8.1f} ms {wall:9.1f} ms  {','.join(map(str, sorted(codes)))}{flag}")
print(f"  startup to the printed address: {startup * 1000:.0f} ms; the first launch of the fresh clone, which builds the launch "
      f"index: {first_startup * 1000:.0f} ms, peak private memory in its first 8 s {first_peak / 1024:.0f} MB")
if renders:
    print(f"  first render of Today in headless Chromium (goal ≤ 1 s): {', '.join(f'{w:.0f} ms' for w, _ in renders)} wall from navigation; "
          f"{', '.join(f'{p:.0f} ms' for _, p in renders)} by the page's clock")
print(f"  server peak memory (goal ≤ 200 MB): private (RssAnon, sampled every 5 ms) {peak_private[0] / 1024:.0f} MB; "
      f"all resident including mapped files (VmHWM) {peak / 1024:.0f} MB")

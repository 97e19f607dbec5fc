#!/usr/bin/env python3
"""The npm package (js/README.md) as users get it, offline. `install` packs the package folder
the build assembled with `npm pack` and installs the tarball into a scratch project with
`npm install` (ctest's fixture for the others). The others use that project, each from a
folder of its own inside it, so that `import 'fastblake'` resolves as it does for a user:
  node        the package under Node.js (npm_node_consumer.mjs);
  require     its CommonJS entry (require_test.cjs, `node --test`);
  typescript  its declarations, strict, on consumer.ts and consumer.cts (tsc), which then run;
  browser     the package in headless Chromium, on a page served from 127.0.0.1
              (npm_browser.html).
node and browser hash every case of CASES one-shot and streamed; each digest is checked
against Debian's b3sum, GNU b2sum or Python's hashlib.

Usage: npm_package_test.py --package DIR --project DIR --version X.Y.Z --node NODE
           [--npm NPM] [--b3sum B3SUM] [--b2sum B2SUM] [--tsc TSC] [--chromium CHROMIUM]
           install|node|require|typescript|browser
"""
import argparse
import hashlib
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = "whats the Elvish word for friend"
CONTEXT = "BLAKE3 2019-12-27 16:29:52 test vectors context"
# What `npm pack` must put in the tarball: the files list of js/package.json.in, and
# package.json.
SHIPPED = sorted(["package.json", "fastblake.mjs", "fastblake-wasm.mjs", "fastblake.d.ts",
                  "fastblake.cjs", "fastblake.d.cts", "README.md", "LICENSE"])

# Lengths around BLAKE3's block (64) and chunk (1024) sizes and the module's 1 MiB piece.
INPUTS = {"empty": {"text": ""}, "abc": {"text": "abc"},
          "utf8": {"text": "h\u00e9llo, w\u00f6rld \u2713 \U0001f600"},
          **{f"pattern{n}": {"pattern": n}
             for n in (1, 63, 64, 65, 1023, 1024, 1025, 3073, 65537, (1 << 20) + 1)}}


def cases():
    result = []
    for name, source in INPUTS.items():
        result += [
            {"id": f"blake3/{name}", "algorithm": "blake3", **source},
            {"id": f"blake3-131/{name}", "algorithm": "blake3", "length": 131, **source},
            {"id": f"blake3-keyed/{name}", "algorithm": "blake3", "key": KEY, **source},
            {"id": f"blake3-derive/{name}", "algorithm": "blake3", "context": CONTEXT, **source},
            {"id": f"blake2b/{name}", "algorithm": "blake2b", **source},
            {"id": f"blake2b-256/{name}", "algorithm": "blake2b", "length": 32, **source},
            {"id": f"blake2b-keyed/{name}", "algorithm": "blake2b", "key": KEY, **source},
            {"id": f"blake2s/{name}", "algorithm": "blake2s", **source},
            {"id": f"blake2s-keyed-16/{name}", "algorithm": "blake2s", "length": 16,
             "key": KEY[:16], **source},
        ]
    return result


def input_bytes(case):
    if "text" in case:
        return case["text"].encode("utf-8")
    return bytes(i % 251 for i in range(case["pattern"]))


def expected_digests(args, all_cases, folder):
    """Each case's digest from b3sum, b2sum (BLAKE2b without a key) or hashlib (the rest)."""
    files = {}
    for name in INPUTS:
        path = os.path.join(folder, f"input-{name}")
        with open(path, "wb") as f:
            f.write(input_bytes(INPUTS[name]))
        files[name] = path

    def tool(command, stdin=None):
        out = subprocess.run(command, input=stdin, capture_output=True, check=True, timeout=60)
        return out.stdout.split()[0].decode()

    expected = {}
    for c in all_cases:
        path = files[c["id"].split("/")[1]]
        if c["algorithm"] == "blake3":
            command = [args.b3sum, "--no-names", "-l", str(c.get("length", 32))]
            if "key" in c:
                command.append("--keyed")
            if "context" in c:
                command += ["--derive-key", c["context"]]
            expected[c["id"]] = tool(command + [path], stdin=c.get("key", "").encode())
        elif c["algorithm"] == "blake2b" and "key" not in c:
            expected[c["id"]] = tool([args.b2sum, "-l", str(8 * c.get("length", 64)), path])
        else:
            function = hashlib.blake2b if c["algorithm"] == "blake2b" else hashlib.blake2s
            with open(path, "rb") as f:
                h = function(f.read(), digest_size=c.get("length", function.MAX_DIGEST_SIZE),
                             key=c.get("key", "").encode())
            expected[c["id"]] = h.hexdigest()
    return expected


def check_report(args, report, folder, where):
    """The failures in a report of npm_digests.mjs, against the oracles."""
    if "error" in report:
        return [f"{where}: {report['error']}"]
    failures = []
    if report.get("version") != args.version:
        failures.append(f"{where}: the module's version is {report.get('version')!r}, "
                        f"config.hpp says {args.version!r}")
    if report.get("backend") != "simd128":
        failures.append(f"{where}: backend {report.get('backend')!r}, not simd128")
    all_cases = cases()
    expected = expected_digests(args, all_cases, folder)
    for c in all_cases:
        got = report["digests"].get(c["id"])
        for how, digest in zip(("one-shot", "streamed"), got or [None, None]):
            if digest != expected[c["id"]]:
                failures.append(f"{where}: {c['id']} {how}:\n  got  {digest}\n"
                                f"  want {expected[c['id']]}")
    if not failures:
        print(f"{where}: {len(all_cases)} cases, one-shot and streamed, match b3sum, b2sum and "
              "hashlib")
    return failures


def fresh_folder(args, name):
    """A new empty folder of the scratch project, for one test."""
    folder = os.path.join(args.project, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def run(command, cwd, timeout=60, **kwargs):
    print("+", " ".join(command), flush=True)
    return subprocess.run(command, cwd=cwd, timeout=timeout, text=True, **kwargs)


def install(args):
    shutil.rmtree(args.project, ignore_errors=True)
    os.makedirs(args.project)
    cache = os.path.join(args.project, ".npm-cache")
    npm_options = ["--offline", "--no-audit", "--no-fund", "--no-update-notifier",
                   f"--cache={cache}"]
    packed = run([args.npm, "pack", "--json", f"--pack-destination={args.project}", *npm_options],
                 cwd=args.package, capture_output=True)
    if packed.returncode != 0:
        return [f"npm pack failed:\n{packed.stdout}{packed.stderr}"]
    listing = json.loads(packed.stdout)[0]
    failures = []
    tarball = f"fastblake-{args.version}.tgz"
    if listing["filename"] != tarball:
        failures.append(f"npm pack made {listing['filename']}, not {tarball}")
    shipped = sorted(f["path"] for f in listing["files"])
    if shipped != SHIPPED:
        failures.append(f"the tarball holds {shipped}, not {SHIPPED}")
    # The user's project: an ES module package of its own, which installs the tarball.
    with open(os.path.join(args.project, "package.json"), "w") as f:
        json.dump({"name": "fastblake-consumer", "private": True, "type": "module"}, f)
    installed = run([args.npm, "install", *npm_options, f"./{listing['filename']}"],
                    cwd=args.project)
    if installed.returncode != 0:
        failures.append("npm install of the tarball failed")
    return failures


def node(args):
    folder = fresh_folder(args, "node")
    for name in ("npm_node_consumer.mjs", "npm_digests.mjs"):
        shutil.copy(os.path.join(HERE, name), folder)
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump(cases(), f)
    out = run([args.node, "npm_node_consumer.mjs", "cases.json"], cwd=folder, capture_output=True)
    if out.returncode != 0:
        return [f"the Node.js consumer failed:\n{out.stdout}{out.stderr}"]
    report = json.loads(out.stdout)
    failures = check_report(args, report, folder, "Node.js")
    if report["packageVersion"] != args.version:
        failures.append(f"package.json's version is {report['packageVersion']!r}, "
                        f"config.hpp says {args.version!r}")
    return failures


def require(args):
    folder = fresh_folder(args, "require")
    shutil.copy(os.path.join(HERE, "require_test.cjs"), folder)
    out = run([args.node, "--test", "require_test.cjs"], cwd=folder)
    return [] if out.returncode == 0 else ["require_test.cjs failed"]


def typescript(args):
    folder = fresh_folder(args, "typescript")
    for name in ("consumer.ts", "consumer.cts"):
        shutil.copy(os.path.join(HERE, name), folder)
    # Strict, and no library beyond ES2020 (what fastblake.d.ts says it needs) and no
    # @types/node: a declaration leaning on more fails here.
    config = {"compilerOptions": {"strict": True, "target": "es2022", "lib": ["es2020"],
                                  "module": "node16", "moduleResolution": "node16",
                                  "types": [], "noEmitOnError": True, "outDir": "out"},
              "files": ["consumer.ts", "consumer.cts"]}
    with open(os.path.join(folder, "tsconfig.json"), "w") as f:
        json.dump(config, f)
    if run([args.tsc, "-p", "tsconfig.json"], cwd=folder).returncode != 0:
        return ["tsc refused the consumers"]
    failures = []
    for program in ("out/consumer.js", "out/consumer.cjs"):
        if run([args.node, program], cwd=folder).returncode != 0:
            failures.append(f"{program}, compiled by tsc, failed")
    return failures


class Server(http.server.ThreadingHTTPServer):
    """Serves the scratch project from 127.0.0.1 and keeps the first report POSTed."""

    def __init__(self, root):
        self.root = root
        self.report = None
        self.reported = threading.Event()
        self.log = []
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(http.server.SimpleHTTPRequestHandler):
    # Browsers run a module only when it comes as JavaScript.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".json": "application/json",
                      ".html": "text/html"}

    def __init__(self, request, client_address, server):
        super().__init__(request, client_address, server, directory=server.root)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()
        if self.path == "/report" and not self.server.reported.is_set():
            self.server.report = json.loads(body)
            self.server.reported.set()

    def log_message(self, format, *log_args):
        self.server.log.append(format % log_args)


def browser(args):
    folder = fresh_folder(args, "browser")
    shutil.copy(os.path.join(HERE, "npm_browser.html"), os.path.join(folder, "index.html"))
    shutil.copy(os.path.join(HERE, "npm_digests.mjs"), folder)
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump(cases(), f)
    server = Server(args.project)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/browser/index.html"
    profile = tempfile.mkdtemp(prefix="fastblake-chromium-")
    # Root needs --no-sandbox; a container's small /dev/shm, --disable-dev-shm-usage.
    command = [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
               "--disable-extensions", "--disable-background-networking",
               f"--user-data-dir={profile}", url]
    print("+", " ".join(command), flush=True)
    log = tempfile.TemporaryFile()
    started = time.monotonic()
    browser_process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
    try:
        while not server.reported.wait(0.2):
            if browser_process.poll() is not None or time.monotonic() - started > 25:
                break
    finally:
        if browser_process.poll() is None:
            os.killpg(browser_process.pid, signal.SIGTERM)
            try:
                browser_process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(browser_process.pid, signal.SIGKILL)
                browser_process.wait()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    if server.report is None:
        log.seek(0)
        output = log.read().decode("utf-8", "replace")[-4000:]
        why = (f"Chromium exited with status {browser_process.returncode}"
               if browser_process.returncode not in (None, -signal.SIGTERM, -signal.SIGKILL)
               else "no report within 25 s")
        return [f"Chromium did not report the page's digests ({why}). Its output:\n{output}\n"
                "Requests served:\n" + "\n".join(server.log)]
    print(f"Chromium reported after {time.monotonic() - started:.1f} s", flush=True)
    return check_report(args, server.report, folder, "Chromium")


def main():
    parser = argparse.ArgumentParser()
    for option in ("package", "project", "version", "node", "npm", "b3sum", "b2sum", "tsc",
                   "chromium"):
        parser.add_argument(f"--{option}")
    parser.add_argument("step", choices=("install", "node", "require", "typescript", "browser"))
    args = parser.parse_args()
    args.package, args.project = os.path.abspath(args.package), os.path.abspath(args.project)
    failures = globals()[args.step](args)
    for failure in failures:
        print("FAILED:", failure, file=sys.stderr)
    if not failures:
        print(f"{args.step}: passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Mutation campaign: applies each mutant of tests/mutants.txt to a copy of
the committed tree, rebuilds (two jobs), runs the test suite and reports which
mutants the suite kills.

    tools/mutate.sh [--only ID[,ID...]] [--report FILE] [--keep DIR]
                    [--timeout-multiplier X] [--first-only] [--sanitize]

A mutant is a one-line change that looks like a real bug. It is *killed*
when at least one test fails (or times out); it *survives* when the whole
suite passes. A mutant whose text is not found exactly once, or whose
build fails, is an error of the list, reported and not counted.

The format test is left out (a mutant is a bug, not a style change). The
copy is taken with `git archive HEAD` (uncommitted changes are not
mutated) and built once in release mode (with --sanitize: under ASan and
UBSan, as tools/run-tests.sh --sanitize, for mutants whose bug is a memory
error that a release build may not notice). The campaign runs in two phases:

1. Each mutant with a `first:` field (meson test names, the tests most
   likely to notice it) is built (only what those tests run) and those
   tests alone are run, after the same tests have passed on the unmutated
   copy. A failure there is a kill
   of the suite (the suite holds those tests).
2. Only the mutants that survive phase 1, and those without `first:`, need
   the whole suite: the unmutated suite is run once, then each of them is
   rebuilt and run against the whole suite, which meson stops at the first
   failure (--maxfail 1).

With --first-only the campaign stops after phase 1 and reports the
mutants it did not kill as undecided (not counted).

Source-file mutants go before header mutants in each phase (a header
mutant rebuilds the whole tree, twice: mutated and restored; with ccache
installed, meson uses it and the restoring build is mostly cache hits). Not run in
CI: a full campaign takes about an hour on two cores. docs/testing.md
records the latest result.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

FIELDS = ("id", "file", "old", "new", "why")
OPTIONAL = ("first",)  # meson test names run before the whole suite


def parse(path):
    """Blocks of 'key: value' lines separated by blank lines; '#' comments."""
    mutants, cur = [], {}
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                if cur:
                    mutants.append(cur)
                    cur = {}
                continue
            key, sep, value = line.partition(": ")
            if not sep or key not in FIELDS + OPTIONAL:
                sys.exit(f"{path}:{lineno}: expected one of "
                         f"{', '.join(FIELDS + OPTIONAL)} then ': '")
            if key in cur:
                sys.exit(f"{path}:{lineno}: '{key}' given twice in one mutant")
            cur[key] = value
    if cur:
        mutants.append(cur)
    seen = set()
    for m in mutants:
        missing = [k for k in FIELDS if k not in m]
        if missing:
            sys.exit(f"{path}: mutant {m.get('id', '?')}: missing {', '.join(missing)}")
        if m["id"] in seen:
            sys.exit(f"{path}: mutant id {m['id']} repeated")
        if m["old"] == m["new"]:
            sys.exit(f"{path}: mutant {m['id']}: old and new are the same")
        seen.add(m["id"])
    return mutants


def run(cmd, cwd, log, timeout=None):
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return -1


def first_failure(build):
    """Name of the first test meson's log records as failed, with
    '(timeout)' when it ran out of time (a suspect kill under load), or ''."""
    log = os.path.join(build, "meson-logs", "testlog.json")
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                result = entry.get("result")
                if result not in ("OK", "SKIP", "EXPECTEDFAIL"):
                    name = entry.get("name", "")
                    return f"{name} (timeout)" if result == "TIMEOUT" else name
    except OSError:
        pass
    return ""


# tools/run-tests.sh's options: warnings are errors, as in the project's own
# builds, so a mutant the compiler refuses "does not build" (an error of the
# list, not a survivor the tests must catch)
RELEASE = ["--werror", "-Dbuildtype=release"]
# tools/run-tests.sh --sanitize's options and environment
SANITIZE = ["--werror", "-Dbuildtype=debug", "-Db_sanitize=address,undefined", "-Db_lundef=false",
            "-Dc_args=-fno-sanitize-recover=all", "-Dcpp_args=-fno-sanitize-recover=all"]


def sanitizer_env(src):
    """The sanitizers' options, inherited by every test run."""
    os.environ["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1"
    os.environ["LSAN_OPTIONS"] = f"suppressions={src}/tests/lsan.supp:print_suppressions=0"
    os.environ["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"


class Campaign:
    """The mutated copy: builds it and runs tests on it."""

    def __init__(self, src, build, log, timeout_multiplier):
        self.src, self.build, self.log = src, build, log
        self.timeout_multiplier = timeout_multiplier

    def rebuild(self, names=()):
        """ninja on the whole copy, or only on what the named tests run."""
        return run(["ninja", "-C", self.build, "-j2", *self.targets(names)], self.src, self.log)

    def targets(self, names):
        """ninja targets of the named tests: their programs and what they
        depend on (the library, the mcdyn program), from meson's introspection."""
        if not names:
            return []
        def introspect(what):
            out = subprocess.run(["meson", "introspect", self.build, what],
                                 capture_output=True, text=True, check=True).stdout
            return json.loads(out)
        targets = introspect("--targets")
        files = {t["id"]: t["filename"] for t in targets}
        # the mcdyn program, which tests may run through MCDYN_EXE
        wanted = {f for t in targets if t["name"] == "mcdyn" for f in t["filename"]}
        for t in introspect("--tests"):
            if t["name"] in names:
                wanted.update(f for i in t["depends"] for f in files.get(i, []))
        return sorted(os.path.relpath(f, self.build) for f in wanted)

    def test(self, names, multiplier, extra=()):
        """meson test on the built copy: the named tests, or the whole
        suite less the format test when names is empty."""
        cmd = ["meson", "test", "-C", self.build, "--no-rebuild", "--num-processes", "2",
               "--timeout-multiplier", str(multiplier), *extra]
        cmd += list(names) if names else ["--no-suite", "format"]
        return run(cmd, self.src, self.log, timeout=3600)

    def baseline(self, names):
        """The unmutated copy must pass, or every mutant would count as killed."""
        what = " ".join(names) if names else "the whole suite"
        print(f"unmutated: {what}", flush=True)
        if self.test(names, max(1.0, self.timeout_multiplier)) != 0:
            sys.exit(f"the unmutated copy fails ({first_failure(self.build)}): {self.log}")

    def mutant(self, m, names, k, total):
        """Applies m, rebuilds, runs the named tests (or the whole suite),
        restores the file; returns (outcome, detail)."""
        path = os.path.join(self.src, m["file"])
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            return "error", f"cannot read {m['file']}: {e.strerror}"
        count = text.count(m["old"])
        if count != 1:
            print(f"[{k}/{total}] {m['id']}: ERROR ('old' found {count} times)", flush=True)
            return "error", f"'old' found {count} times in {m['file']}"
        t0 = time.time()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(m["old"], m["new"]))
        try:
            if self.rebuild(names) != 0:
                outcome, detail = "error", "does not build"
            else:
                rc = self.test(names, self.timeout_multiplier,
                               ("--maxfail", "1", "--print-errorlogs"))
                outcome = "killed" if rc != 0 else "survived"
                detail = first_failure(self.build) if rc != 0 else ""
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        scope = "first tests" if names else "whole suite"
        print(f"[{k}/{total}] {m['id']} ({scope}): {outcome.upper()} {detail} "
              f"({time.time() - t0:.0f} s)", flush=True)
        return outcome, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", default="tests/mutants.txt")
    ap.add_argument("--only", default="", help="comma-separated mutant ids")
    ap.add_argument("--report", default="", help="write a Markdown table here")
    ap.add_argument("--keep", default="", help="work in this directory and keep it")
    ap.add_argument("--timeout-multiplier", type=float, default=0.5,
                    help="meson's multiplier of the tests' timeouts for the mutated runs "
                         "(0.5 ends a mutant that loops forever sooner; raise it on a loaded "
                         "machine, where a kill by timeout is suspect)")
    ap.add_argument("--first-only", action="store_true",
                    help="phase 1 only: a mutant its first tests do not kill is reported "
                         "'undecided' and not counted (for a loaded machine)")
    ap.add_argument("--sanitize", action="store_true",
                    help="build the copy with AddressSanitizer and UndefinedBehaviorSanitizer, "
                         "as tools/run-tests.sh --sanitize does (a memory error is a failure)")
    args = ap.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    mutants = parse(os.path.join(root, args.list))
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {m["id"] for m in mutants}
        if unknown:
            sys.exit(f"unknown mutant ids: {', '.join(sorted(unknown))}")
        mutants = [m for m in mutants if m["id"] in wanted]
    work = args.keep or tempfile.mkdtemp(prefix="mcdyn-mutate-")
    src = os.path.join(work, "src-tree")
    build = os.path.join(src, "build-mut-asan" if args.sanitize else "build-mut")
    log = os.path.join(work, "mutate.log")
    if not os.path.isdir(src):
        os.makedirs(src)
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=root, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    # ../shared beside the copy, as beside the checkout
    shared = os.path.join(os.path.dirname(root), "shared")
    if os.path.isdir(shared) and not os.path.exists(os.path.join(work, "shared")):
        os.symlink(shared, os.path.join(work, "shared"))
    # three.js for the replay page: the checkout's, as the build would fetch it
    modules = os.path.join(root, "tools", "viewer", "node_modules")
    if os.path.isdir(modules) and not os.path.exists(os.path.join(src, "tools", "viewer",
                                                                  "node_modules")):
        os.symlink(modules, os.path.join(src, "tools", "viewer", "node_modules"))
    if not os.path.isdir(build):
        if run(["meson", "setup", build, *(SANITIZE if args.sanitize else RELEASE)], src,
               log) != 0:
            sys.exit(f"meson setup failed: {log}")
    if args.sanitize:
        sanitizer_env(src)
    print(f"work directory {work}; log {log}", flush=True)
    mutants.sort(key=lambda m: m["file"].endswith(".h"))  # stable: headers last
    campaign = Campaign(src, build, log, args.timeout_multiplier)
    results = {}
    first = [m for m in mutants if m.get("first")]
    names = sorted({t for m in first for t in m["first"].split()})
    if campaign.rebuild(names) != 0:
        sys.exit(f"the unmutated tree does not build: {log}")
    if first:
        campaign.baseline(names)
        for k, m in enumerate(first, 1):
            outcome, detail = campaign.mutant(m, m["first"].split(), k, len(first))
            if outcome != "survived":
                results[m["id"]] = (m, outcome, detail)
    rest = [m for m in mutants if m["id"] not in results]
    if args.first_only:
        results.update((m["id"], (m, "undecided", "not killed by its first tests")) for m in rest)
        rest = []
    if rest:
        if campaign.rebuild() != 0:
            sys.exit(f"the unmutated tree does not build: {log}")
        campaign.baseline([])
        for k, m in enumerate(rest, 1):
            results[m["id"]] = (m, *campaign.mutant(m, [], k, len(rest)))
    results = [results[m["id"]] for m in mutants]
    # leave the copy built unmutated: what phase 2 built, or only the first
    # tests' programs when phase 2 did not run (not the whole tree again)
    campaign.rebuild(() if rest else names)
    counted = [r for r in results if r[1] not in ("error", "undecided")]
    killed = sum(1 for r in counted if r[1] == "killed")
    errors = [r for r in results if r[1] == "error"]
    rate = 100.0 * killed / len(counted) if counted else 0.0
    print(f"\n{killed} of {len(counted)} mutants killed ({rate:.1f} %); "
          f"{len(errors)} errors in the list")
    for m, outcome, detail in results:
        if outcome != "killed":
            print(f"  {outcome}: {m['id']} ({m['file']}) {detail}")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(f"| mutant | file | outcome | first failing test |\n|---|---|---|---|\n")
            for m, outcome, detail in results:
                f.write(f"| {m['id']} | `{m['file']}` | {outcome} | {detail} |\n")
            f.write(f"\n{killed} of {len(counted)} killed ({rate:.1f} %), "
                    f"{time.strftime('%Y-%m-%d')}\n")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

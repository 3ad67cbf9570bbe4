#!/usr/bin/env bash
# What a new user does, checked: clone the repository, install from the
# lockfile, run every command with its default flags, and expect (1) the
# published comparison in the bench's output and (2) a clean `git status`
# after each command: every command writes under the git-ignored
# results/runs/ (or results/site/, profiles/<commit>/) unless told otherwise
# (`--out`, `bench --commit-results`, `conformance --commit-results`,
# `sweep --commit-results`, `gate --update-baseline`).
#
#   scripts/ci/fresh-clone-check.sh [--quick]
#
# The commands: bench (the full run; skipped with --quick, which CI passes to
# stay within its budget), bench --quick, conformance, sweep --quick, compare
# (--merge-base HEAD HEAD, as the pull-request workflow runs it, structural lane: the lane that needs no valgrind and no
# timing), report, history, demo, and the --target forms of docs/targets.md
# (bench, conformance and compare against the SDK fixture server).
set -euo pipefail
quick=false
if [ "${1:-}" = "--quick" ]; then quick=true; fi
source_repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$source_repo" "$work/costlab"
cd "$work/costlab"
echo "fresh-clone-check: cloned $(git rev-parse --short HEAD) into a temporary directory"
npm ci --no-audit --no-fund --loglevel=error

# Runs one command and fails the check when it leaves the clone dirty.
clean_after() {
  local started=$SECONDS
  "$@" > "$work/step.out" 2> "$work/step.err" || {
    local code=$?
    echo "fresh-clone-check: FAILED: '$*' exited $code" >&2
    tail -20 "$work/step.err" >&2
    exit 1
  }
  if [ -n "$(git status --porcelain)" ]; then
    echo "fresh-clone-check: FAILED: '$*' left the clone dirty:" >&2
    git status --short >&2
    exit 1
  fi
  echo "fresh-clone-check: clean after: $* ($((SECONDS - started)) s)"
}

costlab=(node bin/costlab.mjs)
fixture="stdio:node test/fixtures/targets/sdk-tools-server.mjs"

if [ "$quick" = false ]; then
  clean_after npm run --silent bench
  cp "$work/step.out" "$work/bench.out"
fi
clean_after npm run --silent bench -- --quick
if [ "$quick" = true ]; then cp "$work/step.out" "$work/bench.out"; fi
# One world prints "beside the published figures (<source>)"; both worlds print
# "the published figures: <source>" above their table. Either names the source.
if ! grep -Eq '^  (beside the published figures \(|the published figures: )reference/anchor-figures\.json' "$work/bench.out"; then
  echo "fresh-clone-check: FAILED: the bench did not print the published comparison" >&2
  exit 1
fi

clean_after "${costlab[@]}" conformance
clean_after "${costlab[@]}" sweep --quick
clean_after "${costlab[@]}" compare --merge-base HEAD HEAD --lanes structural
clean_after "${costlab[@]}" report
clean_after "${costlab[@]}" history
clean_after "${costlab[@]}" demo
clean_after "${costlab[@]}" bench --target "$fixture {n}" --config examples/costlab.config.json --samples 5 --cold-runs 1
clean_after "${costlab[@]}" conformance --target "$fixture 20" --config examples/costlab.config.json
clean_after "${costlab[@]}" compare --target "$fixture 10" --target "$fixture 10" --rounds 2

echo "fresh-clone-check: the published comparison was printed and git status is clean after every command"

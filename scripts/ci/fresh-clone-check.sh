#!/usr/bin/env bash
# What a new user does, checked: clone the repository, install from the
# lockfile, run the bench, and expect (1) the published comparison in its
# output and (2) a clean `git status` afterwards. Extra arguments go to the
# bench (CI passes --quick to stay within its budget; the default run writes
# to the same git-ignored place).
#
#   scripts/ci/fresh-clone-check.sh [bench args…]
set -euo pipefail
source_repo="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$source_repo" "$work/costlab"
cd "$work/costlab"
echo "fresh-clone-check: cloned $(git rev-parse --short HEAD) into a temporary directory"
npm ci --no-audit --no-fund --loglevel=error
npm run --silent bench -- "$@" | tee "$work/bench.out"

if ! grep -q '^  beside the published figures (reference/anchor-figures.json)' "$work/bench.out"; then
  echo "fresh-clone-check: FAILED: the bench did not print the published comparison" >&2
  exit 1
fi
if [ -n "$(git status --porcelain)" ]; then
  echo "fresh-clone-check: FAILED: the bench left the clone dirty:" >&2
  git status --short >&2
  exit 1
fi
echo "fresh-clone-check: the published comparison was printed and git status is clean"

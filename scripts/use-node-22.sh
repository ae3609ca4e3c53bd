# Source it (`. scripts/use-node-22.sh`, bash): when the `node` on PATH is older than package.json's
# engines.node (22.18), installs the npm registry's `node` package (22.x) into NODE22_PREFIX, once, and
# puts it first on this shell's PATH, so pnpm, tsx, vitest and every child process run on it.
# .ci/run does this before anything else; a developer with an older Node may do the same.

if ! (return 0 2>/dev/null); then
  echo "source this file instead: . $0" >&2
  exit 2
fi

NODE22_PREFIX="${NODE22_PREFIX:-$HOME/.cache/ci-node22}"

# True when the given node binary is at least 22.18.
node_is_recent() {
  "$1" -e 'const [major, minor] = process.versions.node.split(".").map(Number);
    process.exit(major > 22 || (major === 22 && minor >= 18) ? 0 : 1)' 2>/dev/null
}

if ! node_is_recent node; then
  if ! node_is_recent "$NODE22_PREFIX/node_modules/.bin/node"; then
    echo "node $(node --version 2>/dev/null || echo 'not found') is older than 22.18: installing node@22 into $NODE22_PREFIX" >&2
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$NODE22_PREFIX" node@22 || return 1
  fi
  export PATH="$NODE22_PREFIX/node_modules/.bin:$PATH"
  hash -r
  node_is_recent node || { echo "node@22 from the npm registry did not start" >&2; return 1; }
fi
unset -f node_is_recent

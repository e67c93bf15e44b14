#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (22, 24), fetched once from the npm registry (which
# serves Node binaries as the node-<os>-<arch> packages) into the ignored .cache/node/<major>. Exit 3 with the reason on
# stderr when it cannot be fetched (registry unreachable), exit 2 on bad usage.
set -euo pipefail
major="${1:?usage: node-binary.sh <major version>}"
case "$major" in ''|*[!0-9]*) echo "node-binary.sh: not a major version: $major" >&2; exit 2 ;; esac
root="$(cd "$(dirname "$0")/.." && pwd)"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
pkg="node-$os-$arch"
dir="$root/.cache/node/$major"
bin="$dir/node_modules/$pkg/bin/node"
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  # --ignore-scripts: the package's own install script only re-links the binary; bin/node is in the tarball.
  if ! out="$(npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
      --fetch-timeout=30000 --fetch-retries=1 "$pkg@$major" 2>&1)"; then
    echo "node-binary.sh: could not fetch $pkg@$major from the npm registry: $(printf '%s' "$out" | grep -m1 -i 'err' || printf '%s' "$out" | tail -n1)" >&2
    exit 3
  fi
fi
if [ ! -x "$bin" ]; then echo "node-binary.sh: $pkg@$major installed but $bin is missing" >&2; exit 3; fi
printf '%s\n' "$bin"

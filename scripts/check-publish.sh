#!/usr/bin/env bash
# The publishing checks (npm run check:publish; .ci/run runs it after the build):
#   - the GitHub workflow files against GitHub's workflow schema (@action-validator/cli),
#     and the steps they must keep (the publish guard's trigger, id-token, release check; the
#     canary's schedule, its choice of n8n, install and suites, each suite it names existing);
#   - scripts/release-check.mjs: accepts this repository and tag, refuses another of either;
#   - the packed tarball: only dist/, README.md, LICENSE.md and package.json; no tests, no
#     source maps, no TypeScript sources; every node and credential file package.json names;
#     its size within bounds;
#   - a plain `npm publish --dry-run` refused by the publish guard;
#   - the release's publish (`n8n-node release` in GitHub Actions runs lint, build, then
#     `npm publish` with RELEASE_MODE=true and NPM_CONFIG_PROVENANCE=true): that same
#     publish, with --dry-run, packs the same files. Lint and build are CI's own steps; the
#     whole `GITHUB_ACTIONS=true npm_config_dry_run=true npm run release` also works, in
#     about 2 minutes.
# Prints `N passed, N failed` last.
set -uo pipefail
cd "$(dirname "$0")/.."

VALIDATOR_VERSION=0.6.0
MAX_PACKED=300000   # bytes; 0.1.0 packs to about 127 kB
MAX_UNPACKED=1200000 # bytes; 0.1.0 unpacks to about 460 kB
GUARD_MESSAGE='Run `npm run release` to publish the package'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "  ok   $*"; }
fail() { failed=$((failed + 1)); echo "  FAIL $*"; }

echo "workflow files against GitHub's workflow schema"
if [ -x node_modules/.bin/action-validator ]; then
  validator=(node_modules/.bin/action-validator)
else
  echo "  (@action-validator/cli is not installed: using npx @action-validator/cli@$VALIDATOR_VERSION)"
  validator=(npx --yes "@action-validator/cli@$VALIDATOR_VERSION")
fi
for file in .github/workflows/ci.yml .github/workflows/publish.yml .github/workflows/n8n-canary.yml; do
  if [ ! -f "$file" ]; then fail "$file is missing"; continue; fi
  if "${validator[@]}" "$file" >"$tmp/validate.log" 2>&1; then ok "$file is a valid workflow"
  else fail "$file does not match the workflow schema:"; sed 's/^/       /' "$tmp/validate.log" | head -40; fi
done
# What the schema cannot tell: the parts n8n's verification and this package rely on.
expect() { # expect <file> <what> <extended regex>
  if grep -Eq -- "$3" "$1"; then ok "$1: $2"; else fail "$1: $2 (no line matches /$3/)"; fi
}
expect .github/workflows/ci.yml 'runs on pull requests' '^  pull_request:'
expect .github/workflows/ci.yml 'runs on pushes to main' '^      - main$'
expect .github/workflows/ci.yml 'has a concurrency group' '^concurrency:'
expect .github/workflows/ci.yml 'runs .ci/run' 'run: bash \.ci/run$'
expect .github/workflows/publish.yml 'runs on version tags' "^      - '\\*\\.\\*\\.\\*'$"
expect .github/workflows/publish.yml 'may mint the OIDC token (id-token: write)' '^      id-token: write$'
expect .github/workflows/publish.yml 'checks repository and tag before publishing' 'run: node scripts/release-check\.mjs "\$GITHUB_REPOSITORY" "\$GITHUB_REF_NAME"$'
expect .github/workflows/publish.yml 'publishes with npm run release' '^        run: npm run release$'
expect .github/workflows/publish.yml 'falls back to the NPM_TOKEN secret' 'NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}'
canary=.github/workflows/n8n-canary.yml
expect $canary 'runs on a schedule' "^    - cron: '[0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+ [0-9*/,-]+'$"
expect $canary 'can be run by hand' '^  workflow_dispatch:'
expect $canary 'only reads the repository' '^  contents: read$'
expect $canary 'chooses the newest installable n8n' 'npx ts-node --transpile-only scripts/newest-installable-n8n\.ts --tries [0-9]+$'
expect $canary 'checks a version asked for' 'scripts/newest-installable-n8n\.ts --check "\$REQUESTED"$'
expect $canary 'installs it with install-n8n.sh canary' 'run: bash scripts/install-n8n\.sh canary "\$N8N_CANARY_VERSION"$'
expect $canary "checks the contract's citations there" 'run: npx jest test/trigger/n8n-contract\.test\.ts$'
expect $canary 'runs the e2e suites on the canary' 'run: npm run e2e -- --n8n canary'
# Each suite the canary names is one suite file (a renamed suite would drop out silently).
only=$(sed -n 's/^ *E2E_ONLY: *//p' $canary)
if [ -z "$only" ]; then fail "$canary: no E2E_ONLY line"; fi
IFS=',' read -ra texts <<<"$only"
for text in "${texts[@]}"; do
  count=$(find test/e2e/suites -maxdepth 1 -name '*.ts' | sed 's#.*/##' | grep -cF -- "$text" || true)
  if [ "$count" -eq 1 ]; then ok "$canary: E2E_ONLY $text selects one suite"
  else fail "$canary: E2E_ONLY $text selects $count suites of test/e2e/suites (one expected)"; fi
done
if grep -Eq 'n8n-canary|--n8n canary' .github/workflows/ci.yml .ci/run; then fail "CI's own run does not run the canary (its time is near the limit)"
else ok "CI's own run does not run the canary"; fi

echo "package metadata n8n's verification reads"
node -e '
const p = require("./package.json");
const fs = require("fs");
const line = (ok, text) => console.log(`${ok ? "ok" : "FAIL"} ${text}`);
line(!p.dependencies || Object.keys(p.dependencies).length === 0, `no runtime dependencies (${Object.keys(p.dependencies || {}).join(", ") || "none"})`);
line(p.license === "MIT" && /^MIT License/m.test(fs.readFileSync("LICENSE.md", "utf8")), `licence MIT (package.json ${p.license}, LICENSE.md)`);
line(/^(@[^/]+\/)?n8n-nodes-/.test(p.name) && (p.keywords || []).includes("n8n-community-node-package"), "name n8n-nodes-..., keyword n8n-community-node-package");
line(p.scripts.prepublishOnly === "n8n-node prerelease" && p.scripts.release === "n8n-node release", "prepublishOnly: n8n-node prerelease, release: n8n-node release");
line(p.publishConfig && p.publishConfig["ignore-scripts"] === false && /publish-guard/.test(p.scripts.prepack || ""), "the guard also runs as prepack during npm publish (publishConfig ignore-scripts: false)");
' >"$tmp/meta.log" 2>&1 || echo "FAIL reading package.json: $(cat "$tmp/meta.log")" >>"$tmp/meta.log"
while read -r status text; do
  if [ "$status" = ok ]; then ok "$text"; else fail "$text"; fi
done <"$tmp/meta.log"

echo "release check (scripts/release-check.mjs)"
read -r repo version < <(node -e '
const p = require("./package.json");
const m = /github\.com[/:]([^/]+\/[^/#?]+?)(?:\.git)?$/i.exec(p.repository && p.repository.url || "");
console.log(m ? m[1] : "none", p.version)')
if node scripts/release-check.mjs "$repo" "$version" >"$tmp/rc.log" 2>&1; then ok "accepts $repo at tag $version"
else fail "refuses its own repository $repo at tag $version:"; sed 's/^/       /' "$tmp/rc.log"; fi
if node scripts/release-check.mjs "$repo" "v$version" >"$tmp/rc.log" 2>&1; then ok "accepts the tag v$version"
else fail "refuses the tag v$version:"; sed 's/^/       /' "$tmp/rc.log"; fi
if ! node scripts/release-check.mjs "someone-else/$(basename "$repo")" "$version" >"$tmp/rc.log" 2>&1 && grep -q 'repository.url is .* which is not https://github.com/someone-else/' "$tmp/rc.log"; then
  ok "refuses a fork: $(head -1 "$tmp/rc.log")"
else fail "does not refuse another repository:"; sed 's/^/       /' "$tmp/rc.log"; fi
if ! node scripts/release-check.mjs "$repo" "9.9.9" >"$tmp/rc.log" 2>&1 && grep -q "tag 9.9.9 is not package.json's version" "$tmp/rc.log"; then
  ok "refuses another tag: $(head -1 "$tmp/rc.log")"
else fail "does not refuse the tag 9.9.9:"; sed 's/^/       /' "$tmp/rc.log"; fi

echo "packed tarball (npm pack --dry-run)"
[ -d dist ] || npm run build >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "npm run build failed"; }
if npm pack --dry-run --json >"$tmp/pack.json" 2>"$tmp/pack.err"; then
  node - "$tmp/pack.json" "$MAX_PACKED" "$MAX_UNPACKED" >"$tmp/pack.log" <<'NODE'
const [file, maxPacked, maxUnpacked] = process.argv.slice(2);
const [pack] = JSON.parse(require('fs').readFileSync(file, 'utf8'));
const pkg = require('./package.json');
const paths = pack.files.map((f) => f.path);
const line = (ok, text) => console.log(`${ok ? 'ok' : 'FAIL'} ${text}`);
const top = new Set(['package.json', 'README.md', 'LICENSE.md']);
const shipped = /^dist\/.+\.(js|d\.ts|json|svg|png)$/;
const stray = paths.filter((p) => !top.has(p) && !shipped.test(p));
line(stray.length === 0, stray.length ? `files outside dist/, README, LICENSE, package.json: ${stray.join(', ')}` : `${paths.length} files, all in dist/ or README.md, LICENSE.md, package.json`);
for (const name of top) line(paths.includes(name), `${name} is packed`);
const tests = paths.filter((p) => /(^|\/)(test|tests|__tests__|e2e)\/|\.(test|spec)\.|\.map$|\.tsbuildinfo$|(?<!\.d)\.ts$/.test(p));
line(tests.length === 0, tests.length ? `tests, maps or sources packed: ${tests.join(', ')}` : 'no tests, source maps or TypeScript sources');
const declared = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
const missing = declared.filter((p) => !paths.includes(p));
line(missing.length === 0, missing.length ? `package.json's n8n entries not packed: ${missing.join(', ')}` : `the ${declared.length} node and credential files package.json names are packed`);
line(pack.size <= Number(maxPacked), `packed size ${pack.size} bytes (at most ${maxPacked})`);
line(pack.unpackedSize <= Number(maxUnpacked), `unpacked size ${pack.unpackedSize} bytes (at most ${maxUnpacked})`);
NODE
  while read -r status text; do
    if [ "$status" = ok ]; then ok "$text"; else fail "$text"; fi
  done <"$tmp/pack.log"
  node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])) [0].files.map(f => f.path).sort().join("\n"))' "$tmp/pack.json" >"$tmp/pack.files"
else
  fail "npm pack --dry-run failed:"; sed 's/^/       /' "$tmp/pack.err" | tail -20
fi

echo "a plain npm publish --dry-run"
env -u RELEASE_MODE npm publish --dry-run >"$tmp/plain.log" 2>&1
status=$?
if [ "$status" -ne 0 ] && grep -qF "$GUARD_MESSAGE" "$tmp/plain.log"; then
  ok "refused (exit $status) with the guard's message: $GUARD_MESSAGE"
else
  fail "not refused by the guard (exit $status):"; grep -v '^npm notice [0-9]' "$tmp/plain.log" | sed 's/^/       /' | tail -20
fi

echo "the release's publish, dry run (RELEASE_MODE=true NPM_CONFIG_PROVENANCE=true npm publish --dry-run)"
RELEASE_MODE=true NPM_CONFIG_PROVENANCE=true npm publish --dry-run --json >"$tmp/release.json" 2>"$tmp/release.err"
status=$?
if [ "$status" -eq 0 ]; then
  ok "passes the guard and would publish (exit 0)"
  # npm prints the lifecycle scripts' output before the JSON.
  node -e '
const text = require("fs").readFileSync(process.argv[1], "utf8");
const json = JSON.parse(text.slice(text.indexOf("{")));
const files = (json.files || (json[Object.keys(json)[0]] || {}).files).map(f => f.path);
console.log(files.sort().join("\n"));' "$tmp/release.json" >"$tmp/release.files" 2>"$tmp/release.parse" || true
  if [ -s "$tmp/release.files" ] && [ -f "$tmp/pack.files" ] && cmp -s "$tmp/pack.files" "$tmp/release.files"; then
    ok "it packs the $(wc -l <"$tmp/release.files") files checked above"
  else
    fail "its files differ from npm pack's:"; diff "$tmp/pack.files" "$tmp/release.files" 2>&1 | head -20 | sed 's/^/       /'; cat "$tmp/release.parse"
  fi
else
  fail "refused (exit $status):"; tail -20 "$tmp/release.err" | sed 's/^/       /'
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Installs the real agents that tests/agents_*.rs drive, each pinned, each from npm into its own
# folder: ${GATE_AGENTS_DIR:-$REPO/target/agents}/<name>. Idempotent: an agent whose folder
# already holds the pinned version (and its command) is left alone, so a machine that has them
# downloads nothing. Prints one line per agent: name, package@version, what it did, size, time.
#
#   .ci/agents.sh            install (or check) every agent
#   .ci/agents.sh pi codex   only these
#
# The pins come from /work/shared/realclients/*.md (measured offline there); the tests read the
# same folder names (tests/agents/mod.rs), so keep the two tables in step.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
DIR=${GATE_AGENTS_DIR:-$REPO/target/agents}

# name  package  version  command (in node_modules/.bin)
AGENTS=(
  "claude-code  @anthropic-ai/claude-code               2.1.197    claude"
  "pi           @mariozechner/pi-coding-agent           0.73.1     pi"
  "opencode     opencode-ai                             1.18.33    opencode"
  "gemini       @google/gemini-cli                      0.61.0     gemini"
  "codex-acp    @zed-industries/codex-acp               0.16.0     codex-acp"
  "codex        @openai/codex                           0.169.0    codex"
  "mcp-filesystem @modelcontextprotocol/server-filesystem 2026.8.31 mcp-server-filesystem"
)

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "agents.sh: $tool is required" >&2; exit 1; }
done
mkdir -p "$DIR"

# The version npm recorded for PKG under PREFIX, or nothing.
installed_version() {
  local pj="$1/node_modules/$2/package.json"
  [ -f "$pj" ] && node -e 'process.stdout.write(String(require(process.argv[1]).version||""))' "$pj" 2>/dev/null || true
}

wanted=("$@")
failed=0
for row in "${AGENTS[@]}"; do
  read -r name pkg version bin <<<"$row"
  if [ ${#wanted[@]} -gt 0 ] && [[ " ${wanted[*]} " != *" $name "* ]]; then
    continue
  fi
  prefix=$DIR/$name
  have=$(installed_version "$prefix" "$pkg")
  if [ "$have" = "$version" ] && [ -x "$prefix/node_modules/.bin/$bin" ]; then
    echo "agents: $name $pkg@$version already installed ($(du -sh "$prefix" | cut -f1)) in $prefix"
    continue
  fi
  [ -n "$have" ] && echo "agents: $name has $pkg@$have, want $version: reinstalling"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  start=$(date +%s)
  # A package.json of its own, so npm never walks up into the repository.
  echo '{"private":true}' >"$prefix/package.json"
  if npm install --no-audit --no-fund --no-update-notifier --loglevel=error \
    --prefix "$prefix" "$pkg@$version" >"$prefix/npm-install.log" 2>&1 \
    && [ "$(installed_version "$prefix" "$pkg")" = "$version" ] \
    && [ -x "$prefix/node_modules/.bin/$bin" ]; then
    echo "agents: $name $pkg@$version installed ($(du -sh "$prefix" | cut -f1), $(($(date +%s) - start)) s) in $prefix"
  else
    echo "agents: $name $pkg@$version FAILED to install; npm said:" >&2
    tail -n 20 "$prefix/npm-install.log" >&2 || true
    # Leave no half install that the version check could mistake for a good one.
    rm -rf "$prefix/node_modules"
    failed=1
  fi
done
exit $failed

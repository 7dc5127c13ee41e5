#!/usr/bin/env bash
# Builds celint from the action's checkout (GITHUB_ACTION_PATH) into
# RUNNER_TEMP and adds it to GITHUB_PATH. CELINT_VERSION, when set, is the
# version celint reports (the action's ref).
set -euo pipefail

bin="${RUNNER_TEMP:?RUNNER_TEMP is not set}/celint-action-bin"
mkdir -p "$bin"
ldflags=""
if [[ "${CELINT_VERSION:-}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]*)?$ ]]; then
	ldflags="-X main.version=${CELINT_VERSION}"
fi
cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is not set}"
go build -ldflags "$ldflags" -o "$bin/" ./cmd/celint
printf '%s\n' "$bin" >>"${GITHUB_PATH:?GITHUB_PATH is not set}"

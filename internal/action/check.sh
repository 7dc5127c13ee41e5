#!/usr/bin/env bash
# Runs celint check for the action: the findings as workflow commands on
# standard output (annotations), the SARIF log to INPUT_SARIF_FILE, and
# the outputs exit-code and sarif-file in GITHUB_OUTPUT. It exits 0
# whatever celint found, so that the log is uploaded; the action fails
# the job afterwards with exit-code.
#
# INPUT_PATHS holds the files, folders and globs to check, one a line
# (celint expands the globs itself; the shell never does).
set -euo pipefail

celint="${CELINT:-celint}"
sarif="${INPUT_SARIF_FILE-celint.sarif}"
if [[ "$sarif" == *[$'\r\n']* ]]; then
	echo "celint action: sarif-file must be one line" >&2
	exit 2
fi
args=(check --format github --fail-on "${INPUT_FAIL_ON:-error}")
if [[ -n "${INPUT_SPEC:-}" ]]; then
	args+=(--spec "$INPUT_SPEC")
fi
if [[ -n "${INPUT_CONFIG:-}" ]]; then
	args+=(--config "$INPUT_CONFIG")
fi
if [[ -n "$sarif" ]]; then
	args+=(--output "sarif=$sarif")
fi

paths=()
while IFS= read -r line || [[ -n "$line" ]]; do
	line="${line%$'\r'}"
	# Trim the blanks around a path; a line of blanks names nothing.
	line="${line#"${line%%[![:space:]]*}"}"
	line="${line%"${line##*[![:space:]]}"}"
	[[ -z "$line" ]] && continue
	# A path that starts with '-' is a path, not a flag (nor standard input).
	[[ "$line" == -* ]] && line="./$line"
	paths+=("$line")
done <<<"${INPUT_PATHS:-.}"
if [[ ${#paths[@]} -eq 0 ]]; then
	paths=(.)
fi

code=0
"$celint" "${args[@]}" "${paths[@]}" || code=$?

out="${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
printf 'exit-code=%d\n' "$code" >>"$out"
if [[ -n "$sarif" && -s "$sarif" ]]; then
	printf 'sarif-file=%s\n' "$sarif" >>"$out"
else
	printf 'sarif-file=\n' >>"$out"
fi

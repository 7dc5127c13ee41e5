// Package action holds the shell steps of celint's GitHub Action
// (action.yml at the repository's root), so that they can be run and
// tested outside a runner:
//
//   - build.sh builds celint from the action's own checkout with the Go
//     that actions/setup-go installed, and puts it on GITHUB_PATH;
//   - check.sh runs celint check on the action's inputs (INPUT_PATHS,
//     INPUT_SPEC, INPUT_CONFIG, INPUT_FAIL_ON, INPUT_SARIF_FILE), prints
//     the findings as workflow commands (--format github), which GitHub
//     shows as annotations, writes the SARIF log, and sets the step's
//     outputs exit-code and sarif-file in GITHUB_OUTPUT. It always
//     succeeds, so that the log is uploaded whatever was found; a later
//     step fails the job with the exit code.
//
// The inputs reach the scripts as environment variables, never as text
// spliced into a command, and the scripts print nothing of their own but
// celint's output.
package action

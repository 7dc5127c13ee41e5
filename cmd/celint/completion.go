package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// commands are celint's commands, for help and completion.
var commands = []string{"check", "fix", "migrate", "conformance", "rules", "explain", "docs", "diff-rules", "lsp", "serve", "version", "completion", "help"}

// flagCommands are the commands that take flags.
var flagCommands = []string{"check", "fix", "migrate", "conformance", "rules", "explain", "docs", "diff-rules", "lsp", "serve"}

// flagLine finds a flag's name in a command's help.
var flagLine = regexp.MustCompile(`(?m)^  -([a-z][a-z-]*)`)

// commandFlags returns the flags of a command, read from its own help, so
// that completion never lags behind the flags.
func commandFlags(ctx context.Context, cmd string) []string {
	var out bytes.Buffer
	run(ctx, []string{cmd, "-h"}, strings.NewReader(""), &out, io.Discard)
	var flags []string
	for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
		flags = append(flags, "--"+m[1])
	}
	sort.Strings(flags)
	return flags
}

// runCompletion prints a shell completion script.
func runCompletion(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fset := newFlagSet("completion", "completion bash|zsh|fish\n\nPrints a shell completion script: source <(celint completion bash), or zsh;\ncelint completion fish | source.", stdout)
	args, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(args) != 1 {
		return exitError, &usageError{command: "completion", msg: "completion needs one shell: bash, zsh or fish"}
	}
	flags := map[string][]string{}
	for _, c := range flagCommands {
		flags[c] = commandFlags(ctx, c)
	}
	cmds := strings.Join(commands, " ")
	switch args[0] {
	case "bash", "zsh":
		var b strings.Builder
		if args[0] == "zsh" {
			b.WriteString("#compdef celint\nautoload -U +X bashcompinit && bashcompinit\n")
		}
		b.WriteString("# celint completion for " + args[0] + ": source <(celint completion " + args[0] + ")\n")
		b.WriteString("_celint() {\n  local cur=${COMP_WORDS[COMP_CWORD]}\n  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
		fmt.Fprintf(&b, "    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", cmds)
		b.WriteString("  case ${COMP_WORDS[1]} in\n")
		for _, c := range flagCommands {
			fmt.Fprintf(&b, "    %s) if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); else COMPREPLY=($(compgen -f -- \"$cur\")); fi ;;\n", c, strings.Join(flags[c], " "))
		}
		fmt.Fprintf(&b, "    completion) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")) ;;\n    help) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n  esac\n}\ncomplete -o default -F _celint celint\n", cmds)
		_, err := io.WriteString(stdout, b.String())
		return exitOK, err
	case "fish":
		var b strings.Builder
		b.WriteString("# celint completion for fish: celint completion fish | source\n")
		fmt.Fprintf(&b, "complete -c celint -n __fish_use_subcommand -f -a %q\n", cmds)
		for _, c := range flagCommands {
			for _, fl := range flags[c] {
				fmt.Fprintf(&b, "complete -c celint -n '__fish_seen_subcommand_from %s' -l %s\n", c, strings.TrimPrefix(fl, "--"))
			}
		}
		b.WriteString("complete -c celint -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n")
		_, err := io.WriteString(stdout, b.String())
		return exitOK, err
	}
	return exitError, &usageError{command: "completion", msg: fmt.Sprintf("completion: unknown shell %q: bash, zsh or fish", args[0])}
}

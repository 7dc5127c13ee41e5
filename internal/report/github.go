package report

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/celint/celint/engine"
)

// githubPrinter prints GitHub Actions workflow commands, which GitHub shows
// as annotations on the run and on the pull request's diff:
//
//	::error file=a.json,line=3,col=15,title=mcp.tool.name-format::tool name must … (/tools/0/name)
type githubPrinter struct{}

func (githubPrinter) Print(w io.Writer, in Input) error {
	bw := bufio.NewWriter(w)
	for _, d := range in.Diagnostics {
		bw.WriteString(githubCommand(d))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// githubCommand renders one diagnostic as a workflow command.
func githubCommand(d engine.Diagnostic) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(githubLevel(d.Severity))
	b.WriteString(" file=")
	b.WriteString(githubEscapeProperty(filepath.ToSlash(d.File)))
	if d.Line > 0 {
		fmt.Fprintf(&b, ",line=%d", d.Line)
		if d.Column > 0 {
			fmt.Fprintf(&b, ",col=%d", d.Column)
		}
	}
	title := ruleLabel(d)
	switch {
	case d.RuleError:
		title += " (rule error)"
	case d.InputError:
		title += " (input error)"
	}
	b.WriteString(",title=")
	b.WriteString(githubEscapeProperty(title))
	b.WriteString("::")
	msg := d.Message
	if d.Pointer != "" {
		msg += " (" + d.Pointer + ")"
	}
	b.WriteString(githubEscapeData(msg))
	return b.String()
}

func githubLevel(s engine.Severity) string {
	switch s {
	case engine.Error:
		return "error"
	case engine.Warning:
		return "warning"
	}
	return "notice"
}

// githubEscapeData escapes a command's message as @actions/core does.
func githubEscapeData(s string) string { return githubData.Replace(s) }

// githubEscapeProperty escapes a command's property value as @actions/core
// does: as a message, and ':' and ',' too.
func githubEscapeProperty(s string) string { return githubProperty.Replace(s) }

var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

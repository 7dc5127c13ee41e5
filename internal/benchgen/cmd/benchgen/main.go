// Command benchgen writes the benchmark workload of ../shared/bench as
// files, for the whole-process measurements of docs/performance.md: the
// description as JSON (what gen_big.py writes) or as block YAML, and the
// synthetic rules (what genrules.py writes).
//
//	go run ./internal/benchgen/cmd/benchgen -tools 5000 -json big.json -yaml big.yaml -rules 100 -rules-dir synthetic
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/celint/celint/internal/benchgen"
)

func main() { os.Exit(run(os.Args[1:], os.Stderr)) }

// run is the command on args; it returns the exit code.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tools := fs.Int("tools", 5000, "the number of tools in the description")
	jsonOut := fs.String("json", "", "write the description as JSON to this file")
	yamlOut := fs.String("yaml", "", "write the description as block YAML to this file")
	rules := fs.Int("rules", 100, "the number of synthetic rules")
	rulesDir := fs.String("rules-dir", "", "write the synthetic rules into this folder")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *jsonOut == "" && *yamlOut == "" && *rulesDir == "" {
		fmt.Fprintln(stderr, "usage: benchgen [-tools N] [-json FILE] [-yaml FILE] [-rules N -rules-dir DIR]")
		return 2
	}
	if *tools < 0 || *rules < 0 {
		fmt.Fprintln(stderr, "benchgen: -tools and -rules must not be negative")
		return 2
	}
	for _, out := range []struct {
		name string
		data func() []byte
	}{
		{*jsonOut, func() []byte { return benchgen.Description(*tools) }},
		{*yamlOut, func() []byte { return benchgen.DescriptionYAML(*tools) }},
	} {
		if out.name == "" {
			continue
		}
		if err := os.WriteFile(out.name, out.data(), 0o644); err != nil {
			fmt.Fprintln(stderr, "benchgen:", err)
			return 1
		}
	}
	if *rulesDir != "" {
		if err := os.MkdirAll(*rulesDir, 0o755); err != nil {
			fmt.Fprintln(stderr, "benchgen:", err)
			return 1
		}
		if err := benchgen.WriteRules(*rulesDir, *rules); err != nil {
			fmt.Fprintln(stderr, "benchgen:", err)
			return 1
		}
	}
	return 0
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/celint/celint/internal/lsp"
	"github.com/celint/celint/rulesets"
)

// runLSP serves the Language Server Protocol on standard input and output
// until the client sends exit or closes the stream.
func runLSP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	var cfgFile string
	var noConfig bool
	fset := newFlagSet("lsp", "lsp [--rules DIR] [--spec TAG] [--config FILE]", stdout)
	f.register(fset.FlagSet, withSpec)
	fset.StringVar(&cfgFile, "config", "", "read this config `file` for every document (default: each document's nearest .celint.yaml inside the workspace folders)")
	fset.BoolVar(&noConfig, "no-config", false, "ignore any config file")
	fset.BoolVar(new(bool), "stdio", true, "serve on standard input and output (the only transport; accepted for editors that pass it)")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{command: "lsp", msg: fmt.Sprintf("lsp takes no arguments, got %q", rest)}
	}
	if cfgFile != "" && noConfig {
		return exitError, &usageError{command: "lsp", msg: "--config and --no-config exclude each other"}
	}
	err = lsp.Serve(ctx, stdio{stdin, stdout}, lsp.Options{
		Embedded: rulesets.Load,
		Rules:    f.rules,
		Spec:     f.spec,
		Config:   cfgFile,
		NoConfig: noConfig,
		Version:  toolVersion(),
		Log:      stderr,
	})
	if errors.Is(err, lsp.ErrNoShutdown) {
		return exitError, nil
	}
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// stdio is standard input and output as one stream.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes standard input, where the server reads, so that a read
// blocked on it ends.
func (s stdio) Close() error {
	if f, ok := s.Reader.(*os.File); ok {
		return f.Close()
	}
	return nil
}

// Command build writes the playground's generated files into
// static/gen/, from the folder of package web (go generate ./web runs it
// there):
//
//   - celint.wasm.gz: cmd/celint-wasm built with GOOS=js GOARCH=wasm,
//     -trimpath and -ldflags "-s -w", gzipped; CELINT_VERSION, when set,
//     is the version it reports;
//   - wasm_exec.js: the loader of the Go toolchain that built it, which
//     must match it;
//   - examples.json: the descriptions the page offers to load, from
//     examples/ and testdata/mcpdesc-0.7.0/.
//
// It prints the module's size, raw and gzipped.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	if err := build(filepath.Join("static", "gen")); err != nil {
		fmt.Fprintln(os.Stderr, "web/build:", err)
		os.Exit(1)
	}
}

// build writes the generated files into dir.
func build(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "celint-wasm")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, "celint.wasm")
	ldflags := "-s -w"
	if v := os.Getenv("CELINT_VERSION"); v != "" {
		ldflags += " -X main.version=" + v
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags="+ldflags, "-o", wasm, "../cmd/celint-wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("GOOS=js GOARCH=wasm go build: %w", err)
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "celint.wasm.gz"), gz.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("celint.wasm: %d bytes, %d gzipped\n", len(raw), gz.Len())

	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	loader, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), loader, 0o644); err != nil {
		return err
	}
	return writeExamples(filepath.Join(dir, "examples.json"))
}

// example is one description the page offers.
type example struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// writeExamples writes the examples, the shipped example first.
func writeExamples(out string) error {
	var files []string
	for _, pattern := range []string{"../examples/*.yaml", "../testdata/mcpdesc-0.7.0/*.yaml", "../testdata/mcpdesc-0.7.0/*.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			return err
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		return fmt.Errorf("no examples: run from the folder of package web")
	}
	var list []example
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		name := strings.TrimPrefix(filepath.ToSlash(f), "../")
		list = append(list, example{Name: name, Text: string(b)})
	}
	b, err := json.MarshalIndent(list, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

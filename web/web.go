// Package web is celint's browser playground: the page, its scripts and
// the WebAssembly build of celint (cmd/celint-wasm), embedded, and the
// HTTP handler that serves them for celint serve.
//
// The WebAssembly module, the Go runtime's wasm_exec.js that loads it and
// the example descriptions are generated, not checked in: `go generate
// ./web` writes them into static/gen/ (see build/), and a celint built
// without them refuses to serve (Missing names what is absent).
package web

//go:generate go run ./build

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files returns the playground's files, rooted at the page.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // static is embedded above: it exists
	}
	return sub
}

// Missing returns the files that go generate ./web writes and the page
// cannot do without that fsys lacks; none when the playground is
// complete.
func Missing(fsys fs.FS) []string {
	var out []string
	for _, name := range []string{"gen/celint.wasm.gz", "gen/wasm_exec.js", "gen/examples.json"} {
		if _, err := fs.Stat(fsys, name); err != nil {
			out = append(out, name)
		}
	}
	return out
}

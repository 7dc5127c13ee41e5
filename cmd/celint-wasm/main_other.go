//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main refuses to run: the command is built for the browser, with
// GOOS=js GOARCH=wasm (go generate ./web builds it).
func main() {
	fmt.Fprintln(os.Stderr, "celint-wasm runs in a browser: build it with GOOS=js GOARCH=wasm (go generate ./web)")
	os.Exit(2)
}

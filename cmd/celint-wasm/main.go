//go:build js && wasm

// Command celint-wasm is celint's check pipeline compiled to WebAssembly
// (GOOS=js GOARCH=wasm) for the browser playground: it sets
// globalThis.celint to an object of functions and keeps running so that
// they can be called. Each returns a plain object (JSON-able), or, when the
// call fails, an Error object: Go cannot throw into its JavaScript caller.
//
//	celint.lint(text, {name, spec})        findings, with their ranges
//	celint.fix(text, {name, spec, index})  the text after one finding's fix
//	celint.rules(spec)                     the rules
//	celint.explain(id, {spec})             a rule's page
//	celint.versions()                      celint's version and the rulesets
//
// docs/playground.md describes the values; internal/playground makes them.
package main

import (
	"syscall/js"

	"github.com/celint/celint/internal/playground"
	"github.com/celint/celint/rulesets"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	p, err := playground.New(playground.Options{Embedded: rulesets.Load, Version: version})
	if err != nil {
		js.Global().Set("celintError", err.Error())
		return
	}
	api := js.Global().Get("Object").New()
	for _, name := range []string{"lint", "fix", "rules", "explain", "versions"} {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) any {
			return call(p, name, args)
		}))
	}
	js.Global().Set("celint", api)
	select {}
}

// call answers one call: its first argument, as a string, and its second,
// as JSON, go to playground.Call; its answer comes back as an object.
func call(p *playground.Playground, name string, args []js.Value) any {
	arg, opts := "", ""
	if len(args) > 0 && args[0].Type() == js.TypeString {
		arg = args[0].String()
	} else if len(args) > 0 && !args[0].IsUndefined() && !args[0].IsNull() {
		return js.Global().Get("Error").New("celint." + name + ": the first argument must be a string")
	}
	if len(args) > 1 && !args[1].IsUndefined() {
		opts = js.Global().Get("JSON").Call("stringify", args[1]).String()
	}
	out, err := p.Call(name, arg, []byte(opts))
	if err != nil {
		return js.Global().Get("Error").New(err.Error())
	}
	return js.Global().Get("JSON").Call("parse", string(out))
}

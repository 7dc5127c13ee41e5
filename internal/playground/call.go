package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Call answers one call of the JavaScript API with its result encoded as
// JSON. arg is the call's first argument as a string (the text for lint
// and fix, the spec for rules, the rule id for explain; ignored by
// versions); opts is the JSON of its second argument, an object of
// options, or empty, null or undefined for none:
//
//	lint(text, {name, spec})        → LintResult
//	fix(text, {name, spec, index})  → the text after the fix
//	rules(spec)                     → []Rule
//	explain(id, {spec})             → Page
//	versions()                      → VersionInfo
//
// Unknown members of opts are an error, so that a misspelt option is not
// silently ignored.
func (p *Playground) Call(method, arg string, opts []byte) ([]byte, error) {
	var v any
	var err error
	switch method {
	case "lint":
		var o LintOptions
		if err := decode(opts, &o); err != nil {
			return nil, err
		}
		v, err = p.Lint(arg, o)
	case "fix":
		o := FixOptions{Index: -1}
		if err := decode(opts, &o); err != nil {
			return nil, err
		}
		v, err = p.Fix(arg, o)
	case "rules":
		v, err = p.Rules(arg)
	case "explain":
		var o struct {
			Spec string `json:"spec"`
		}
		if err := decode(opts, &o); err != nil {
			return nil, err
		}
		v, err = p.Explain(arg, o.Spec)
	case "versions":
		v = p.Versions()
	default:
		return nil, fmt.Errorf("no function %q (celint has lint, fix, rules, explain and versions)", method)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// decode reads the options of a call; empty, null and undefined are none.
func decode(opts []byte, v any) error {
	opts = bytes.TrimSpace(opts)
	if len(opts) == 0 || string(opts) == "null" || string(opts) == "undefined" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(opts))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("options: %w", err)
	}
	return nil
}

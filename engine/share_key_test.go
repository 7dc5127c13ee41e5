package engine

import (
	"testing"

	"github.com/celint/celint/loader"
)

// TestLogicKey: a rule's logic key changes with everything its verdicts
// depend on, and with nothing it only says or where it says it; rules it
// never shares have none.
func TestLogicKey(t *testing.T) {
	e := func(text string) *loader.Expr { return &loader.Expr{Text: text} }
	base := func() *loader.RuleSpec {
		return &loader.RuleSpec{
			ID:           loader.Scalar{Value: "r.a"},
			Doc:          loader.RuleDoc{Title: "A", Level: "must"},
			Given:        []loader.Scalar{{Value: "items.#"}},
			When:         e("has(self.a)"),
			DocVariables: loader.Vars{{Name: "n", Expr: *e("size(root.items)")}},
			Variables:    loader.Vars{{Name: "v", Expr: *e("self.a * 2")}},
			Checks: []loader.CheckSpec{{
				Each:    e("self.list"),
				When:    e("item > 0"),
				Assert:  e("item < v"),
				At:      loader.Scalar{Value: "list/{index}"},
				Message: loader.Scalar{Value: "too big"},
			}},
			File: "a.yaml",
			Pos:  loader.Pos{Line: 3, Col: 5},
		}
	}
	key := logicKey(base(), "env")
	if key == "" {
		t.Fatal("the base rule has no key")
	}
	same := map[string]func(*loader.RuleSpec){
		"id":       func(r *loader.RuleSpec) { r.ID.Value = "r.b" },
		"level":    func(r *loader.RuleSpec) { r.Doc.Level = "may" },
		"title":    func(r *loader.RuleSpec) { r.Doc.Title = "B" },
		"message":  func(r *loader.RuleSpec) { r.Checks[0].Message.Value = "other words" },
		"at":       func(r *loader.RuleSpec) { r.Checks[0].At.Value = "list" },
		"code":     func(r *loader.RuleSpec) { r.Checks[0].Code.Value = "big" },
		"file":     func(r *loader.RuleSpec) { r.File, r.Pos = "b.yaml", loader.Pos{Line: 9, Col: 1} },
		"schema":   func(r *loader.RuleSpec) { r.Schema = &loader.Node{} },
		"position": func(r *loader.RuleSpec) { r.Checks[0].Assert.Pos = loader.Pos{Line: 7, Col: 2} },
	}
	for name, change := range same {
		r := base()
		change(r)
		if got := logicKey(r, "env"); got != key {
			t.Errorf("changing the %s changed the key", name)
		}
	}
	differ := map[string]func(*loader.RuleSpec){
		"given":             func(r *loader.RuleSpec) { r.Given[0].Value = "items.#.x" },
		"a second path":     func(r *loader.RuleSpec) { r.Given = append(r.Given, loader.Scalar{Value: "more.#"}) },
		"rule when":         func(r *loader.RuleSpec) { r.When = e("has(self.b)") },
		"no rule when":      func(r *loader.RuleSpec) { r.When = nil },
		"assume":            func(r *loader.RuleSpec) { r.Assume = &loader.Assume{Expr: e("true")} },
		"scope":             func(r *loader.RuleSpec) { r.Doc.Scope = loader.Scope{Key: "versions", Values: []string{"1"}} },
		"document variable": func(r *loader.RuleSpec) { r.DocVariables[0].Expr.Text = "size(root.other)" },
		"its name":          func(r *loader.RuleSpec) { r.DocVariables[0].Name = "m" },
		"variable":          func(r *loader.RuleSpec) { r.Variables[0].Expr.Text = "self.a * 3" },
		"variable's name":   func(r *loader.RuleSpec) { r.Variables[0].Name = "w" },
		"each":              func(r *loader.RuleSpec) { r.Checks[0].Each = e("self.other") },
		"check when":        func(r *loader.RuleSpec) { r.Checks[0].When = nil },
		"assert":            func(r *loader.RuleSpec) { r.Checks[0].Assert = e("item <= v") },
		"forbid":            func(r *loader.RuleSpec) { r.Checks[0].Assert, r.Checks[0].Forbid = nil, e("item < v") },
		"check scope":       func(r *loader.RuleSpec) { r.Checks[0].Scope = loader.Scope{Key: "versions", From: "1"} },
		"check assume":      func(r *loader.RuleSpec) { r.Checks[0].Assume = &loader.Assume{Expr: e("true")} },
		"another check":     func(r *loader.RuleSpec) { r.Checks = append(r.Checks, r.Checks[0]) },
		// Texts that run together the same way, split differently.
		"the split of two texts": func(r *loader.RuleSpec) {
			r.Given[0].Value, r.When = "items.#has(self.a)", e("")
		},
	}
	for name, change := range differ {
		r := base()
		change(r)
		if got := logicKey(r, "env"); got == key || got == "" {
			t.Errorf("changing the %s left the key as it was (or gave none)", name)
		}
	}
	if logicKey(base(), "other env") == key {
		t.Error("a rule of another environment has the same key")
	}
	none := map[string]func(*loader.RuleSpec){
		"resolve":         func(r *loader.RuleSpec) { r.Resolve = true },
		"a shape":         func(r *loader.RuleSpec) { r.Assume = &loader.Assume{Shape: &loader.Node{}} },
		"a check's shape": func(r *loader.RuleSpec) { r.Checks[0].Assume = &loader.Assume{Shape: &loader.Node{}} },
		"no checks":       func(r *loader.RuleSpec) { r.Checks = nil },
	}
	for name, change := range none {
		r := base()
		change(r)
		if got := logicKey(r, "env"); got != "" {
			t.Errorf("a rule with %s has a key", name)
		}
	}
}

package exprcache

import (
	"os"
	"strings"
	"testing"

	gocel "github.com/google/cel-go/cel"
)

// TestCELGoVersion: the cel-go version that checked expressions are keyed
// by is the one go.mod requires, and another version gives other keys.
func TestCELGoVersion(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	required := ""
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require ")); len(f) >= 2 && f[0] == "github.com/google/cel-go" {
			required = f[1]
		}
	}
	if required != celGoVersion {
		t.Errorf("go.mod requires cel-go %q, the checked expressions' key says %q: update celGoVersion, then run go generate ./rulesets", required, celGoVersion)
	}
	env, err := gocel.NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	if declarationsWith(env, 1, "v0.31.0") == declarationsWith(env, 1, "v0.32.0") {
		t.Error("the key of checked expressions does not change with cel-go's version")
	}
	if Declarations(env, 1) != declarationsWith(env, 1, celGoVersion) {
		t.Error("declarations are not keyed by celGoVersion")
	}
}

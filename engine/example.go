package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/celint/celint/loader"
)

// ErrAbsent is the cause of the error LoadExample returns for a fixture
// that is absent from ExampleOptions.FixturesDir.
var ErrAbsent = errors.New("fixture absent")

// ExampleOptions tune LoadExample.
type ExampleOptions struct {
	// FixturesDir, when set, is a folder on disk where example sources are
	// looked up instead of the ruleset's fixture folder. A source absent
	// there is an error wrapping ErrAbsent.
	FixturesDir string
	// Lenient reads a document that the ruleset's serialization
	// restrictions refuse once more with every construct allowed, so that
	// it can be shown.
	Lenient bool
}

// ExampleName names an example in reports: its fixture path, or
// "inline FILE:LINE" for a document written in the rule file.
func ExampleName(r *Rule, ex *loader.ExampleSpec) string {
	if ex.Document != nil {
		return fmt.Sprintf("inline %s:%d", r.File, ex.Pos.Line)
	}
	return ex.Source.Value
}

// LoadExample reads the document of one example of rule r: a fixture of
// the ruleset, read with its options, or an inline document, whose values
// keep their positions in the rule file. Conformance, the rule pages and
// the load-time check of fixtures all read examples through it.
func (rs *Ruleset) LoadExample(r *Rule, ex *loader.ExampleSpec, opts ExampleOptions) (*loader.Document, error) {
	if ex.Document != nil {
		return loader.Extract(r.File, r.Text, ex.Document, rs.LoadOptions)
	}
	var (
		name string
		data []byte
		err  error
	)
	if opts.FixturesDir != "" {
		if !fs.ValidPath(ex.Source.Value) {
			return nil, sourceError(r, ex, " must be a relative path inside the fixtures folder")
		}
		name = filepath.Join(opts.FixturesDir, filepath.FromSlash(ex.Source.Value))
		if _, err := os.Stat(name); err != nil {
			return nil, &loader.Error{File: opts.FixturesDir, Msg: fmt.Sprintf("fixture %s is absent from %s", ex.Source.Value, opts.FixturesDir), Err: ErrAbsent}
		}
		data, err = loader.ReadFile(name, rs.LoadOptions.Limits.Bytes)
	} else {
		var file string
		fix := rs.fixturesOf(r)
		if file, name, err = fix.file(r, ex); err != nil {
			return nil, err
		}
		if data, err = fs.ReadFile(fix.fs, file); err != nil {
			return nil, sourceError(r, ex, ": cannot be read: "+unwrapPathError(err))
		}
	}
	if err != nil {
		return nil, err
	}
	doc, err := loader.Parse(name, data, rs.LoadOptions)
	if err != nil && opts.Lenient {
		lenient := rs.LoadOptions
		lenient.Reject = 0
		if doc, err2 := loader.Parse(name, data, lenient); err2 == nil {
			return doc, nil
		}
	}
	return doc, err
}

// fixturesOf is where the examples of r find their fixtures: its own
// folder's, else (for a rule built by hand) the ruleset's.
func (rs *Ruleset) fixturesOf(r *Rule) fixtureDir {
	if r.fixtures.fs != nil {
		return r.fixtures
	}
	return rs.ownFixtures()
}

// file returns the path of an example's fixture in f's file system and the
// name it is reported under, or an error at the example's source.
func (f fixtureDir) file(r *Rule, ex *loader.ExampleSpec) (file, name string, err error) {
	switch {
	case f.dir == "" || f.fs == nil:
		return "", "", sourceError(r, ex, ": the ruleset declares no 'fixtures' folder")
	case !fs.ValidPath(ex.Source.Value):
		return "", "", sourceError(r, ex, " must be a relative path inside the fixtures folder")
	}
	return path.Join(f.dir, ex.Source.Value), path.Join(f.at, ex.Source.Value), nil
}

func sourceError(r *Rule, ex *loader.ExampleSpec, msg string) error {
	return &loader.Error{File: r.File, Pos: ex.Source.Pos, Msg: fmt.Sprintf("example source %q%s", ex.Source.Value, msg)}
}

package engine

import (
	"errors"
	"fmt"
	"io/fs"
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
		// The folder is opened as an os.Root: a source never leaves it,
		// through ".." or a symbolic link.
		corpus, err := loader.DirFS(opts.FixturesDir)
		if err != nil {
			return nil, &loader.Error{File: opts.FixturesDir, Msg: "cannot read the fixtures folder: " + unwrapPathError(err), Err: err}
		}
		if _, err := fs.Stat(corpus, ex.Source.Value); errors.Is(err, fs.ErrNotExist) {
			return nil, &loader.Error{File: opts.FixturesDir, Msg: fmt.Sprintf("fixture %s is absent from %s", ex.Source.Value, opts.FixturesDir), Err: ErrAbsent}
		}
		data, err = loader.ReadFS(corpus, ex.Source.Value, name, fixtureLimit(rs))
	} else {
		var file string
		fix := rs.fixturesOf(r)
		if file, name, err = fix.file(r, ex); err != nil {
			return nil, err
		}
		if data, err = loader.ReadFS(fix.fs, file, name, fixtureLimit(rs)); err != nil {
			var le *loader.Error
			if errors.As(err, &le) {
				return nil, sourceError(r, ex, ": "+le.Error())
			}
			return nil, err
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

// fixtureLimit is the size limit of a fixture: the ruleset's document size
// limit.
func fixtureLimit(rs *Ruleset) int64 {
	if rs.LoadOptions.Limits.Bytes > 0 {
		return rs.LoadOptions.Limits.Bytes
	}
	return loader.DefaultLimits().Bytes
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

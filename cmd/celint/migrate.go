package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/safetext"
	"github.com/celint/celint/loader"
)

// maxMigrationSteps bounds the migrations one document goes through on
// its way to the target version (0.7.0 to 0.8.0 to …).
const maxMigrationSteps = 8

// maxMigrationRounds bounds the rounds of one migration's fixes.
const maxMigrationRounds = 20

func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	var f ruleFlags
	fset := newFlagSet("migrate", "migrate --to TAG [--write] [--rules DIR] FILE|DIR|GLOB...", stdout)
	f.register(fset.FlagSet, withCost)
	fset.Func("spec", "not taken: each document is upgraded from the version it declares; say the target with --to", func(string) error {
		return errors.New("migrate takes --to, not --spec: the ruleset of each document is the one its version asks for")
	})
	var to string
	var write bool
	fset.StringVar(&to, "to", "", "upgrade to the version of the ruleset pinned at this spec `tag` (e.g. v0.8.0, or name@tag)")
	fset.BoolVar(&write, "write", false, "write the migrated files (atomically) instead of printing a unified diff")
	paths, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	switch {
	case to == "":
		return exitError, &usageError{command: "migrate", msg: "migrate needs --to TAG, the version to upgrade to (celint version lists them)"}
	case len(paths) == 0:
		return exitError, &usageError{command: "migrate", msg: "migrate needs at least one FILE, DIR or GLOB"}
	case slices.Contains(paths, "-"):
		return exitError, &usageError{command: "migrate", msg: "migrate works on files, not standard input"}
	}
	cat, _, err := f.catalog()
	if err != nil {
		return exitError, err
	}
	files, _, inputDiags := expandPaths(paths)
	code := exitOK
	for _, d := range inputDiags {
		fmt.Fprintf(stderr, "celint: %s: %s\n", safetext.Line(d.File), safetext.Line(d.Message))
		code = exitError
	}
	migrated := 0
	for _, file := range files {
		m, err := migrateFile(ctx, cat, to, file)
		if err != nil {
			fmt.Fprintf(stderr, "celint: %s\n", safetext.Line(err.Error()))
			code = exitError
			continue
		}
		for _, line := range m.report() {
			fmt.Fprintln(stderr, safetext.Line(line))
		}
		if m.errors > 0 && code == exitOK {
			code = exitFindings
		}
		if string(m.after) == string(m.before) {
			continue
		}
		migrated++
		if err := emitChange(file, m.before, m.after, m.bom, write, stdout); err != nil {
			fmt.Fprintf(stderr, "celint: %s\n", safetext.Line(err.Error()))
			code = exitError
		}
	}
	if write {
		fmt.Fprintf(stderr, "celint: migrated %s\n", plural(migrated, "file", "files"))
	}
	return code, nil
}

// note is a finding of a migration, or one a ruleset's fix mended, and
// what the report calls it: "changed" (a mechanical change), "check" (a
// choice made or left for the author) or "fixed".
type note struct {
	engine.Diagnostic
	what string
}

// migrationNotes are the notes of a migration's findings.
func migrationNotes(ds []engine.Diagnostic) []note {
	out := make([]note, len(ds))
	for i, d := range ds {
		out[i] = note{d, "changed"}
		if d.Severity != engine.Info {
			out[i].what = "check"
		}
	}
	return out
}

// fixedNotes are the notes of findings a ruleset's fixes mended.
func fixedNotes(ds []engine.Diagnostic) []note {
	out := make([]note, len(ds))
	for i, d := range ds {
		out[i] = note{d, "fixed"}
	}
	return out
}

// migration is one file's migration: its source before and after, what
// the migration says about it, and the findings of the result.
type migration struct {
	file          string
	before, after []byte
	bom           bool // the file starts with a byte order mark, which before and after leave out
	target        *engine.Ruleset
	// already is set when the document declares a version the target
	// checks as it is: nothing was migrated.
	already string
	// steps names the migrations made, in order ("0.7.0 to mcpdesc@v0.8.0").
	steps []string
	// notes are what the migrations did that the author should know, and
	// what they left for the author; refused are fixes not made.
	notes   []note
	refused []engine.RefusedFix
	// findings are the target ruleset's findings on the result.
	findings []engine.Diagnostic
	doc      *loader.Document
	errors   int
}

// migrateFile upgrades file to the version of the ruleset pinned at tag:
// through each migration on the way, each followed by the fixes of the
// ruleset it migrates to, then checked under the target. The file is not
// written.
func migrateFile(ctx context.Context, cat *engine.Catalog, tag, file string) (*migration, error) {
	doc, rs, err := cat.LoadFile(file, nil)
	if err != nil {
		if errors.Is(err, engine.ErrUndeclaredVersion) {
			return nil, fmt.Errorf("%s: not a description, left as it is", file)
		}
		return nil, fmt.Errorf("%w; left as it is", err)
	}
	target, err := migrationTarget(cat, rs, tag)
	if err != nil {
		return nil, err
	}
	m := &migration{file: file, before: doc.Source, after: doc.Source, bom: doc.BOM, target: target, doc: doc}
	version, _ := declaredVersion(rs, doc)
	if target.AcceptsDocument(doc) {
		m.already = version
		return m, m.check(ctx)
	}
	for step := 0; !target.AcceptsDocument(doc); step++ {
		via, mig := migrationVia(cat, target, version)
		if mig == nil {
			return nil, fmt.Errorf("%s: %s has no migration from %s %q; left as it is", file, target, accepted(rs), version)
		}
		if step == maxMigrationSteps {
			return nil, fmt.Errorf("%s: still not a document for %s after %d migrations; left as it is", file, target, step)
		}
		migRules, err := via.LoadMigration(mig)
		if err != nil {
			return nil, err
		}
		res, err := engine.ApplyFixes(ctx, migRules, doc, engine.FixOptions{MaxRounds: maxMigrationRounds})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if !res.Stable {
			return nil, fmt.Errorf("%s: the migration to %s still had changes to make after %d rounds; left as it is", file, via, res.Rounds)
		}
		m.notes = append(m.notes, migrationNotes(res.Found)...)
		m.refused = append(m.refused, res.Refused...)
		next, err := loader.Parse(file, res.Source, via.LoadOptions)
		if err != nil {
			return nil, fmt.Errorf("%s: the migrated document does not read: %w; left as it is", file, err)
		}
		if !via.AcceptsDocument(next) {
			v, _ := declaredVersion(via, next)
			return nil, fmt.Errorf("%s: the migration to %s left the document declaring %q, which %s does not check; left as it is", file, via, v, via)
		}
		// The fixes of the ruleset migrated to: what its rules can mend
		// of the 0.7.0 habits (empty collections, say).
		fixed, err := engine.ApplyFixes(ctx, via, next, engine.FixOptions{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		m.notes = append(m.notes, fixedNotes(fixed.Fixed)...)
		m.refused = append(m.refused, fixed.Refused...)
		if doc, err = loader.Parse(file, fixed.Source, via.LoadOptions); err != nil {
			return nil, fmt.Errorf("%s: the migrated document does not read: %w; left as it is", file, err)
		}
		m.steps = append(m.steps, fmt.Sprintf("%s to %s", version, via))
		version, _ = declaredVersion(via, doc)
		rs = via
	}
	if rs != target {
		// The target checks what the last migration made as it is; its
		// fixes still apply.
		fixed, err := engine.ApplyFixes(ctx, target, doc, engine.FixOptions{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		m.notes = append(m.notes, fixedNotes(fixed.Fixed)...)
		m.refused = append(m.refused, fixed.Refused...)
		if doc, err = loader.Parse(file, fixed.Source, target.LoadOptions); err != nil {
			return nil, fmt.Errorf("%s: the migrated document does not read: %w; left as it is", file, err)
		}
	}
	m.doc, m.after = doc, doc.Source
	return m, m.check(ctx)
}

// check lints the migrated document under the target ruleset.
func (m *migration) check(ctx context.Context) error {
	// Opt-in codes are left out, as celint check leaves them out when no
	// config file turns them on.
	ds, err := m.target.Lint(ctx, m.doc, engine.LintOptions{Adjust: func(d *engine.Diagnostic) bool { return !d.OptIn }})
	if err != nil {
		return fmt.Errorf("%s: %w", m.file, err)
	}
	m.findings = ds
	for _, d := range ds {
		if d.Severity == engine.Error {
			m.errors++
		}
	}
	return nil
}

// report is what the migration says, one line each: the steps made, the
// notes of the migrations placed in the migrated document, the fixes not
// made, and the findings of the result under the target ruleset.
func (m *migration) report() []string {
	if m.already != "" {
		out := []string{fmt.Sprintf("%s: declares %q, which %s checks as it is: nothing to migrate", m.file, m.already, m.target)}
		if m.errors > 0 {
			out = append(out, fmt.Sprintf("%s: %s under %s (celint check lists them)", m.file, plural(m.errors, "error", "errors"), m.target))
		}
		return out
	}
	out := []string{fmt.Sprintf("%s: migrated %s", m.file, strings.Join(m.steps, ", then "))}
	line := func(d engine.Diagnostic, what string) string {
		n := nodeNear(m.doc, d.Pointer)
		pos := n.Pos
		if n.Parent != nil && n.Parent.Kind == loader.Object {
			pos = n.KeyPos
		}
		at := ""
		if n.Pointer() != d.Pointer {
			at = " (at " + cmp.Or(d.Pointer, "/") + " before)"
		}
		return fmt.Sprintf("%s:%d:%d: %s: %s%s [%s]", m.file, pos.Line, pos.Col, what, d.Message, at, d.Label())
	}
	for _, what := range []string{"changed", "fixed", "check"} {
		for _, n := range m.notes {
			if n.what == what {
				out = append(out, line(n.Diagnostic, what))
			}
		}
	}
	for _, r := range m.refused {
		out = append(out, line(r.Diagnostic, "not changed")+": "+r.Reason)
	}
	for _, d := range m.findings {
		out = append(out, line(d, d.Severity.String()))
	}
	return out
}

// nodeNear is the node at pointer in doc, or its nearest ancestor there.
func nodeNear(doc *loader.Document, pointer string) *loader.Node {
	for {
		if n, ok := doc.Lookup(pointer); ok {
			return n
		}
		i := strings.LastIndexByte(pointer, '/')
		if i < 0 {
			return doc.Root
		}
		pointer = pointer[:i]
	}
}

// migrationTarget finds the ruleset the document (checked by rs) is
// migrated to: tag is a spec tag of rs's ruleset, or name@tag.
func migrationTarget(cat *engine.Catalog, rs *engine.Ruleset, tag string) (*engine.Ruleset, error) {
	spec := tag
	if !strings.Contains(tag, "@") {
		spec = rs.Name + "@" + tag
	}
	target, err := cat.Find(spec)
	if err != nil {
		return nil, fmt.Errorf("--to %s: %w", tag, err)
	}
	return target, nil
}

// migrationVia finds the migration that upgrades documents that declare
// version: the target's own, else that of another ruleset of its name.
func migrationVia(cat *engine.Catalog, target *engine.Ruleset, version string) (*engine.Ruleset, *engine.Migration) {
	if m := target.MigrationFrom(version); m != nil {
		return target, m
	}
	for _, rs := range cat.Rulesets() {
		if rs.Name == target.Name {
			if m := rs.MigrationFrom(version); m != nil {
				return rs, m
			}
		}
	}
	return nil, nil
}

// declaredVersion is the version doc declares, as rs reads it.
func declaredVersion(rs *engine.Ruleset, doc *loader.Document) (string, bool) {
	if rs.Accepts == nil {
		return "", false
	}
	return rs.Accepts.Version(doc)
}

// accepted names the member a ruleset reads the version from.
func accepted(rs *engine.Ruleset) string {
	if rs.Accepts == nil {
		return "version"
	}
	return rs.Accepts.Path
}

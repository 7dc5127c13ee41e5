package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/celint/celint/loader"
)

// Migration is one migration a ruleset's header declares: documents that
// declare one of the versions From are upgraded to the ruleset's version
// by the fixes of the ruleset in folder Dir (of the ruleset's FS).
type Migration struct {
	From []string
	Dir  string
	// File and Pos are where the header declares the migration.
	File string
	Pos  loader.Pos
}

// MigrationFrom returns the ruleset's migration for documents that
// declare version, or nil when it has none.
func (rs *Ruleset) MigrationFrom(version string) *Migration {
	for i := range rs.Migrations {
		if slices.Contains(rs.Migrations[i].From, version) {
			return &rs.Migrations[i]
		}
	}
	return nil
}

// LoadMigration compiles the ruleset of migration m, a migration of rs,
// with the options rs was loaded with. A folder outside rs's file system,
// or one that is not a ruleset, is an error at the header's migration.
func (rs *Ruleset) LoadMigration(m *Migration) (*Ruleset, error) {
	if !fsPathOK(m.Dir) {
		return nil, &loader.Error{File: m.File, Pos: m.Pos, Msg: fmt.Sprintf("migration rules %q: expected a folder inside the ruleset's file system", m.Dir)}
	}
	opts := rs.opts
	opts.Checked = nil
	mig, err := LoadRuleset(rs.FS, m.Dir, opts)
	if err != nil {
		return nil, fmt.Errorf("the migration from %s to %s: %w", strings.Join(m.From, ", "), rs, err)
	}
	return mig, nil
}

// fsPathOK reports whether p is a valid io/fs path: a migration folder
// such as "../x" that climbs out of the file system is not.
func fsPathOK(p string) bool {
	return p == path.Clean(p) && p != ".." && !strings.HasPrefix(p, "../") && !strings.HasPrefix(p, "/")
}

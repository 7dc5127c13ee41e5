// Package rulesets embeds the pinned rulesets, one folder per ruleset name
// and spec tag: <name>/<tag>/ruleset.yaml, its rule files and its fixtures.
// Every such folder is embedded: a new ruleset needs no Go edit.
package rulesets

import (
	"embed"
	"io/fs"
	"path"

	"github.com/celint/celint/engine"
)

//go:embed all:*/*
var files embed.FS

// Load compiles every embedded ruleset.
func Load(opts engine.Options) ([]*engine.Ruleset, error) {
	return LoadFS(files, opts)
}

// LoadFS compiles every ruleset found as <name>/<tag>/ruleset.yaml in fsys.
func LoadFS(fsys fs.FS, opts engine.Options) ([]*engine.Ruleset, error) {
	headers, err := fs.Glob(fsys, path.Join("*", "*", engine.HeaderFile))
	if err != nil {
		return nil, err
	}
	var out []*engine.Ruleset
	for _, h := range headers {
		rs, err := engine.LoadRuleset(fsys, path.Dir(h), opts)
		if err != nil {
			return nil, err
		}
		out = append(out, rs)
	}
	return out, nil
}

// Catalog returns a catalog of the embedded rulesets.
func Catalog(opts engine.Options) (*engine.Catalog, error) {
	rs, err := Load(opts)
	if err != nil {
		return nil, err
	}
	return engine.NewCatalog(rs...)
}

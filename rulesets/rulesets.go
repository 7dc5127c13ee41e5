// Package rulesets embeds the pinned rulesets, one folder per ruleset name
// and spec tag: <name>/<tag>/ruleset.yaml, its rule files and its fixtures.
// Every such folder is embedded: a new ruleset needs no Go edit.
package rulesets

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/exprcache"
	"github.com/celint/celint/loader"
)

// The start-up files of each ruleset (CheckedFile and the others, read
// by Load) are generated from its rule files: after editing them, run
// go generate ./rulesets, which TestStartupFiles checks was done.
//
//go:generate go test -run TestStartupFiles -update .

//go:embed all:*/*
var files embed.FS

// Files returns the embedded rulesets' folders, as Load reads them.
func Files() fs.FS { return files }

// Load compiles every embedded ruleset.
func Load(opts engine.Options) ([]*engine.Ruleset, error) {
	return LoadFS(files, opts)
}

// LoadFS compiles every ruleset found as <name>/<tag>/ruleset.yaml in fsys.
// A ruleset that extends another of them (extends: name@tag) is compiled
// after it.
func LoadFS(fsys fs.FS, opts engine.Options) ([]*engine.Ruleset, error) {
	headers, err := Headers(fsys)
	if err != nil {
		return nil, err
	}
	var out []*engine.Ruleset
	loaded := map[string]*engine.Ruleset{}
	if opts.Cache == nil {
		opts.Cache = engine.NewLoadCache() // the shared folders, read once
	}
	for _, h := range headers {
		dir := path.Dir(h)
		o := opts
		o.Bases = func(spec string) (*engine.Ruleset, error) {
			if rs := loaded[spec]; rs != nil {
				return rs, nil
			}
			return nil, fmt.Errorf("no embedded ruleset %s", spec)
		}
		if o.Checked == nil {
			if o.Checked, err = readStartupFile(fsys, dir, CheckedFile, exprcache.Read); err != nil {
				return nil, err
			}
		}
		if o.Trees == nil {
			if o.Trees, err = readStartupFile(fsys, dir, TreesFile, loader.ReadTrees); err != nil {
				return nil, err
			}
		}
		rs, err := engine.LoadRuleset(fsys, dir, o)
		if err != nil {
			return nil, err
		}
		loaded[rs.String()] = rs
		out = append(out, rs)
	}
	return out, nil
}

// Headers returns the ruleset headers of fsys (<name>/<tag>/ruleset.yaml),
// each after the header of the ruleset it extends.
func Headers(fsys fs.FS) ([]string, error) {
	headers, err := fs.Glob(fsys, path.Join("*", "*", engine.HeaderFile))
	if err != nil {
		return nil, err
	}
	return baseFirst(fsys, headers)
}

// baseFirst orders the headers so that a ruleset comes after the one it
// extends; a cycle of extends is an error.
func baseFirst(fsys fs.FS, headers []string) ([]string, error) {
	byName := map[string]string{}  // name@tag -> header
	extends := map[string]string{} // header -> the name@tag it extends
	for _, h := range headers {
		data, err := fs.ReadFile(fsys, h)
		if err != nil {
			return nil, err
		}
		spec, err := loader.ReadRulesetSpec(h, data)
		if err != nil {
			return nil, err
		}
		byName[spec.Name+"@"+spec.Tag] = h
		extends[h] = spec.Extends.Value
	}
	var out []string
	state := map[string]int{} // 1: being placed, 2: placed
	var place func(h string, chain []string) error
	place = func(h string, chain []string) error {
		switch state[h] {
		case 2:
			return nil
		case 1:
			return fmt.Errorf("%s: the rulesets extend one another in a cycle (%s)", h, strings.Join(append(chain, h), " -> "))
		}
		state[h] = 1
		if base, ok := byName[extends[h]]; ok {
			if err := place(base, append(chain, h)); err != nil {
				return err
			}
		}
		state[h] = 2
		out = append(out, h)
		return nil
	}
	for _, h := range headers {
		if err := place(h, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CheckedFile is the file of a ruleset folder that holds its expressions
// as cel-go checked them, written by
// `go test ./rulesets -run TestStartupFiles -update`: with it, the rules
// compile without being parsed and type-checked at every start. An
// expression it lacks (a rule edited since) is compiled as usual.
const CheckedFile = "checked-expressions.bin"

// TreesFile is the file of a ruleset folder that holds its rule files as
// the loader parsed them (see loader.Trees), written by the same command as
// CheckedFile: with it, the rule files are not parsed at every start. A
// file it lacks (one edited since) is parsed as usual.
const TreesFile = "parsed-rules.bin"

// readStartupFile reads the folder's file name with read; nil when there
// is none.
func readStartupFile[T any](fsys fs.FS, dir, name string, read func([]byte) (*T, error)) (*T, error) {
	data, err := fs.ReadFile(fsys, path.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path.Join(dir, name), err)
	}
	return v, nil
}

// Catalog returns a catalog of the embedded rulesets.
func Catalog(opts engine.Options) (*engine.Catalog, error) {
	rs, err := Load(opts)
	if err != nil {
		return nil, err
	}
	return engine.NewCatalog(rs...)
}

// Package lint is the check pipeline that celint check, an editor's
// language server and Go programs share. It runs in stages, each of which
// may be used alone:
//
//  1. LoadConfig reads the config file (.celint.yaml), if there is one.
//  2. LoadRulesets loads the rulesets (built-in ones, rule folders, a
//     pinned spec); Rulesets.Choose parses a document and chooses the
//     rulesets that lint it: the one for the version it declares (or the
//     pinned one), then every other ruleset that accepts it.
//  3. A Checker lints a document, given as bytes and a name (an unsaved
//     buffer is as good as a file), with the rulesets it holds: a Checker
//     is made once and lints any number of documents, on any number of
//     goroutines, and the rules it compiles stay compiled.
//  4. While it lints, a Filter decides what becomes of each finding:
//     suppression comments, the levels of the config file, a baseline,
//     a bound on the findings kept.
//  5. A Report hands the results, in order, to a report.Stream (text,
//     json, sarif, …), with the entries and the totals a report needs.
//
// Nothing here writes to standard output or standard error, reads
// standard input, or walks folders: those belong to the caller.
package lint

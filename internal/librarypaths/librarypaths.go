// Package librarypaths reads the debugging switch CELINT_LIBRARY_PATHS.
//
// When the environment variable CELINT_LIBRARY_PATHS is set to anything
// but "" or "0", celint takes the library path wherever it has a faster
// one of its own: cel-go evaluates every expression (no native
// evaluator), santhosh-tekuri/jsonschema validates every value (no raw or
// compiled schema fast path, no metaschema shortcut), yaml/v4 reads every
// YAML input (no block-YAML fast path), and a JSON input is read by one
// goroutine (no split reader). The
// output must be the same, byte for byte; the switch is for finding out
// whether a fast path is to blame for a finding, and CI compares the two.
package librarypaths

import "os"

// On reports whether CELINT_LIBRARY_PATHS was set when the program
// started.
var On = read(os.Getenv("CELINT_LIBRARY_PATHS"))

func read(v string) bool { return v != "" && v != "0" }

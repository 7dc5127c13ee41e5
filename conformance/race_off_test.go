//go:build !race

package conformance_test

// raceEnabled is true under the race detector, which makes evaluation
// about ten times slower: the corpus tests then sample their inputs.
const raceEnabled = false

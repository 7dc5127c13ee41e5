package engine

// OneByOne makes a lint run its rules one after the other, whatever the
// document's size: the order interleaved lints must agree with.
func OneByOne(o LintOptions) LintOptions {
	o.oneByOne = true
	return o
}

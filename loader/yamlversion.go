package loader

import (
	"bytes"
	"fmt"
	"regexp"
)

// yamlVersionDirectiveRE matches a %YAML directive line: its version, and
// where the version's minor number starts.
var yamlVersionDirectiveRE = regexp.MustCompile(`^%YAML[ \t]+([0-9]+)\.([0-9]+)(?:[ \t]|$)`)

// yamlVersion handles the %YAML directives of the stream's first document,
// which yaml/v4 accepts only for YAML 1.1. The loader reads YAML 1.2 (its
// scalar resolution is that of the 1.2 core schema), so a "%YAML 1.2"
// directive is accepted: the result is data with that directive's version
// written as 1.1 for yaml/v4, same length, so that every position stays
// that of the input. Any other version is an error at its directive: a
// document that asks for YAML 1.1 would mean something else here (yes,
// on, 0777 and 12:30 resolve differently), and later versions are not
// known. data is returned unchanged when it needs no rewriting.
func yamlVersion(file string, data []byte) ([]byte, *Error) {
	i := 0
	if bytes.HasPrefix(data, utf8BOM) {
		i = len(utf8BOM)
	}
	out := data
	for i < len(data) {
		end := i
		for end < len(data) && data[end] != '\n' && data[end] != '\r' {
			end++
		}
		line := data[i:end]
		trimmed := bytes.TrimLeft(line, " \t")
		switch {
		case len(trimmed) == 0 || trimmed[0] == '#':
			// A blank or comment line before the document.
		case line[0] != '%':
			return out, nil // the document (or its start marker) begins
		default:
			m := yamlVersionDirectiveRE.FindSubmatchIndex(line)
			if m == nil {
				break // a %TAG or reserved directive: yaml/v4 reads it
			}
			major, minor := string(line[m[2]:m[3]]), string(line[m[4]:m[5]])
			switch {
			case major == "1" && minor == "2":
				if &out[0] == &data[0] {
					out = bytes.Clone(data)
				}
				copy(out[i+m[4]:i+m[5]], "1")
			case major == "1" && minor == "1":
				return nil, &Error{File: file, Pos: posAt(data, i), Msg: "invalid YAML: the %YAML 1.1 directive asks for YAML 1.1, whose scalars resolve differently; only YAML 1.2 is read (write %YAML 1.2, or no directive)"}
			default:
				return nil, &Error{File: file, Pos: posAt(data, i), Msg: fmt.Sprintf("invalid YAML: YAML %s.%s is not supported; only YAML 1.2 is read (write %%YAML 1.2, or no directive)", major, minor)}
			}
		}
		i = end
		if i < len(data) && data[i] == '\r' {
			i++
		}
		if i < len(data) && data[i] == '\n' {
			i++
		}
	}
	return out, nil
}

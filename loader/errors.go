package loader

import (
	"errors"
	"strconv"
	"strings"
)

// ErrLimit is the cause of every error about a limit of Limits; the
// error's Limit field names which one.
var ErrLimit = errors.New("limit exceeded")

// Error is a located error: in a document, a rule file, or a rule.
type Error struct {
	File  string // file name as the user gave it
	Pos   Pos    // zero when unknown; Col is 0 when only the line is known
	Msg   string
	Limit string // "bytes", "depth", "values" or "scalarBytes" when a limit was hit, else ""
	Err   error  // the cause, if any, for errors.Is and errors.As
}

// Error formats the error as "file:line:col: msg", leaving out the parts of
// the position that are unknown.
func (e *Error) Error() string {
	file := e.File
	if file == "" {
		if e.Pos.Line == 0 {
			return e.Msg
		}
		file = "<input>"
	}
	switch {
	case e.Pos.Line > 0 && e.Pos.Col > 0:
		return file + ":" + e.Pos.String() + ": " + e.Msg
	case e.Pos.Line > 0:
		return file + ":" + strconv.Itoa(int(e.Pos.Line)) + ": " + e.Msg
	}
	return file + ": " + e.Msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Issues is a list of located errors, in the order they were found; it is
// itself an error, and errors.Is and errors.As look into every issue.
type Issues []*Error

// Append adds err to the list: the issues of an Issues or of a joined
// error one by one, an *Error as it is, and any other error as an issue
// without a position that keeps it as its cause. A nil err adds nothing.
func (is *Issues) Append(err error) {
	if err == nil {
		return
	}
	var e *Error
	switch t := err.(type) {
	case Issues:
		*is = append(*is, t...)
		return
	case *Error:
		*is = append(*is, t)
		return
	case interface{ Unwrap() []error }:
		for _, u := range t.Unwrap() {
			is.Append(u)
		}
		return
	}
	if errors.As(err, &e) && e.Error() == err.Error() {
		*is = append(*is, e)
		return
	}
	*is = append(*is, &Error{Msg: err.Error(), Err: err})
}

// Err returns the list as an error, or nil when it is empty.
func (is Issues) Err() error {
	if len(is) == 0 {
		return nil
	}
	return is
}

// Error joins the issues, one a line.
func (is Issues) Error() string {
	var b strings.Builder
	for i, e := range is {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the issues, for errors.Is and errors.As.
func (is Issues) Unwrap() []error {
	out := make([]error, len(is))
	for i, e := range is {
		out[i] = e
	}
	return out
}

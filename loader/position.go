package loader

// Span returns where the value at pointer is written, as a diagnostic
// shows it: start is a member's name (an element's value, or the root's),
// end is just past the value. For a pointer that names no value, the span is
// that of the deepest value along it that exists; for a malformed one, the
// root's.
func (d *Document) Span(pointer string) (start, end Pos) {
	n := d.Nearest(pointer)
	if n == nil {
		return Pos{Line: 1, Col: 1}, Pos{}
	}
	start = n.Pos
	if n.KeyPos.Line > 0 {
		start = n.KeyPos
	}
	return start, d.End(n)
}

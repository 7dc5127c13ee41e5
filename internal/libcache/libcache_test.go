package libcache

import "testing"

type contents struct{ forgot []any }

func (c *contents) ForgetOwner(owner any) { c.forgot = append(c.forgot, owner) }

// TestCaches: the contents are made once, by the first caller, and
// ForgetOwner reaches them; before they are made it does nothing.
func TestCaches(t *testing.T) {
	var h Caches
	h.ForgetOwner("early") // nothing to forget yet
	first := &contents{}
	if got := h.Contents(func() Contents { return first }); got != first {
		t.Fatalf("the first call gave %v, want what it made", got)
	}
	if got := h.Contents(func() Contents { return &contents{} }); got != first {
		t.Errorf("the second call gave new contents, want the first's")
	}
	h.ForgetOwner("doc")
	if len(first.forgot) != 1 || first.forgot[0] != "doc" {
		t.Errorf("forgot %v, want [doc]", first.forgot)
	}
}

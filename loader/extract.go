package loader

// Extract returns the subtree at n as a document of its own, named name:
// its values keep their positions in n's source (src), so that what is
// reported about the document points into the file n was read from. The
// copy is bounded by the depth, values and scalar limits of opts; the
// serialization restrictions were those of the file n was read from.
func Extract(name string, src []byte, n *Node, opts Options) (*Document, error) {
	opts.Limits = opts.Limits.withDefaults()
	b := &builder{file: name, opts: opts}
	root, err := b.copyTree(n, nil, 0)
	if err != nil {
		return nil, err
	}
	root.key, root.KeyPos = nil, Pos{}
	format := "yaml"
	if len(src) > 0 && isJSON(name, src) {
		format = "json"
	}
	doc := &Document{Name: name, Format: format, Root: root, Source: src}
	size, count, ok := layout(root, MaxJSONBytes)
	if !ok {
		return nil, jsonSizeError(name)
	}
	doc.Values, doc.rendered, doc.jsonSize = count, true, size
	return doc, nil
}

// copyTree copies n and its descendants under parent.
func (b *builder) copyTree(n, parent *Node, depth int) (*Node, *Error) {
	c, err := b.newNode(n.Kind, n.Pos)
	if err != nil {
		return nil, err
	}
	c.Style, c.Parent, c.key, c.KeyPos = n.Style, parent, n.key, n.KeyPos
	switch n.Kind {
	case Array, Object:
		if depth+1 > b.opts.Limits.Depth {
			return nil, b.depthError(n.Pos)
		}
		kids := make([]*Node, n.Len())
		var index map[string]int
		for i, k := range n.Children() {
			if kids[i], err = b.copyTree(k, c, depth+1); err != nil {
				return nil, err
			}
			if n.Kind == Object {
				index = noteMember(kids[:i+1], index)
			}
		}
		if n.Kind == Array {
			finishArray(c, kids)
		} else {
			finishObject(c, kids, index)
		}
	case String:
		s := n.Value().(string)
		if len(s) > b.opts.Limits.ScalarBytes {
			return nil, b.scalarError(n.Pos, "a string", len(s))
		}
		c.setString(s)
	default:
		c.ptr, c.word = n.ptr, n.word
	}
	return c, nil
}

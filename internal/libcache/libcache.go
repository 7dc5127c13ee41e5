// Package libcache holds the handle by which the CEL environments of one
// program share what the celint library compiles from values (JSON
// Schemas, URI templates), and by which that program tells the library it
// is done with a document. Package cel fills it; package engine makes one
// per ruleset and hands it to every environment it builds.
package libcache

import "sync"

// Contents is what package cel keeps in Caches.
type Contents interface {
	// ForgetOwner drops what is kept for the values of the document
	// owner (celtree.Owned.Owner).
	ForgetOwner(owner any)
}

// Caches is a handle on the library's caches, shared by the environments
// built with it. The zero value is ready to use: package cel makes the
// contents when the first environment is built. It is safe for concurrent
// use.
type Caches struct {
	mu       sync.Mutex
	contents Contents
}

// Contents returns the caches' contents, made by make on the first call.
func (c *Caches) Contents(make func() Contents) Contents {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.contents == nil {
		c.contents = make()
	}
	return c.contents
}

// ForgetOwner drops what the caches keep for the values of the document
// owner, as Owned trees report it: what is computed from a document's
// schema is kept by the schema's tree, which keeps the document alive, so
// a program that is done with a document should forget it. What was
// compiled stays cached by content.
func (c *Caches) ForgetOwner(owner any) {
	c.mu.Lock()
	contents := c.contents
	c.mu.Unlock()
	if contents != nil {
		contents.ForgetOwner(owner)
	}
}

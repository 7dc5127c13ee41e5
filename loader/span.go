package loader

// spanCache holds what end positions are computed from; built on first use.
type spanCache struct{}

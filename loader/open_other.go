//go:build !unix

package loader

// openFlags: files are opened as usual; the Stat before opening refuses
// what is not a regular file.
const openFlags = 0

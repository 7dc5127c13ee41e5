//go:build unix

package loader

import "syscall"

// openFlags makes opening a named pipe return at once instead of waiting
// for a writer; regular files read as usual.
const openFlags = syscall.O_NONBLOCK

// Package outfile writes the files celint produces (reports, baselines,
// rule pages) as new regular files, so that what is already at the path
// cannot redirect or block the write.
//
// [Write] writes a temporary file in the target's folder and renames it
// over the target: a hard link to another file is broken, never written
// through; a reader never sees a half-written file, and a failed write
// leaves the old file as it was and no temporary file behind. Only a
// regular file, or nothing, may be at the path ([Check]): a symbolic link
// is refused rather than followed (its target could be anywhere, such as a
// file outside the workspace that a pull request links to) or replaced (a
// link such as /dev/stdout, or one a user made on purpose, would silently
// become a file); a folder, a named pipe, a device or a socket is refused
// too, as writing to a pipe would block until someone reads it.
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/celint/celint/loader"
)

// ErrNotRegular is the cause of the error for a path that holds something
// other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Mode is the permission of every file written.
const Mode fs.FileMode = 0o644

// Check reports whether path can be written: nothing is there yet and its
// folder exists, or a regular file is there. A symbolic link, a folder, a
// named pipe, a device or a socket is refused with an error wrapping
// ErrNotRegular; the error names path.
func Check(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		dst, derr := os.Stat(dir)
		if derr != nil {
			return fmt.Errorf("%s: cannot write: folder %s: %v", path, dir, unwrap(derr))
		}
		if !dst.IsDir() {
			return fmt.Errorf("%s: cannot write: %s is not a folder", path, dir)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: cannot write: %v", path, unwrap(err))
	}
	if st.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: cannot write over %s: %w; only regular files are written", path, loader.FileKind(st.Mode()), ErrNotRegular)
}

// Write writes what write writes to path as a new regular file of mode
// Mode: first to a temporary file in path's folder (named
// ".<name>.tmp<random>"), then renamed over path (rename replaces what is
// at path, even a link put there since Check, and never follows it). When
// write or any step fails, the temporary file is removed and path is left
// as it was. What Check refuses is refused here, before anything is
// written.
func Write(path string, write func(io.Writer) error) (err error) {
	if err := Check(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("%s: cannot write: %v", path, unwrap(err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return fmt.Errorf("%s: cannot write: %v", path, unwrap(err))
	}
	if err := tmp.Chmod(Mode); err != nil {
		return fmt.Errorf("%s: cannot write: %v", path, unwrap(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("%s: cannot write: %v", path, unwrap(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("%s: cannot write: %v", path, unwrap(err))
	}
	return nil
}

// WriteFile writes data to path as Write does.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// unwrap drops the operation and path of a *fs.PathError or
// *os.LinkError, which the caller's error already names.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

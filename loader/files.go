package loader

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is the cause of the error for a file that is not a regular
// file: a named pipe, a device, a socket or a directory. Such a file is
// never read (a pipe could block forever, a device never end).
var ErrNotRegular = errors.New("not a regular file")

// ErrOutside is the cause of the error for a name that DirFS's file system
// refuses because it leads outside the folder.
var ErrOutside = errors.New("leads outside the folder (through '..' or a symbolic link)")

// outside turns os.Root's error for a path that escapes into one wrapping
// ErrOutside; other errors are returned as they are.
func outside(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent" {
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: ErrOutside}
	}
	return err
}

// FileKind names what a file that is not regular is ("a named pipe
// (FIFO)", "a symbolic link", "a folder", …), for messages.
func FileKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

func notRegularError(file string, mode fs.FileMode) *Error {
	msg := "cannot read: " + FileKind(mode) + ", not a regular file; only regular files are read"
	if mode.Type() == fs.ModeIrregular || mode.Type() == 0 {
		msg = "cannot read: not a regular file; only regular files are read"
	}
	return &Error{File: file, Msg: msg, Err: ErrNotRegular}
}

// readRegular reads f, which has the info st, reported as file: at most
// limit bytes, and nothing unless it is a regular file.
func readRegular(f fs.File, st fs.FileInfo, file string, limit int64) ([]byte, error) {
	limit = min(limit, MaxBytes) // no document is larger; and limit+1 cannot overflow
	if !st.Mode().IsRegular() {
		return nil, notRegularError(file, st.Mode())
	}
	if st.Size() > limit {
		return nil, bytesLimitError(file, st.Size(), limit)
	}
	data, err := readAtMost(f, st.Size(), limit+1)
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	if int64(len(data)) > limit {
		return nil, limitError(file, Pos{}, "bytes",
			fmt.Sprintf("input is more than the limit of %d bytes", limit))
	}
	return data, nil
}

// readAtMost reads r to its end, or to most bytes. size is what the file's
// Stat said it holds: the buffer is made that large (plus one byte, to see
// the end) at once, where io.ReadAll would grow it by copies to up to twice
// the input; a file that grew since is still read, up to most.
func readAtMost(r io.Reader, size, most int64) ([]byte, error) {
	data := make([]byte, 0, min(max(size, 0)+1, most))
	for int64(len(data)) < most {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		room := data[len(data):int(min(int64(cap(data)), most))]
		n, err := r.Read(room)
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
	return data, nil
}

// readFile implements ReadFile: the file is checked with Stat (following
// symbolic links) before it is opened, and opened without blocking, so that
// a named pipe or a device is refused and never waited on; the opened file
// is checked again, so that a file replaced in between is refused too.
func readFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	if !st.Mode().IsRegular() {
		return nil, notRegularError(path, st.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, &Error{File: path, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, &Error{File: path, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	return readRegular(f, st, path, limit)
}

// ReadFS reads the file name of fsys, reported as file, as ReadFile reads a
// file: only a regular file, of at most limit bytes, checked with fs.Stat
// before it is opened and again once it is open. With a file system from
// DirFS, opening never blocks and never leaves the folder.
func ReadFS(fsys fs.FS, name, file string, limit int64) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	if !st.Mode().IsRegular() {
		return nil, notRegularError(file, st.Mode())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, &Error{File: file, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, &Error{File: file, Msg: "cannot read: " + unwrapPathError(err), Err: err}
	}
	return readRegular(f, st, file, limit)
}

// DirFS returns a read-only file system of the folder dir that never leaves
// it: names are resolved by an os.Root, so that neither ".." nor a symbolic
// link (anywhere on the path) can reach a file outside dir. Opening a file
// never blocks, and opens only regular files and folders; a named pipe or a
// device is refused with an error wrapping ErrNotRegular. The folder stays
// open until the file system is no longer used.
func DirFS(dir string) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return rootFS{root: root, fsys: root.FS()}, nil
}

// rootFS is DirFS's file system: root.FS, opening without blocking.
type rootFS struct {
	root *os.Root
	fsys fs.FS
}

// Open opens name without blocking, refusing what is not a regular file
// or a folder.
func (r rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := r.root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, outside(err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%s: %w", FileKind(st.Mode()), ErrNotRegular)}
	}
	return f, nil
}

// Stat returns the info of name (following symbolic links inside the
// folder) without opening it.
func (r rootFS) Stat(name string) (fs.FileInfo, error) {
	st, err := fs.Stat(r.fsys, name)
	return st, outside(err)
}

// ReadDir lists the folder name.
func (r rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(r.fsys, name)
	return entries, outside(err)
}

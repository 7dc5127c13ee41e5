package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// ContentSecurityPolicy is the policy of every response: the page's own
// files only, no inline script or style, WebAssembly compiled from its
// own module, nothing framed, no form posted, no request to any other
// origin.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// contentType returns the media type of a file served, by its
// extension; false for an extension that is not served.
func contentType(ext string) (string, bool) {
	switch ext {
	case ".html":
		return "text/html; charset=utf-8", true
	case ".js":
		return "text/javascript; charset=utf-8", true
	case ".css":
		return "text/css; charset=utf-8", true
	case ".json":
		return "application/json", true
	case ".wasm":
		return "application/wasm", true
	case ".png":
		return "image/png", true
	case ".svg":
		return "image/svg+xml", true
	}
	return "", false
}

// Handler serves the files of fsys: GET and HEAD only, / as index.html,
// every response with the ContentSecurityPolicy and nosniff. A file
// name.gz is served as name, gzip-encoded for a client that accepts it
// and decoded for one that does not.
func Handler(fsys fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-cache")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		ctype, ok := contentType(path.Ext(name))
		if !ok || !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		data, gzipped, err := read(fsys, name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		h.Set("Content-Type", ctype)
		if gzipped {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r) {
				h.Set("Content-Encoding", "gzip")
			} else if data, err = gunzip(data); err != nil {
				http.Error(w, "corrupt file", http.StatusInternalServerError)
				return
			}
		}
		h.Set("Content-Length", strconv.Itoa(len(data)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(data)
	})
}

// read returns the file name of fsys, or else name.gz, gzipped.
func read(fsys fs.FS, name string) (data []byte, gzipped bool, err error) {
	data, err = fs.ReadFile(fsys, name)
	if err == nil {
		return data, false, nil
	}
	data, err = fs.ReadFile(fsys, name+".gz")
	return data, err == nil, err
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(coding), "gzip") || strings.TrimSpace(coding) == "*" {
				q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
				return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
			}
		}
	}
	return false
}

// gunzip decodes gzipped data.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

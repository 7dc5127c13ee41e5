package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// gz returns data gzipped.
func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// module stands for the WebAssembly module.
var module = []byte("\x00asm\x01\x00\x00\x00 a module")

// built is a playground with its generated files.
func built(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><title>p</title>")},
		"app.js":             {Data: []byte("'use strict';")},
		"style.css":          {Data: []byte("body{}")},
		"gen/celint.wasm.gz": {Data: gz(t, module)},
		"gen/wasm_exec.js":   {Data: []byte("'use strict';")},
		"gen/examples.json":  {Data: []byte("[]")},
		"secret.txt":         {Data: []byte("not served")},
	}
}

// get requests path of h, with headers as "Name: value" pairs.
func get(h http.Handler, method, path string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ": ")
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestHandler: every response has the strict policy and nosniff; each
// file its media type (application/wasm for the module); the module goes
// gzip-encoded to a client that takes it and decoded to one that does
// not; files of other kinds, paths outside, and methods other than GET and
// HEAD are refused.
func TestHandler(t *testing.T) {
	h := Handler(built(t))
	for _, c := range []struct{ path, ctype string }{
		{"/", "text/html; charset=utf-8"},
		{"/index.html", "text/html; charset=utf-8"},
		{"/app.js", "text/javascript; charset=utf-8"},
		{"/style.css", "text/css; charset=utf-8"},
		{"/gen/examples.json", "application/json"},
		{"/gen/celint.wasm", "application/wasm"},
	} {
		w := get(h, "GET", c.path)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != c.ctype {
			t.Errorf("GET %s: %d %q, want 200 %q", c.path, w.Code, w.Header().Get("Content-Type"), c.ctype)
		}
	}
	for _, path := range []string{"/", "/gen/celint.wasm", "/nothing.js", "/secret.txt"} {
		w := get(h, "GET", path)
		csp := w.Header().Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "object-src 'none'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: the policy %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "'unsafe-eval'") || strings.Contains(csp, "*") {
			t.Errorf("GET %s: the policy %q allows too much", path, csp)
		}
		if w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", path)
		}
	}

	w := get(h, "GET", "/gen/celint.wasm", "Accept-Encoding: gzip, deflate, br")
	if w.Header().Get("Content-Encoding") != "gzip" || !bytes.Equal(w.Body.Bytes(), gz(t, module)) {
		t.Errorf("gzip: %q %q", w.Header().Get("Content-Encoding"), w.Body.Bytes())
	}
	for _, accept := range []string{"", "identity", "gzip;q=0, br"} {
		w = get(h, "GET", "/gen/celint.wasm", "Accept-Encoding: "+accept)
		if w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), module) || w.Header().Get("Content-Length") != strconv.Itoa(len(module)) {
			t.Errorf("Accept-Encoding %q: %q %q", accept, w.Header().Get("Content-Encoding"), w.Body.Bytes())
		}
	}
	if w := get(h, "HEAD", "/app.js"); w.Code != http.StatusOK || w.Body.Len() != 0 || w.Header().Get("Content-Length") != "13" {
		t.Errorf("HEAD: %d %q", w.Code, w.Body.String())
	}
	for _, c := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/secret.txt", http.StatusNotFound},
		{"GET", "/nothing.js", http.StatusNotFound},
		{"GET", "/../web.go", http.StatusNotFound},
		{"GET", "/gen/", http.StatusNotFound},
		{"POST", "/", http.StatusMethodNotAllowed},
		{"PUT", "/app.js", http.StatusMethodNotAllowed},
	} {
		if w := get(h, c.method, c.path); w.Code != c.code {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, w.Code, c.code)
		}
	}
}

// TestCheckAddr: loopback addresses and localhost are taken; an empty
// host (every interface), any other address and a name are not.
func TestCheckAddr(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:0", "127.0.0.2:8740", "[::1]:0", "localhost:80", "LOCALHOST:0"} {
		if err := CheckAddr(ok); err != nil {
			t.Errorf("CheckAddr(%s): %v", ok, err)
		}
	}
	for _, bad := range []string{":8740", "0.0.0.0:0", "[::]:0", "192.0.2.1:0", "example.com:0", "localhost.example.com:0"} {
		if err := CheckAddr(bad); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("CheckAddr(%s): %v, want ErrNotLoopback", bad, err)
		}
	}
	if err := CheckAddr("127.0.0.1"); err == nil {
		t.Error("an address without a port is taken")
	}
}

// TestServe: Serve refuses a playground without its generated files and a
// non-loopback address; on a loopback one it serves the page, answers
// only requests that name a loopback host, and stops when its context
// ends.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	incomplete := built(t)
	delete(incomplete, "gen/celint.wasm.gz")
	if err := Serve(ctx, "127.0.0.1:0", ServeOptions{Files: incomplete}); err == nil || !strings.Contains(err.Error(), "go generate ./web") {
		t.Errorf("without the module: %v", err)
	}
	if err := Serve(ctx, "0.0.0.0:0", ServeOptions{Files: built(t)}); !errors.Is(err, ErrNotLoopback) {
		t.Errorf("0.0.0.0: %v", err)
	}

	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", ServeOptions{Files: built(t), Ready: func(u string) { urls <- u }})
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<title>p</title>") || resp.Header.Get("Content-Security-Policy") != ContentSecurityPolicy {
		t.Errorf("GET %s: %d %q", url, resp.StatusCode, body)
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Host = "rebound.example.com"
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host: rebound.example.com: %d, want 421", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after its context ended: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop when its context ended")
	}
}

package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"
)

// ServeOptions say how Serve serves the playground.
type ServeOptions struct {
	// Files are what is served (Files()).
	Files fs.FS
	// AllowRemote lets addr be an address other machines reach. Without
	// it only a loopback address is taken, and only requests naming a
	// loopback host (Host: 127.0.0.1:port, localhost:port, [::1]:port)
	// are answered, which keeps a web page elsewhere from reading the
	// server through a DNS name it rebinds to 127.0.0.1.
	AllowRemote bool
	// Ready, when not nil, is called with the URL of the page once the
	// server listens.
	Ready func(url string)
}

// ErrNotLoopback is the error of an address other machines could reach,
// refused without ServeOptions.AllowRemote.
var ErrNotLoopback = errors.New("not a loopback address")

// CheckAddr reports whether addr (host:port) is a loopback address: an IP
// address of the loopback network or localhost. An empty host, which
// listens on every interface, is not.
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if !loopbackHost(host) {
		return fmt.Errorf("%w: %q (use 127.0.0.1, ::1 or localhost)", ErrNotLoopback, addr)
	}
	return nil
}

// loopbackHost reports whether host is localhost or a loopback IP.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves the playground on addr until ctx is done, then shuts the
// server down. It makes no request of its own: it answers with the files
// it is given.
func Serve(ctx context.Context, addr string, opts ServeOptions) error {
	if missing := Missing(opts.Files); len(missing) > 0 {
		return fmt.Errorf("the playground is not built into this celint (no %s): run 'go generate ./web', then build celint again", strings.Join(missing, ", "))
	}
	if !opts.AllowRemote {
		if err := CheckAddr(addr); err != nil {
			return err
		}
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	tcp, _ := l.Addr().(*net.TCPAddr)
	if !opts.AllowRemote && (tcp == nil || !tcp.IP.IsLoopback()) {
		l.Close()
		return fmt.Errorf("%w: %s listens on %s", ErrNotLoopback, addr, l.Addr())
	}
	h := Handler(opts.Files)
	if !opts.AllowRemote {
		h = loopbackOnly(h)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	if opts.Ready != nil {
		opts.Ready("http://" + l.Addr().String() + "/")
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
		return nil
	}
}

// loopbackOnly answers the requests whose Host is a loopback host, and
// refuses the others with 421 Misdirected Request.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if hh, _, err := net.SplitHostPort(host); err == nil {
			host = hh
		}
		if !loopbackHost(strings.Trim(host, "[]")) {
			http.Error(w, "celint serves its playground to loopback hosts only", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

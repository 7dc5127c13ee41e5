package main

import (
	"context"
	"fmt"
	"io"

	"github.com/celint/celint/web"
)

// defaultServeAddr is where celint serve listens unless told otherwise.
const defaultServeAddr = "127.0.0.1:8740"

// runServe serves the browser playground until interrupted.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	var addr string
	var allowRemote bool
	fset := newFlagSet("serve", "serve [--addr HOST:PORT] [--allow-remote]\n\nServes the browser playground: celint compiled to WebAssembly, which lints in the browser; nothing typed into the page leaves it.", stdout)
	fset.StringVar(&addr, "addr", defaultServeAddr, "listen on this `host:port` (a loopback address; port 0 picks a free one)")
	fset.BoolVar(&allowRemote, "allow-remote", false, "take an address other machines reach (a container's 0.0.0.0); the page is static, but it is then served to anyone who can connect")
	rest, err := parseFlags(fset, args)
	if err != nil {
		return exitError, err
	}
	if len(rest) > 0 {
		return exitError, &usageError{command: "serve", msg: fmt.Sprintf("serve takes no arguments, got %q", rest)}
	}
	if !allowRemote {
		if err := web.CheckAddr(addr); err != nil {
			return exitError, &usageError{command: "serve", msg: fmt.Sprintf("--addr: %v; --allow-remote takes another", err)}
		}
	}
	err = web.Serve(ctx, addr, web.ServeOptions{
		Files:       web.Files(),
		AllowRemote: allowRemote,
		Ready: func(url string) {
			fmt.Fprintf(stdout, "celint playground on %s (Ctrl-C stops it)\n", url)
		},
	})
	if err != nil {
		return exitError, fmt.Errorf("serve: %w", err)
	}
	return exitOK, nil
}

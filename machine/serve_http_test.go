package machine

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
)

func TestHTTPServerTimeouts(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout != ReadHeaderTimeout || srv.ReadTimeout != ReadTimeout || srv.WriteTimeout != 0 {
		t.Fatalf("%v %v %v", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout)
	}
}

// When the server stops (SIGTERM), every request in flight is cancelled and
// Serve returns only after its child's process group is gone, even for a
// child that ignores SIGTERM: nothing outlives the server.
func TestServeStopsInFlightChildrenBeforeReturning(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")
	pidfile := filepath.Join(t.TempDir(), "pid")
	iv := newStubInvoker(t, stub, "stubborn", "STUB_PIDFILE="+pidfile)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	env := &cli.Env{Stdout: io.Discard, Stderr: io.Discard, Home: iv.home, Version: "test",
		LookupEnv: func(k string) (string, bool) {
			if k == inbound.EnvMCPToken {
				return "stop-token", true
			}
			return "", false
		}}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, env, iv.Invoker, cli.ServeConfig{Transport: "http", Host: "127.0.0.1", Port: port, Timeout: time.Minute})
	}()
	hc := &http.Client{Transport: bearer{"stop-token", http.DefaultTransport}}
	var cs *mcp.ClientSession
	for i := 0; i < 100; i++ {
		if cs, err = mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), HTTPClient: hc}, nil); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go func() { _, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "relavium-stub-read"}) }()
	var pid int
	for i := 0; i < 500 && pid == 0; i++ {
		if b, err := os.ReadFile(pidfile); err == nil {
			_, _ = scanPids(string(b), &pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the child never started")
	}
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return")
	}
	if procAlive(pid) {
		t.Fatalf("Serve returned while its child %d was still running", pid)
	}
}

// On stdio too, stopping the server (SIGTERM cancels its context) cancels a
// call in flight, so the server does not wait for the child to finish by
// itself, and Serve returns only after the child is gone.
func TestServeStdioStopCancelsCallsInFlight(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")
	pidfile := filepath.Join(t.TempDir(), "pid")
	iv := newStubInvoker(t, stub, "stubborn", "STUB_PIDFILE="+pidfile)
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	env := &cli.Env{Stdin: serverR, Stdout: serverW, Stderr: io.Discard, Home: iv.home, Version: "test"}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- Serve(ctx, env, iv.Invoker, cli.ServeConfig{Transport: "stdio", Timeout: time.Minute})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
		&mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	called := make(chan struct{})
	go func() {
		defer close(called)
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "relavium-stub-read"})
	}()
	defer func() { // the server side is gone: closing the pipes ends the client
		serverW.Close()
		clientW.Close()
		cs.Close()
		<-called
	}()
	var pid int
	for i := 0; i < 500 && pid == 0; i++ {
		if b, err := os.ReadFile(pidfile); err == nil {
			_, _ = scanPids(string(b), &pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatal("the child never started")
	}
	stop()
	select {
	case <-served:
	case <-time.After(3 * KillGrace):
		t.Fatal("Serve did not return: the call in flight was not cancelled")
	}
	if procAlive(pid) {
		t.Fatalf("Serve returned while its child %d was still running", pid)
	}
}

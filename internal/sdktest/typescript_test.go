package sdktest_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
)

// TestTypeScriptMemberScenario installs the pinned TypeScript toolchain
// (npm ci, package-lock.json), generates the types from the contract,
// type-checks ts/scenario.ts with tsc --strict and runs it with node against
// a live server in store test mode, behind Prism's validating proxy
// (prism proxy --errors): a request or an answer that breaks the contract
// answers Prism's error instead, and any violation Prism logs fails the test.
// Node and npm are required: CI installs
// them (.ci/run); without them the test fails, it does not skip.
func TestTypeScriptMemberScenario(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on PATH: the TypeScript SDK scenario needs Node.js 20+ and npm "+
				"(apt-get install nodejs npm; .ci/run installs them)", tool)
		}
	}
	dir, err := filepath.Abs("ts")
	if err != nil {
		t.Fatal(err)
	}
	run := func(env []string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		t.Logf("%s %v:\n%s", name, args, out)
	}
	run(nil, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline")
	bin := func(name string) string { return filepath.Join(dir, "node_modules", ".bin", name) }
	run(nil, bin("openapi-typescript"), filepath.Join("..", "..", "..", "api", "openapi.yaml"), "-o", filepath.Join("gen", "api.d.ts"))
	run(nil, bin("tsc"), "-p", ".", "--strict")

	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.StoreTestMode = true }))
	proxy, prismLog := startPrism(t, bin("prism"), filepath.Join("..", "..", "..", "api", "openapi.yaml"), env.Server.URL, dir)
	// The proxy validates: a login without its required fields is Prism's
	// own 422, not the server's answer. Its log line is left out of the scan.
	probe, err := http.Post(proxy+"/api/auth/login", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(probe.Body)
	_ = probe.Body.Close()
	if probe.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "stoplight.io/prism/errors") {
		t.Fatalf("prism proxy --errors let an invalid request through: %d %s", probe.StatusCode, body)
	}
	for wait := time.Now().Add(10 * time.Second); !strings.Contains(prismLog.String(), "post /api/auth/login ✖"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatalf("prism proxy did not log the invalid request:\n%s", prismLog)
		}
	}
	probed := len(prismLog.String())
	run([]string{
		"NESTEGG_URL=" + proxy,
		"NESTEGG_DIRECT_URL=" + env.Server.URL, // the image upload: Prism changes binary bodies
		"NESTEGG_TODAY=" + apitest.Start.Format("2006-01-02"),
	}, "node", filepath.Join("out", "scenario.js"))
	// With --errors a violation ends the request with Prism's error (a request
	// one UNPROCESSABLE_ENTITY, an answer's VIOLATIONS, both "✖ error"); a
	// violation of warning severity is logged "⚠ warning … Violation". Any of
	// them fails the scenario, whatever the scenario made of the answer.
	var violations []string
	for _, line := range strings.Split(prismLog.String()[probed:], "\n") {
		if strings.Contains(strings.ToLower(line), "violation") || strings.Contains(line, "✖") || strings.Contains(line, "⚠") {
			violations = append(violations, line)
		}
	}
	if len(violations) > 0 {
		t.Fatalf("Prism reported %d violations or errors:\n%s", len(violations), strings.Join(violations, "\n"))
	}
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startPrism starts `prism proxy --errors` for the contract in front of
// upstream on a free local port, waits until it listens and stops it when the
// test ends. It answers the proxy's base URL and Prism's output.
func startPrism(t *testing.T, prism, contract, upstream, dir string) (string, *lockedBuffer) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	cmd := exec.Command(prism, "proxy", contract, upstream, "--errors", "--port", fmt.Sprint(port), "--host", "127.0.0.1")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("prism proxy: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		t.Logf("prism proxy:\n%s", out)
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("prism proxy exited before it listened: %v\n%s", err, out)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = c.Close()
			return "http://" + addr, out
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism proxy did not listen on %s within 90s:\n%s", addr, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

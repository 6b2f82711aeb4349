package sdktest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
)

// TestTypeScriptMemberScenario installs the pinned TypeScript toolchain
// (npm ci, package-lock.json), generates the types from the contract,
// type-checks ts/scenario.ts with tsc --strict and runs it with node against
// a live server in store test mode. Node and npm are required: CI installs
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
	run([]string{
		"NESTEGG_URL=" + env.Server.URL,
		"NESTEGG_TODAY=" + apitest.Start.Format("2006-01-02"),
	}, "node", filepath.Join("out", "scenario.js"))
}

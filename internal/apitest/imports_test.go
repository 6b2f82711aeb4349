package apitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path"
	"strings"
	"testing"
)

const module = "github.com/nestegg/nestegg"

// Test helpers (apitest, dbtest, the fakes of outside services) stand above
// the whole service: apitest builds internal/app. A production package that
// imported one would pull the harness, and every package it builds, into the
// binary. Only helpers may import helpers outside _test.go files.
func TestNoProductionPackageImportsATestHelper(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports", module+"/...")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}

	helpers := 0
	dec := json.NewDecoder(&stdout)
	for {
		var pkg struct {
			ImportPath string
			Imports    []string // without the imports of _test.go files
		}
		err := dec.Decode(&pkg)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		if isTestHelper(pkg.ImportPath) {
			helpers++
			continue
		}
		for _, imp := range pkg.Imports {
			if isTestHelper(imp) {
				t.Errorf("%s imports the test helper %s outside its tests", pkg.ImportPath, imp)
			}
		}
	}
	if helpers == 0 {
		t.Fatal("go list named no test helper package: the check would pass vacuously")
	}
}

// isTestHelper reports whether the import path is one of this module's test
// helper packages, which Go names …test (apitest, dbtest, fxtest, …).
func isTestHelper(importPath string) bool {
	return strings.HasPrefix(importPath, module+"/") && strings.HasSuffix(path.Base(importPath), "test")
}

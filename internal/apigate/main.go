// Command apigate is the breaking-change gate `make check` runs: it compares
// the contract (api/openapi.yaml) with the last released one
// (api/released/openapi.yaml) using oasdiff's breaking-change check, and
// fails on an error-level break unless the contract says it is a new major
// release: info.version has a higher major number than the released one AND
// info.x-release-notes names that version. Cutting a release (README) copies
// the contract to api/released (`make release`).
//
//	go run ./internal/apigate [-base api/released/openapi.yaml] [-rev api/openapi.yaml]
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

func main() {
	base := flag.String("base", "api/released/openapi.yaml", "the last released contract")
	rev := flag.String("rev", "api/openapi.yaml", "the contract as it is now")
	flag.Parse()
	if err := check(*base, *rev, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "apigate:", err)
		os.Exit(1)
	}
}

// info is what the gate reads from a contract's info object.
type info struct {
	version string
	major   int
	notes   string
}

func readInfo(path string) (info, error) {
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		return info{}, fmt.Errorf("load %s: %w", path, err)
	}
	if doc.Info == nil || doc.Info.Version == "" {
		return info{}, fmt.Errorf("%s: info.version is missing", path)
	}
	v := doc.Info.Version
	major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if err != nil || major < 0 {
		return info{}, fmt.Errorf("%s: info.version %q is not MAJOR.MINOR.PATCH", path, v)
	}
	notes, _ := doc.Info.Extensions["x-release-notes"].(string)
	return info{version: v, major: major, notes: notes}, nil
}

// check runs the gate on two contract files and reports on w.
func check(basePath, revPath string, w io.Writer) error {
	base, err := readInfo(basePath)
	if err != nil {
		return err
	}
	rev, err := readInfo(revPath)
	if err != nil {
		return err
	}
	report, broken, err := breaking(basePath, revPath)
	if err != nil {
		return err
	}
	fmt.Fprint(w, report)
	if !broken {
		fmt.Fprintf(w, "apigate: %s (%s) keeps every promise of released %s\n", revPath, rev.version, base.version)
		return nil
	}
	switch {
	case rev.major <= base.major:
		return fmt.Errorf("%s breaks released %s (above) without a new major version: "+
			"undo the change, or set info.version to %d.0.0 and say why in info.x-release-notes", revPath, base.version, base.major+1)
	case !strings.Contains(rev.notes, rev.version):
		return fmt.Errorf("%s breaks released %s (above): info.version is %s, but info.x-release-notes does not name %s and say what broke",
			revPath, base.version, rev.version, rev.version)
	}
	fmt.Fprintf(w, "apigate: breaking changes above are released as %s (major version and release notes say so)\n", rev.version)
	return nil
}

// severityLevels re-rate oasdiff's checks where the contract promises more
// than oasdiff assumes: answers may carry values added later (info.description,
// "Values added later"), so a value added to an answer's enum, or a kind added
// to the changes feed's union, is a warning, not a break.
const severityLevels = `response-property-enum-value-added WARN
response-property-one-of-added WARN
response-body-one-of-added WARN
`

// breaking runs `oasdiff breaking --fail-on ERR` through the tools module
// and reports whether it found an error-level break.
func breaking(basePath, revPath string) (report string, broken bool, err error) {
	root, err := moduleRoot()
	if err != nil {
		return "", false, err
	}
	levels, err := os.CreateTemp("", "apigate-levels-*.txt")
	if err != nil {
		return "", false, err
	}
	defer os.Remove(levels.Name())
	if _, err := levels.WriteString(severityLevels); err != nil {
		levels.Close()
		return "", false, err
	}
	if err := levels.Close(); err != nil {
		return "", false, err
	}
	cmd := exec.Command("go", "tool", "-modfile="+filepath.Join(root, "internal", "tools", "go.mod"),
		"oasdiff", "breaking", "--fail-on", "ERR", "--severity-levels", levels.Name(), "--color", "never", basePath, revPath)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), false, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1 && stderr.Len() == 0:
		return out.String(), true, nil
	}
	return "", false, fmt.Errorf("oasdiff breaking: %w\n%s%s", err, out.String(), stderr.String())
}

// moduleRoot is the directory of the main module's go.mod, the parent of
// internal/tools.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "internal", "tools", "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("internal/tools/go.mod not found above the working directory")
		}
		dir = parent
	}
}

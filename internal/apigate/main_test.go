package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	versionLine = regexp.MustCompile(`(?m)^  version: .*$`)
	notesLine   = regexp.MustCompile(`(?m)^  x-release-notes: \|\n`)
)

// contract is the current contract with its info.version set to version
// and, when note is given, a release note added; edit changes the rest.
func contract(t *testing.T, version, note string, edit func(string) string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "api", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !versionLine.MatchString(s) || !notesLine.MatchString(s) {
		t.Fatal("api/openapi.yaml has no info.version or info.x-release-notes block")
	}
	loc := versionLine.FindStringIndex(s)
	s = s[:loc[0]] + "  version: " + version + s[loc[1]:]
	if note != "" {
		loc = notesLine.FindStringIndex(s)
		s = s[:loc[1]] + "    " + note + "\n" + s[loc[1]:]
	}
	if edit != nil {
		s = edit(s)
	}
	path := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func replaceOnce(t *testing.T, old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("the contract no longer contains %q: pick another edit for this test", old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func TestGate(t *testing.T) {
	t.Parallel()
	// Breaks: a path goes, and a response property goes (Points.points).
	removePath := replaceOnce(t, "\n  /api/auth/points:\n", "\n  /api/auth/points-gone:\n")
	removeProperty := replaceOnce(t, "    Points:\n      type: object\n      required: [points]\n      properties:\n        points:\n",
		"    Points:\n      type: object\n      properties:\n        total:\n")
	// A compatible change: a new optional response property.
	addProperty := replaceOnce(t, "    Points:\n      type: object\n      required: [points]\n      properties:\n",
		"    Points:\n      type: object\n      required: [points]\n      properties:\n        note:\n          type: string\n")

	// Answers' enums are open: a value added to one is not a break.
	addEnumValue := replaceOnce(t, "enum: [UPSERT, DELETE]", "enum: [UPSERT, DELETE, ARCHIVE]")

	base := contract(t, "1.0.0", "", nil)
	for _, c := range []struct {
		name    string
		rev     string
		passes  bool
		message string
	}{
		{"unchanged", contract(t, "1.0.0", "", nil), true, ""},
		{"compatible change", contract(t, "1.1.0", "", addProperty), true, ""},
		{"answer enum value added", contract(t, "1.1.0", "", addEnumValue), true, ""},
		{"path removed", contract(t, "1.0.0", "", removePath), false, "without a new major version"},
		{"response property removed", contract(t, "1.0.0", "", removeProperty), false, "without a new major version"},
		{"path removed in a minor release with notes", contract(t, "1.1.0", "1.1.0: /api/auth/points is gone.", removePath), false, "without a new major version"},
		// 3.0.0: the contract's own notes already name the releases before it.
		{"path removed in a major release without notes", contract(t, "3.0.0", "", removePath), false, "does not name 3.0.0"},
		{"path removed in a major release with notes", contract(t, "3.0.0", "3.0.0: /api/auth/points is gone; read points from the profile.", removePath), true, ""},
	} {
		var out strings.Builder
		err := check(base, c.rev, &out)
		switch {
		case c.passes && err != nil:
			t.Errorf("%s: gate failed: %v\n%s", c.name, err, out.String())
		case !c.passes && err == nil:
			t.Errorf("%s: gate passed a breaking change\n%s", c.name, out.String())
		case !c.passes && !strings.Contains(err.Error(), c.message):
			t.Errorf("%s: gate failed with %q, want it to say %q", c.name, err, c.message)
		case !c.passes && !strings.Contains(out.String(), "error\t["):
			t.Errorf("%s: gate failed without oasdiff's report:\n%s", c.name, out.String())
		}
	}
}

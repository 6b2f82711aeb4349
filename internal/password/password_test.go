package password

import (
	"strings"
	"testing"
)

func TestHashAndVerify(t *testing.T) {
	t.Parallel()
	h, err := Hash("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$") {
		t.Fatalf("hash %q is not argon2id", h)
	}
	if ok, err := Verify("correct horse battery", &h); err != nil || !ok {
		t.Fatalf("right password: %v %v", ok, err)
	}
	if ok, _ := Verify("correct horse batterY", &h); ok {
		t.Fatal("wrong password accepted")
	}
	if ok, _ := Verify("anything", nil); ok {
		t.Fatal("member without a password matched")
	}
	// Not truncated: a long password differs from its prefix.
	long := strings.Repeat("a", 128)
	hl, _ := Hash(long)
	if ok, _ := Verify(long[:127], &hl); ok {
		t.Fatal("password truncated")
	}
}

func TestValidLength(t *testing.T) {
	t.Parallel()
	for pw, want := range map[string]bool{
		"1234567":                false,
		"12345678":               true,
		strings.Repeat("가", 8):   true, // characters, not bytes
		strings.Repeat("x", 128): true,
		strings.Repeat("x", 129): false,
	} {
		if got := ValidLength(pw); got != want {
			t.Errorf("ValidLength(%d chars) = %v", len([]rune(pw)), got)
		}
	}
}

package text

import "testing"

func TestCheckLine(t *testing.T) {
	t.Parallel()
	for s, ok := range map[string]bool{
		"Minji":                true,
		"김민지":                  true,
		"José 🙂":               true,
		"👨\u200d👩\u200d👧":      true, // emoji joined by ZWJ
		"a\x00b":               false,
		"esc\x1b[31m":          false,
		"admin\u202egnp.exe":   false, // right-to-left override
		"zero\u200bwidth":      false,
		"isolate\u2066x\u2069": false,
		"line\nbreak":          false,
		"bom\ufeff":            false,
		"del\x7f":              false,
		"line\u2028separator":  false,
		"bad utf8 \xff":        false,
	} {
		if err := CheckLine("/name", s); (err == nil) != ok {
			t.Errorf("CheckLine(%q) = %v, want ok=%v", s, err, ok)
		}
	}
}

func TestCheckMultiline(t *testing.T) {
	t.Parallel()
	if err := CheckMultiline("/body", "first\nsecond\tcolumn\r\n"); err != nil {
		t.Fatal(err)
	}
	if err := CheckMultiline("/body", "x\u202ey"); err == nil {
		t.Fatal("direction override accepted in a body")
	}
}

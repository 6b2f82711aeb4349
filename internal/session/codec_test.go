package session

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// The hand reader and encoding/json read every encoded session alike, and
// the hand reader takes every session whose strings need no escaping.
func TestSessionsReadAsEncodingJSONReadsThem(t *testing.T) {
	t.Parallel()
	names := []string{"", "Load", "김민지", "O'Brien", `say "hi"`, `back\slash`, "<b>&amp;</b>", "tab\there", "😀 emoji", "\u2028line", "a/b"}
	roles := []string{"", "USER", "ADMIN"}
	plans := []string{"", "FREE", "PREMIUM"}
	rng := rand.New(rand.NewPCG(1, 2))
	zones := []*time.Location{time.UTC, time.FixedZone("KST", 9*3600), time.FixedZone("", -(3*3600 + 30*60))}
	plain := 0
	for i := range 2000 {
		deadline := time.Date(2026, 1, 1, 0, 0, 0, 0, zones[i%len(zones)]).Add(time.Duration(rng.Int64N(int64(400 * 24 * time.Hour))))
		if i%3 == 0 {
			deadline = deadline.Truncate(time.Second)
		}
		m := map[string]any{
			keyMemberID: rng.Int64N(1 << 62), keyEpoch: rng.Int64N(1000) - 1,
			keyName: names[rng.IntN(len(names))], keyRole: roles[rng.IntN(len(roles))], keyPlan: plans[rng.IntN(len(plans))],
		}
		b, err := codec{}.Encode(deadline, m)
		if err != nil {
			t.Fatal(err)
		}
		var want values
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := decodeValues(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !got.Deadline.Equal(want.Deadline) || got.Deadline.String() != want.Deadline.String() {
			t.Fatalf("%s: deadline %s, encoding/json %s", b, got.Deadline, want.Deadline)
		}
		got.Deadline, want.Deadline = time.Time{}, time.Time{}
		if got != want {
			t.Fatalf("%s: read %+v, encoding/json %+v", b, got, want)
		}
		if _, ok := readEncoded(b); ok {
			plain++
		} else if name := m[keyName].(string); name == "Load" || name == "김민지" || name == "" || name == "O'Brien" {
			t.Fatalf("%s: a string without escapes went to encoding/json", b)
		}
	}
	if plain < 500 {
		t.Fatalf("only %d of 2000 sessions were read by hand", plain)
	}
}

// Sessions not in Encode's exact form are still read (by encoding/json), or
// refused as unreadable, never misread.
func TestSessionsInOtherFormsAreReadByEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in       string
		memberID int64
		name     string
		bad      bool
	}{
		{in: `{"m":7,"d":"2026-12-01T00:00:00Z","e":1,"n":"Kim"}`, memberID: 7, name: "Kim"},
		{in: `{ "d": "2026-12-01T00:00:00Z", "m": 8, "e": 0 }`, memberID: 8},
		{in: `{"d":"2026-12-01T00:00:00Z","m":9,"n":"Kim\u0041","e":0}`, memberID: 9, name: "KimA"},
		{in: `{"d":"2026-12-01T00:00:00Z","m":10,"e":0,"x":1}`, memberID: 10},
		{in: `{"d":"2026-12-01T00:00:00Z","m":11,"e":0}garbage`, bad: true},
		{in: `{"d":"yesterday","m":12,"e":0}`, bad: true},
		{in: `{"d":"2026-12-01T00:00:00Z","m":99999999999999999999,"e":0}`, bad: true},
		{in: "{\"d\":\"2026-12-01T00:00:00Z\",\"m\":13,\"n\":\"\xff\",\"e\":0}", memberID: 13, name: "\ufffd"},
		{in: `{"d":"2026-12-01T00:00:00Z","m":14,"n":"unterminated,"e":0}`, bad: true},
	} {
		v, err := decodeValues([]byte(tc.in))
		if tc.bad {
			if err == nil {
				t.Errorf("%s read as %+v", tc.in, v)
			}
			continue
		}
		if err != nil || v.MemberID != tc.memberID || v.Name != tc.name {
			t.Errorf("%s: read %+v (%v), want member %d named %q", tc.in, v, err, tc.memberID, tc.name)
		}
	}
}

func BenchmarkSessionDecode(b *testing.B) {
	enc, err := codec{}.Encode(time.Now().Add(time.Hour), map[string]any{keyMemberID: int64(12345), keyName: "Load", keyRole: "USER", keyPlan: "FREE", keyEpoch: int64(3)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := (codec{}).Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}

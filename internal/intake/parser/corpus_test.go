package parser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// The corpus was written by the parser's author from the issuers' published
// layouts, so it flatters the parser: today every field of every sample is
// read right. The floors leave room for a handful of samples (5 of ~100) to
// be added that document a weakness before it is fixed, and no more: a fall
// below them is a regression, not noise, since the parser is deterministic.
const (
	minFieldAccuracy  = 0.98
	minSampleAccuracy = 0.95
)

type sample struct {
	Name   string                     `json:"name"`
	Kind   string                     `json:"kind"`
	Posted time.Time                  `json:"posted"`
	Today  string                     `json:"today"`
	Text   string                     `json:"text"`
	Want   map[string]json.RawMessage `json:"want"`
}

func loadSamples(t *testing.T, file string) []sample {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return out
}

var seoul = mustLocation("Asia/Seoul")

func mustLocation(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// got returns the parser's fields of s, spelled as the corpus spells them.
func got(t *testing.T, s sample) map[string]string {
	switch s.Kind {
	case "notification":
		n := ParseNotification(s.Text, s.Posted.In(seoul))
		return map[string]string{
			"kind": string(n.Kind), "reason": n.Reason, "issuer": n.Issuer, "cardName": n.CardName,
			"last4": n.Last4, "amount": fmt.Sprint(n.Amount), "currency": n.Currency,
			"originalAmount": n.OriginalAmount.String(), "installments": fmt.Sprint(n.Installments),
			"merchant": n.Merchant, "at": n.At.Format(time.RFC3339),
		}
	case "text":
		today, err := time.ParseInLocation(time.DateOnly, s.Today, seoul)
		if err != nil {
			t.Fatalf("%s: today: %v", s.Name, err)
		}
		d, ok := ParseText(s.Text, today.Add(10*time.Hour))
		if !ok {
			return map[string]string{"found": "false"}
		}
		return map[string]string{
			"found": "true", "type": string(d.Type), "amount": fmt.Sprint(d.Amount), "merchant": d.Merchant,
			"date": d.Date.Format(time.DateOnly),
		}
	}
	t.Fatalf("%s: unknown kind %q", s.Name, s.Kind)
	return nil
}

func wantString(t *testing.T, field string, raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", field, err)
	}
	switch field {
	case "originalAmount":
		return decimal.RequireFromString(v.(string)).String()
	case "at":
		at, err := time.Parse(time.RFC3339, v.(string))
		if err != nil {
			t.Fatal(err)
		}
		return at.In(seoul).Format(time.RFC3339)
	}
	return fmt.Sprint(v)
}

func TestCorpusAccuracy(t *testing.T) {
	t.Parallel()
	var samples []sample
	samples = append(samples, loadSamples(t, "testdata/notifications.json")...)
	samples = append(samples, loadSamples(t, "testdata/texts.json")...)
	if len(samples) < 80 {
		t.Fatalf("the corpus has %d samples, want at least 80", len(samples))
	}
	fields, fieldsRight, samplesRight := 0, 0, 0
	for _, s := range samples {
		g := got(t, s)
		right := true
		for field, raw := range s.Want {
			want := wantString(t, field, raw)
			fields++
			if g[field] == want {
				fieldsRight++
				continue
			}
			right = false
			t.Logf("MISS %s: %s = %q, want %q", s.Name, field, g[field], want)
		}
		if right {
			samplesRight++
		}
	}
	fieldAcc := float64(fieldsRight) / float64(fields)
	sampleAcc := float64(samplesRight) / float64(len(samples))
	t.Logf("corpus accuracy: %d/%d fields right (%.1f%%), %d/%d samples entirely right (%.1f%%)",
		fieldsRight, fields, 100*fieldAcc, samplesRight, len(samples), 100*sampleAcc)
	if fieldAcc < minFieldAccuracy || sampleAcc < minSampleAccuracy {
		t.Errorf("accuracy below the floor (fields %.0f%%, samples %.0f%%)", 100*minFieldAccuracy, 100*minSampleAccuracy)
	}
}

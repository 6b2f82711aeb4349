package server

import (
	"testing"
	"time"
)

// TestObserveCountsWithoutAllocating: a request's counter and histogram are
// found without building label values once the operation and status have
// been seen, and each observation still lands under its own labels.
func TestObserveCountsWithoutAllocating(t *testing.T) {
	m := newMetrics(nil)
	m.observe("getSession", 200, time.Millisecond)
	m.observe("getSession", 401, 3*time.Second)
	if allocs := testing.AllocsPerRun(100, func() { m.observe("getSession", 200, time.Millisecond) }); allocs != 0 {
		t.Errorf("observe allocated %.0f times a request, want 0", allocs)
	}
	families, err := m.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]float64{}
	var observed uint64
	for _, f := range families {
		for _, s := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range s.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			switch f.GetName() {
			case "nestegg_http_requests_total":
				counts[labels["operation"]+" "+labels["status"]] = s.GetCounter().GetValue()
			case "nestegg_http_request_duration_seconds":
				if labels["operation"] != "getSession" {
					t.Errorf("latency under operation %q", labels["operation"])
				}
				observed = s.GetHistogram().GetSampleCount()
			}
		}
	}
	// The first call, AllocsPerRun's warm-up and its 100 runs.
	if counts["getSession 200"] != 102 || counts["getSession 401"] != 1 || len(counts) != 2 {
		t.Errorf("requests counted %v, want getSession 200: 102 and getSession 401: 1", counts)
	}
	if observed != 103 {
		t.Errorf("latency observed %d times, want 103", observed)
	}
}

package jobs_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/jobs"
)

func TestJobRunsOncePerPeriod(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var runs atomic.Int32
	r := jobs.NewRunner(pool, fake, jobs.Job{Name: "tick", Every: time.Hour, Run: func(context.Context, time.Time) error {
		runs.Add(1)
		return nil
	}})
	ctx := context.Background()
	mustRun(t, r, "tick", true)
	fake.Advance(59 * time.Minute)
	mustRun(t, r, "tick", false)
	fake.Advance(time.Minute)
	mustRun(t, r, "tick", true)
	if got := runs.Load(); got != 2 {
		t.Fatalf("ran %d times, want 2", got)
	}
	if _, err := r.Run(ctx, "nope"); !errors.Is(err, jobs.ErrUnknownJob) {
		t.Fatalf("unknown job: %v", err)
	}
}

// Replicas tick together; the lock and the recorded run let one of them run.
func TestReplicasRunAJobOnce(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var runs atomic.Int32
	job := jobs.Job{Name: "cleanup", Every: 24 * time.Hour, Run: func(context.Context, time.Time) error {
		runs.Add(1)
		return nil
	}}
	replicas := make([]*jobs.Runner, 8)
	for i := range replicas {
		replicas[i] = jobs.NewRunner(pool, fake, job)
	}
	errs := make([]error, len(replicas))
	ran := apitest.TogetherV(len(replicas), func(i int) bool {
		var ran bool
		ran, errs[i] = replicas[i].Run(context.Background(), "cleanup")
		return ran
	})
	winners := 0
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
		}
		if ran[i] {
			winners++
		}
	}
	if got := runs.Load(); got != 1 || winners != 1 {
		t.Fatalf("ran %d times across replicas, %d said they ran; want 1 and 1", got, winners)
	}
}

func TestFailedJobRunsAgain(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	fail := true
	r := jobs.NewRunner(pool, fake, jobs.Job{Name: "flaky", Every: time.Hour, Run: func(context.Context, time.Time) error {
		if fail {
			return errors.New("boom")
		}
		return nil
	}})
	if _, err := r.Run(context.Background(), "flaky"); err == nil {
		t.Fatal("failure not reported")
	}
	fail = false
	mustRun(t, r, "flaky", true)
}

func mustRun(t *testing.T, r *jobs.Runner, name string, want bool) {
	t.Helper()
	ran, err := r.Run(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	if ran != want {
		t.Fatalf("ran=%v, want %v", ran, want)
	}
}

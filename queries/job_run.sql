-- name: GetJobLastRun :one
SELECT last_run_at FROM job_run WHERE name = @name;

-- name: SetJobLastRun :exec
INSERT INTO job_run (name, last_run_at) VALUES (@name, @last_run_at)
ON CONFLICT (name) DO UPDATE SET last_run_at = EXCLUDED.last_run_at;

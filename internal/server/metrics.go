package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are served at /metrics in the Prometheus text format. They are kept
// out of the public contract: scrapers, not clients, read them.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	timeouts *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	// observers holds the counter and histogram of each operation and
	// status seen (observerKey → *observer): the vectors' lookups hash the
	// label values and take a lock on every request, which this map's
	// reads of known keys do not.
	observers sync.Map
}

type observerKey struct {
	operation string
	status    int
}

type observer struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

func newMetrics(pool *pgxpool.Pool) *metrics {
	reg := prometheus.NewRegistry()
	m := &metrics{
		registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "nestegg_http_requests_total",
			Help: "HTTP requests answered, by contract operation and status.",
		}, []string{"operation", "status"}),
		timeouts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "nestegg_http_request_timeouts_total",
			Help: "HTTP requests that ran past their operation's deadline (answered 503 TIMEOUT, or an outage's 503 that took the whole deadline), by contract operation.",
		}, []string{"operation"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "nestegg_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by contract operation.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"operation"}),
	}
	reg.MustRegister(m.requests, m.timeouts, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if pool != nil {
		reg.MustRegister(poolCollector{pool})
	}
	return m
}

func (m *metrics) observe(operation string, status int, elapsed time.Duration) {
	key := observerKey{operation, status}
	o, ok := m.observers.Load(key)
	if !ok {
		// Operations are the contract's and statuses a few dozen, so the
		// map stays small.
		o, _ = m.observers.LoadOrStore(key, &observer{
			requests: m.requests.WithLabelValues(operation, strconv.Itoa(status)),
			latency:  m.latency.WithLabelValues(operation),
		})
	}
	ob := o.(*observer)
	ob.requests.Inc()
	ob.latency.Observe(elapsed.Seconds())
}

// timedOut counts a request that ran past its deadline.
func (m *metrics) timedOut(operation string) { m.timeouts.WithLabelValues(operation).Inc() }

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// poolCollector reports the PostgreSQL pool's statistics at scrape time.
type poolCollector struct{ pool *pgxpool.Pool }

var (
	poolConnsDesc    = prometheus.NewDesc("nestegg_db_pool_connections", "PostgreSQL pool connections by state.", []string{"state"}, nil)
	poolMaxDesc      = prometheus.NewDesc("nestegg_db_pool_max_connections", "PostgreSQL pool size limit.", nil, nil)
	poolAcquireDesc  = prometheus.NewDesc("nestegg_db_pool_acquires_total", "Connections acquired from the pool.", nil, nil)
	poolWaitDesc     = prometheus.NewDesc("nestegg_db_pool_acquire_wait_seconds_total", "Time spent waiting for a pool connection.", nil, nil)
	poolEmptyAcqDesc = prometheus.NewDesc("nestegg_db_pool_empty_acquires_total", "Acquires that had to wait because the pool was empty.", nil, nil)
)

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolConnsDesc
	ch <- poolMaxDesc
	ch <- poolAcquireDesc
	ch <- poolWaitDesc
	ch <- poolEmptyAcqDesc
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	ch <- prometheus.MustNewConstMetric(poolConnsDesc, prometheus.GaugeValue, float64(s.AcquiredConns()), "acquired")
	ch <- prometheus.MustNewConstMetric(poolConnsDesc, prometheus.GaugeValue, float64(s.IdleConns()), "idle")
	ch <- prometheus.MustNewConstMetric(poolConnsDesc, prometheus.GaugeValue, float64(s.ConstructingConns()), "constructing")
	ch <- prometheus.MustNewConstMetric(poolMaxDesc, prometheus.GaugeValue, float64(s.MaxConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquireDesc, prometheus.CounterValue, float64(s.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaitDesc, prometheus.CounterValue, s.AcquireDuration().Seconds())
	ch <- prometheus.MustNewConstMetric(poolEmptyAcqDesc, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
}

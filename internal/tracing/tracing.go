// Package tracing starts OpenTelemetry tracing when an OTLP endpoint is
// configured: spans of requests (internal/server), SQL statements (the pgx
// tracer of database.Open) and outside calls (internal/external/httpcall) are
// exported over OTLP/HTTP. Without an endpoint nothing is started: the
// global tracer provider stays OpenTelemetry's no-op one, no exporter
// goroutine runs, and the instrumentation is either not installed (request
// and SQL spans) or a call on the no-op tracer (outside calls).
package tracing

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Config says where and how spans go.
type Config struct {
	// Endpoint is the OTLP/HTTP base address (OTEL_EXPORTER_OTLP_ENDPOINT);
	// spans are posted to Endpoint + "/v1/traces". "" turns tracing off.
	Endpoint string
	// ServiceName names the service in every span's resource.
	ServiceName string
	// SampleRatio is the share of new traces recorded (0 to 1); a request
	// that arrives inside a sampled trace (traceparent) is always recorded.
	SampleRatio float64
}

// Start installs the global tracer provider and propagator for cfg and
// returns the function that flushes and stops them. With tracing off it
// installs nothing and returns a shutdown that does nothing.
func Start(cfg Config) (shutdown func(context.Context) error, err error) {
	if cfg.Endpoint == "" {
		return func(context.Context) error { return nil }, nil
	}
	exporter, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(cfg.Endpoint+"/v1/traces"))
	if err != nil {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT: %w", err)
	}
	res, err := resource.Merge(resource.Default(),
		resource.NewSchemaless(attribute.String("service.name", cfg.ServiceName)))
	if err != nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.SampleRatio))),
	)
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp.Shutdown, nil
}

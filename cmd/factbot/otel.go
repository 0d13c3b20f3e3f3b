package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
)

// startTracing sends the spans of the checks (factcheck's: each check,
// model call and tool call) by OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT
// when it is set; the exporter reads the other OTEL_EXPORTER_OTLP_*
// variables (headers, timeout) itself. The returned function flushes what
// is left and stops; with no endpoint it does nothing.
func startTracing(ctx context.Context, cfg *config.Config, warn io.Writer) (stop func()) {
	if cfg.OTLPEndpoint == "" {
		return func() {}
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimRight(cfg.OTLPEndpoint, "/")+"/v1/traces"))
	if err != nil {
		fmt.Fprintf(warn, "factbot: no traces: OTEL_EXPORTER_OTLP_ENDPOINT: %v\n", err)
		return func() {}
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "factbot"))))
	otel.SetTracerProvider(tp)
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(sctx); err != nil {
			fmt.Fprintf(warn, "factbot: traces not all sent to %s: %v\n", cfg.OTLPEndpoint, err)
		}
	}
}

package factcheck

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// otelTracer makes the spans of a check, its model calls and its tool calls,
// named and attributed as OpenTelemetry's GenAI conventions name them. They
// go nowhere unless the program installs a tracer provider (factbot does
// when OTEL_EXPORTER_OTLP_ENDPOINT is set). The tracer is asked of the
// provider installed at the time, not kept: a tracer kept from the first
// provider would send every later span to it after it was shut down and
// replaced (as each run of factbot in the same test process does).
func otelTracer() trace.Tracer { return otel.Tracer("github.com/factbot-dev/factbot/factcheck") }

// startCheckSpan starts the span of one check.
func startCheckSpan(ctx context.Context, in Input) (context.Context, trace.Span) {
	return otelTracer().Start(ctx, "factbot.check", trace.WithAttributes(attribute.String("factbot.tenant", in.Tenant),
		attribute.Bool("factbot.fresh", in.Fresh)))
}

// startModelSpan starts the span of one model call.
func startModelSpan(ctx context.Context, model string) (context.Context, trace.Span) {
	return otelTracer().Start(ctx, "chat "+model, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.request.model", model)))
}

// endModelSpan records a model call's answer, or its error, and ends it.
func endModelSpan(span trace.Span, resp *ModelResponse, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, firstLine(err.Error()))
	} else {
		span.SetAttributes(attribute.Int("gen_ai.usage.input_tokens", resp.Usage.PromptTokens),
			attribute.Int("gen_ai.usage.output_tokens", resp.Usage.OutputTokens),
			attribute.StringSlice("gen_ai.response.finish_reasons", []string{resp.FinishReason}))
		if resp.Model != "" {
			span.SetAttributes(attribute.String("gen_ai.response.model", resp.Model))
		}
	}
	span.End()
}

// startToolSpan starts the span of one tool call.
func startToolSpan(ctx context.Context, tool string) (context.Context, trace.Span) {
	return otelTracer().Start(ctx, "execute_tool "+tool, trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("gen_ai.tool.name", tool)))
}

// endToolSpan records a tool call's result size, or its error, and ends it.
func endToolSpan(span trace.Span, resultBytes int, err error) {
	span.SetAttributes(attribute.Int("factbot.tool.result_bytes", resultBytes))
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, firstLine(err.Error()))
	}
	span.End()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

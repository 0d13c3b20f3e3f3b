package bot

import (
	"context"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/factbot-dev/factbot/factcheck"
)

// Metrics are the Prometheus metrics of the chat core.
type Metrics struct {
	Requests  *prometheus.CounterVec   // platform, kind, status (accepted, duplicate, refused)
	Checks    *prometheus.CounterVec   // platform, outcome (done, failed)
	Verdicts  *prometheus.CounterVec   // verdict
	CacheHits prometheus.Counter       // cached verdicts answered
	Latency   *prometheus.HistogramVec // platform: request accepted → final answer
	// Ack is the bot's own acknowledgement latency, by platform: from the
	// adapter holding the decoded event to the acknowledgement handed to
	// the platform's connection (the request stored durably in between).
	// Adapters observe it through Service.ObserveAck.
	Ack       *prometheus.HistogramVec
	ToolCalls *prometheus.CounterVec // tool
	Errors    *prometheus.CounterVec // where (check, post, update, store)
	InFlight  prometheus.Gauge
	// Queued is the requests waiting for a worker (the queue that
	// FACTBOT_MAX_QUEUE bounds).
	Queued prometheus.Gauge
	// Refusals are the requests refused, by platform and reason (input,
	// user, tenant, busy); Notes the refusals' notes, by platform and
	// outcome (sent; collapsed: told by the same note to the same person,
	// being sent; retry: not sent, tried again; lost: given up).
	Refusals *prometheus.CounterVec
	Notes    *prometheus.CounterVec
}

// NewMetrics creates the metrics and registers them with reg (if not nil).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_requests_total", Help: "Chat requests received, by platform, kind and status.",
		}, []string{"platform", "kind", "status"}),
		Checks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_checks_total", Help: "Checks answered, by platform and outcome.",
		}, []string{"platform", "outcome"}),
		Verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_verdicts_total", Help: "Claim verdicts answered, by label.",
		}, []string{"verdict"}),
		CacheHits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "factbot_cache_hits_total", Help: "Claim verdicts answered from the cache.",
		}),
		Latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "factbot_check_duration_seconds", Help: "Time from accepting a request to its final answer.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160},
		}, []string{"platform"}),
		Ack: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "factbot_ack_seconds",
			Help:    "Time from receiving a chat event to acknowledging it (request stored durably in between).",
			Buckets: []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5},
		}, []string{"platform"}),
		ToolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_tool_calls_total", Help: "Tool calls made by the model, by tool.",
		}, []string{"tool"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_errors_total", Help: "Errors, by where they happened.",
		}, []string{"where"}),
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "factbot_checks_in_flight", Help: "Checks running now.",
		}),
		Queued: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "factbot_queue_depth", Help: "Chat requests waiting for a worker.",
		}),
		Refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_refusals_total", Help: "Chat requests refused, by platform and reason (input, user, tenant, busy).",
		}, []string{"platform", "reason"}),
		Notes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "factbot_refusal_notes_total", Help: "Refusal notes, by platform and outcome (sent; collapsed into the same note being sent; retry: tried again later; lost: given up).",
		}, []string{"platform", "outcome"}),
	}
	for _, v := range factcheck.Labels {
		m.Verdicts.WithLabelValues(string(v))
	}
	if reg != nil {
		reg.MustRegister(m.Requests, m.Checks, m.Verdicts, m.CacheHits, m.Latency, m.Ack, m.ToolCalls, m.Errors, m.InFlight, m.Queued, m.Refusals, m.Notes)
	}
	return m
}

func (m *Metrics) observeReport(rep *factcheck.Report) {
	for _, v := range rep.Claims {
		if v == nil {
			continue
		}
		m.Verdicts.WithLabelValues(string(v.Verdict)).Inc()
		if v.Cached {
			m.CacheHits.Inc()
			continue
		}
		for _, t := range v.Trace {
			if t.Kind == "tool" && t.Tool != "" {
				m.ToolCalls.WithLabelValues(t.Tool).Inc()
			}
		}
	}
}

// NewRegistry returns a Prometheus registry with the Go and process
// collectors, for NewMetrics and NewMux.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// NewMux returns the shared HTTP mux with GET /healthz, GET /readyz and
// GET /metrics. Adapters add their own routes to it (e.g. POST
// /slack/events). /healthz is liveness: it answers "ok" while the process
// serves. /readyz is readiness: ready, if set, says what keeps the bot
// from answering (the database, a platform), and an error answers 503
// with it.
func NewMux(g prometheus.Gatherer, ready func(context.Context) error) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if ready != nil {
			if err := ready(r.Context()); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				w.Write([]byte("not ready: " + err.Error() + "\n"))
				return
			}
		}
		w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	return mux
}

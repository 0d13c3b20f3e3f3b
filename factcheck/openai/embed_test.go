package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// embeddingsServer speaks the OpenAI /v1/embeddings wire format: each
// input's vector is table[input], cut to "dimensions" when asked; the
// items come back in reverse order, with their indexes, as a server may.
func embeddingsServer(t *testing.T, table map[string][]float32, status int) (*httptest.Server, *[]map[string]any) {
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"no route"}}`, http.StatusNotFound)
			return
		}
		var req struct {
			Model      string   `json:"model"`
			Input      []string `json:"input"`
			Dimensions int      `json:"dimensions"`
		}
		var body map[string]any
		dec := json.NewDecoder(r.Body)
		if err := dec.Decode(&body); err != nil {
			t.Errorf("body: %v", err)
		}
		bodies = append(bodies, body)
		raw, _ := json.Marshal(body)
		json.Unmarshal(raw, &req)
		if status != 0 {
			w.WriteHeader(status)
			w.Write([]byte(`{"error":{"message":"model \"` + req.Model + `\" does not support embeddings","type":"invalid_request_error"}}`))
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			v := table[req.Input[i]]
			if req.Dimensions > 0 && len(v) > req.Dimensions {
				v = v[:req.Dimensions]
			}
			data = append(data, item{"embedding", i, v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
			"usage": map[string]int{"prompt_tokens": 8, "total_tokens": 8}})
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies
}

func TestEmbedderSpeaksEmbeddings(t *testing.T) {
	srv, bodies := embeddingsServer(t, map[string][]float32{"a": {1, 0, 0, 5}, "b": {0, 1, 0, 5}}, 0)
	e, err := NewEmbedder(EmbedderConfig{Config: Config{BaseURL: srv.URL + "/v1", Model: "nomic-embed-text"}, Dim: 3})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Embed(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float32{{1, 0, 0}, {0, 1, 0}}, got); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	want := map[string]any{"model": "nomic-embed-text", "input": []any{"a", "b"}, "dimensions": float64(3), "encoding_format": "float"}
	if diff := cmp.Diff(want, (*bodies)[0]); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if e.EmbeddingModel() != "nomic-embed-text/3" {
		t.Errorf("EmbeddingModel = %q", e.EmbeddingModel())
	}
}

func TestEmbedderFails(t *testing.T) {
	srv, _ := embeddingsServer(t, nil, http.StatusBadRequest)
	e, err := NewEmbedder(EmbedderConfig{Config: Config{BaseURL: srv.URL + "/v1", Model: "qwen3:8b"}, Dim: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); err == nil {
		t.Error("a model without embeddings: no error")
	}
	if _, err := NewEmbedder(EmbedderConfig{Config: Config{BaseURL: "http://localhost:11434/v1"}}); err == nil {
		t.Error("a local server without an embedding model named: no error")
	}
}

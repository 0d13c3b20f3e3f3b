package gemini_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck/gemini"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
)

func TestEmbedderSpeaksBatchEmbedContents(t *testing.T) {
	var models []string
	srv := geminitest.NewServer(t, nil, geminitest.WithEmbeddings(func(model, text string) []float32 {
		models = append(models, model)
		return map[string][]float32{"a": {1, 0, 0, 9}, "b": {0, 1, 0, 9}}[text]
	}))
	e, err := gemini.NewEmbedder(context.Background(), gemini.EmbedderConfig{Config: gemini.Config{APIKey: "k", BaseURL: srv.URL}, Dim: 3})
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
	if srv.EmbedCalls() != 1 || !cmp.Equal(models, []string{gemini.DefaultEmbeddingModel, gemini.DefaultEmbeddingModel}) {
		t.Errorf("%d calls for models %v, want one batch of the default model", srv.EmbedCalls(), models)
	}
	if e.EmbeddingModel() != gemini.DefaultEmbeddingModel+"/3" {
		t.Errorf("EmbeddingModel = %q", e.EmbeddingModel())
	}
}

func TestEmbedderErrors(t *testing.T) {
	for name, opts := range map[string][]geminitest.Option{
		"no embeddings": nil,
		"outage":        {geminitest.WithEmbeddings(func(string, string) []float32 { return nil })},
	} {
		srv := geminitest.NewServer(t, nil, opts...)
		e, err := gemini.NewEmbedder(context.Background(), gemini.EmbedderConfig{Config: gemini.Config{APIKey: "k", BaseURL: srv.URL, Model: "gemini-flash-latest"}, Dim: 3})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Embed(context.Background(), []string{"a"}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

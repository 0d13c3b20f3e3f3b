package gemini

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/genai"

	"github.com/factbot-dev/factbot/factcheck"
)

// DefaultEmbeddingModel is the embedding model used when
// EmbedderConfig.Model is empty.
const DefaultEmbeddingModel = "gemini-embedding-001"

// EmbedderConfig configures an Embedder: the API key, base URL and HTTP
// client of Config, the embedding model and the vectors' dimension.
type EmbedderConfig struct {
	Config
	// Dim is the dimension asked for (outputDimensionality); the API
	// truncates its vectors to it. 0 leaves the model's own.
	Dim int
}

// Embedder is factcheck.Embedder on Gemini's embedding models, through
// genai's Models.EmbedContent (one batchEmbedContents call for all the
// texts). It is safe for concurrent use.
type Embedder struct {
	client *genai.Client
	name   string
	dim    int
}

var _ factcheck.Embedder = (*Embedder)(nil)

// NewEmbedder returns an Embedder for cfg. It makes no network calls.
func NewEmbedder(ctx context.Context, cfg EmbedderConfig) (*Embedder, error) {
	if cfg.Model == "" {
		cfg.Model = DefaultEmbeddingModel
	}
	m, err := New(ctx, cfg.Config)
	if err != nil {
		return nil, err
	}
	return &Embedder{client: m.client, name: m.name, dim: cfg.Dim}, nil
}

// EmbeddingModel is factcheck.Embedder's: the model and the dimension.
func (e *Embedder) EmbeddingModel() string { return e.name + "/" + strconv.Itoa(e.dim) }

// Embed is factcheck.Embedder's: one call, for semantic similarity. It is
// not retried: a failure costs the match, and the check goes on.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	contents := make([]*genai.Content, len(texts))
	for i, t := range texts {
		contents[i] = genai.NewContentFromText(t, genai.RoleUser)
	}
	cfg := &genai.EmbedContentConfig{TaskType: "SEMANTIC_SIMILARITY"}
	if e.dim > 0 {
		d := int32(e.dim)
		cfg.OutputDimensionality = &d
	}
	resp, err := e.client.Models.EmbedContent(ctx, e.name, contents, cfg)
	if err != nil {
		var apiErr genai.APIError
		if errors.As(err, &apiErr) {
			return nil, fmt.Errorf("gemini %s: embeddings: %w", e.name, &APIError{APIError: apiErr})
		}
		return nil, fmt.Errorf("gemini %s: embeddings: %w", e.name, err)
	}
	if len(resp.Embeddings) != len(texts) {
		return nil, fmt.Errorf("gemini %s: %d embeddings for %d texts", e.name, len(resp.Embeddings), len(texts))
	}
	out := make([][]float32, len(texts))
	for i, emb := range resp.Embeddings {
		if emb == nil || len(emb.Values) == 0 {
			return nil, fmt.Errorf("gemini %s: an empty embedding", e.name)
		}
		out[i] = emb.Values
		if e.dim > 0 && len(out[i]) > e.dim {
			out[i] = out[i][:e.dim]
		}
	}
	return out, nil
}

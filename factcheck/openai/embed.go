package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
)

// DefaultEmbeddingModel is the embedding model of the hosted API when
// EmbedderConfig.Model is empty; another server has no default.
const DefaultEmbeddingModel = "text-embedding-3-small"

// EmbedderConfig configures an Embedder: the API key, base URL and HTTP
// client of Config, with Model the embedding model, and the vectors'
// dimension.
type EmbedderConfig struct {
	Config
	// Dim is the dimension asked for ("dimensions", which the
	// text-embedding-3 models take); longer vectors a server sends anyway
	// are cut to it. 0 leaves the model's own.
	Dim int
}

// Embedder is factcheck.Embedder on an OpenAI-compatible /embeddings
// endpoint. It is safe for concurrent use.
type Embedder struct {
	m   *Model
	dim int
}

var _ factcheck.Embedder = (*Embedder)(nil)

// NewEmbedder returns an Embedder, with the errors of New; on a server
// other than the hosted API the model must be named.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		if base := strings.TrimSpace(cfg.BaseURL); base != "" && !strings.Contains(base, "://api.openai.com") {
			return nil, fmt.Errorf("openai: no embedding model named for %s: %w", base, errNoEmbeddingModel)
		}
		cfg.Model = DefaultEmbeddingModel
	}
	m, err := New(cfg.Config)
	if err != nil {
		return nil, err
	}
	m.endpoint = strings.TrimSuffix(m.endpoint, "/chat/completions") + "/embeddings"
	m.maxAttempts = 1 // a failure costs the match, not the check: no retries
	return &Embedder{m: m, dim: cfg.Dim}, nil
}

// errNoEmbeddingModel is wrapped by NewEmbedder for a server of no known
// embedding model.
var errNoEmbeddingModel = errors.New("set FACTBOT_EMBED_MODEL to an embedding model the server serves, e.g. nomic-embed-text on Ollama")

// EmbeddingModel is factcheck.Embedder's: the model and the dimension.
func (e *Embedder) EmbeddingModel() string { return e.m.name + "/" + strconv.Itoa(e.dim) }

// Embed is factcheck.Embedder's: one POST {base}/embeddings for all the
// texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	req := struct {
		Model      string   `json:"model"`
		Input      []string `json:"input"`
		Dimensions int      `json:"dimensions,omitempty"`
		Format     string   `json:"encoding_format"`
	}{e.m.name, texts, e.dim, "float"}
	payload, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("openai: %s: encode embeddings request: %w", e.m.name, err)
	}
	body, f, err := e.m.post(ctx, payload)
	switch {
	case err != nil:
		return nil, fmt.Errorf("openai: %s: embeddings: %w", e.m.name, err)
	case f != nil:
		return nil, fmt.Errorf("openai: %s: embeddings: %w", e.m.name, f)
	}
	var resp struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("openai: %s: embeddings: %w", e.m.name, err)
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("openai: %s: embeddings: a bad item (index %d of %d texts)", e.m.name, d.Index, len(texts))
		}
		v := d.Embedding
		if e.dim > 0 && len(v) > e.dim {
			v = v[:e.dim]
		}
		out[d.Index] = v
	}
	for i, v := range out {
		if v == nil {
			return nil, fmt.Errorf("openai: %s: embeddings: none for text %d", e.m.name, i)
		}
	}
	return out, nil
}

package geminitest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"strings"
)

// The embedding endpoints: genai's Models.EmbedContent calls
// POST /v1beta/models/{model}:batchEmbedContents on the Gemini API
// ({"requests": [{"model", "content", "taskType", "outputDimensionality"}]}
// → {"embeddings": [{"values": […]}]}); :embedContent is the one-text form
// ({"content", …} → {"embedding": {"values": […]}}).

// Embedder gives the fake's vector for a text of model; nil answers the
// call with a server error (503), as an outage would.
type Embedder func(model, text string) []float32

// WithEmbeddings makes the server answer the embedding endpoints with e.
// Without it they answer 404, as for a model without embeddings.
func WithEmbeddings(e Embedder) Option {
	return func(s *Server) { s.embed = e }
}

// EmbedCalls returns how many embedding requests the server received.
func (s *Server) EmbedCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedCalls
}

// EmbeddedTexts returns every text sent to the embedding endpoints, in
// order.
func (s *Server) EmbeddedTexts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.embedded...)
}

type embedRequest struct {
	Model   string  `json:"model"`
	Content Content `json:"content"`
	// TaskType and OutputDimensionality as the API reads them.
	TaskType             string `json:"taskType"`
	OutputDimensionality int    `json:"outputDimensionality"`
}

type wireEmbedding struct {
	Values []float32 `json:"values"`
}

// serveEmbed answers :batchEmbedContents (batch) or :embedContent.
func (s *Server) serveEmbed(w http.ResponseWriter, hr *http.Request, model string, batch bool) {
	body, err := io.ReadAll(hr.Body)
	if err != nil {
		writeError(w, Error(http.StatusBadRequest, "geminitest: reading body: "+err.Error()).err)
		return
	}
	var reqs []embedRequest
	if batch {
		var b struct {
			Requests []embedRequest `json:"requests"`
		}
		err = json.Unmarshal(body, &b)
		reqs = b.Requests
	} else {
		var r embedRequest
		err = json.Unmarshal(body, &r)
		reqs = []embedRequest{r}
	}
	if err != nil || len(reqs) == 0 {
		s.t.Errorf("geminitest: bad embedding request: %v\n%s", err, body)
		writeError(w, Error(http.StatusBadRequest, "Invalid JSON payload received.").err)
		return
	}
	s.mu.Lock()
	s.embedCalls++
	e := s.embed
	s.mu.Unlock()
	if e == nil {
		writeError(w, Error(http.StatusNotFound, fmt.Sprintf("models/%s is not found for API version v1beta, or is not supported for embedContent.", model)).err)
		return
	}
	var out []wireEmbedding
	for _, r := range reqs {
		if batch && r.Model != "models/"+model {
			writeError(w, Error(http.StatusBadRequest, fmt.Sprintf("Model %q of a request differs from the batch's models/%s", r.Model, model)).err)
			return
		}
		var text []string
		for _, p := range r.Content.Parts {
			text = append(text, p.Text)
		}
		t := strings.Join(text, "\n")
		s.mu.Lock()
		s.embedded = append(s.embedded, t)
		s.mu.Unlock()
		v := e(model, t)
		if v == nil {
			writeError(w, Error(http.StatusServiceUnavailable, "The model is overloaded. Please try again later.").err)
			return
		}
		if d := r.OutputDimensionality; d > 0 && d < len(v) {
			v = v[:d]
		}
		out = append(out, wireEmbedding{Values: v})
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	if batch {
		_ = json.NewEncoder(w).Encode(map[string]any{"embeddings": out})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"embedding": out[0]})
}

// Vectors returns an Embedder of deterministic vectors of dimension dim
// in which the texts of one group (paraphrases, translations) are close
// (cosine about 0.98) and everything else is far: group i is mostly
// component i, plus a small part of a component that depends on the text;
// a text in no group is spread over the components by its hash.
func Vectors(dim int, groups ...[]string) Embedder {
	group := map[string]int{}
	for i, g := range groups {
		for _, t := range g {
			group[t] = i
		}
	}
	return func(_, text string) []float32 {
		h := fnv.New64a()
		h.Write([]byte(text))
		sum := h.Sum64()
		v := make([]float32, dim)
		i, ok := group[text]
		if !ok {
			for j := range v {
				v[j] = float32(math.Sin(float64(sum%1000) + float64(j)*1.7))
			}
			return v
		}
		v[i%dim] = 1
		v[len(groups)+int(sum%uint64(dim-len(groups)))] = 0.2
		return v
	}
}

package factcheck_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
	"github.com/factbot-dev/factbot/internal/usererr"
)

var png = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{1}, 32)...)

// seeing is a fake model that reads pictures.
type seeing struct{ *fct.Model }

func (seeing) ReadsImages() bool { return true }

// extractOrVerdict answers extraction with claims (those with a picture
// number only when a picture was sent) and verification with a verdict.
func extractOrVerdict(claims ...map[string]any) func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
	return func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		if req.Tools[len(req.Tools)-1].Name != factcheck.ToolSubmitClaims {
			return fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Nothing found."}), nil
		}
		sent := len(req.Messages[0].Images) > 0
		var out []map[string]any
		for _, c := range claims {
			if _, fromPicture := c["picture"]; !fromPicture || sent {
				out = append(out, c)
			}
		}
		return fct.Call(factcheck.ToolSubmitClaims, map[string]any{"claims": out}), nil
	}
}

func TestClaimReadFromPicture(t *testing.T) {
	m := &fct.Model{Handle: extractOrVerdict(
		map[string]any{"claim": "Unemployment fell to 2%", "span": "Unemployment fell to 2%", "picture": 1},
		map[string]any{"claim": "Prices rose", "span": "Prices rose"})}
	c := checker(seeing{m})
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "Prices rose", Files: []factcheck.File{{Name: "a.png", MIME: "image/png", Data: png}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, v := range rep.Claims {
		got = append(got, v.Picture)
	}
	if diff := cmp.Diff(got, []int{1, 0}); diff != "" {
		t.Errorf("claims' pictures (-got +want):\n%s", diff)
	}
	sum := sha256.Sum256(png)
	want := []factcheck.Attachment{{Name: "a.png", MIME: "image/png", Bytes: len(png), SHA256: hex.EncodeToString(sum[:]), Picture: 1, Read: true}}
	if diff := cmp.Diff(rep.Attachments, want); diff != "" {
		t.Errorf("attachments (-got +want):\n%s", diff)
	}
	extraction := m.Requests()[0]
	if len(extraction.Messages[0].Images) != 1 || !strings.Contains(extraction.Messages[0].Text, "1 picture is attached") {
		t.Errorf("extraction request: %d images, text %q", len(extraction.Messages[0].Images), extraction.Messages[0].Text)
	}
	props := extraction.Tools[0].Parameters["properties"].(map[string]any)["claims"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)
	if _, ok := props["picture"]; !ok {
		t.Error("submit_claims offers no picture number with a picture")
	}
}

func TestPicturesNotReadByAModelWithoutImageInput(t *testing.T) {
	m := &fct.Model{Handle: extractOrVerdict(map[string]any{"claim": "Prices rose", "span": "Prices rose"})}
	c := checker(m)
	files := []factcheck.File{{Name: "a.png", MIME: "image/png", Data: png}}
	rep, err := c.Check(context.Background(), factcheck.Input{Text: "Prices rose", Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Notice, "1 picture was not read: the model fake-model does not read pictures") {
		t.Errorf("notice = %q", rep.Notice)
	}
	if len(rep.Attachments) != 1 || rep.Attachments[0].Read || len(m.Requests()[0].Messages[0].Images) != 0 {
		t.Errorf("attachments %+v; the model was sent %d images", rep.Attachments, len(m.Requests()[0].Messages[0].Images))
	}
	// A picture alone, unread, is nothing to check: said, not guessed.
	_, err = c.Check(context.Background(), factcheck.Input{Files: files})
	if msg, ok := usererr.Message(err); !ok || !strings.Contains(msg, "does not read pictures") {
		t.Errorf("picture alone: err = %v, want a user error saying the pictures were not read", err)
	}
}

func TestPDFAttachmentRead(t *testing.T) {
	f := fpdf.New("P", "mm", "A4", "")
	f.AddPage()
	f.SetFont("Helvetica", "", 11)
	f.Cell(0, 10, "The harbour bridge reopened on 15 March 2024.")
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	m := &fct.Model{Handle: extractOrVerdict(map[string]any{"claim": "The harbour bridge reopened on 15 March 2024", "span": "The harbour bridge reopened on 15 March 2024"})}
	rep, err := checker(m).Check(context.Background(), factcheck.Input{Files: []factcheck.File{{Name: "report.pdf", MIME: factcheck.MIMEPDF, Data: b.Bytes()}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Requests()[0].Messages[0].Text; !strings.Contains(got, "[PDF report.pdf]") || !strings.Contains(got, "reopened on 15 March 2024") {
		t.Errorf("extraction prompt lacks the PDF's text:\n%s", got)
	}
	if len(rep.Attachments) != 1 || !rep.Attachments[0].Read || rep.Attachments[0].Picture != 0 || len(rep.Claims) != 1 {
		t.Errorf("attachments %+v, %d claims", rep.Attachments, len(rep.Claims))
	}
}

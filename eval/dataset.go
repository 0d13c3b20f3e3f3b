// Package eval measures verdict quality: it runs a checker over labeled
// claims, keeps per-claim results as JSON Lines so an interrupted run can be
// resumed, and summarises them (accuracy, per-label precision, recall and
// F1, macro-F1, the confusion matrix, provenance, effort and cost) as a
// terminal table, JSON, or a self-contained HTML report.
package eval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
)

// Case is one labeled claim.
type Case struct {
	ID    string          `json:"id"`
	Claim string          `json:"claim"`
	Label factcheck.Label `json:"label"`
	Notes string          `json:"notes,omitempty"`
	// Date is when the claim was made, zero when unknown; Speaker who
	// made it and Source where it appeared (AVeriTeC's claim_date,
	// speaker and reporting_source).
	Date    time.Time `json:"date,omitzero"`
	Speaker string    `json:"speaker,omitempty"`
	Source  string    `json:"source,omitempty"`
	// Article is the claim's own published fact-check (AVeriTeC's
	// fact_checking_article), "" when unknown.
	Article string `json:"fact_checking_article,omitempty"`
}

// Format names a dataset format.
type Format string

const (
	FormatAuto     Format = ""         // JSON Lines, or AVeriTeC when the file is a JSON array
	FormatJSONL    Format = "jsonl"    // one {"claim", "label", "id"?, "notes"?} per line
	FormatAVeriTeC Format = "averitec" // AVeriTeC's dev.json / train.json
)

// maxLine bounds one JSON Lines record.
const maxLine = 1 << 20

// LoadJSONL reads one case per line: {"claim", "label", optional "id",
// "notes", "date" (YYYY-MM-DD, when the claim was made), "speaker",
// "source"}. Blank lines and lines starting with "//" are skipped. A case
// without an id gets one derived from its claim text, so ids stay stable
// when lines are added or reordered.
func LoadJSONL(r io.Reader) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	var cases []Case
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || bytes.HasPrefix(line, []byte("//")) {
			continue
		}
		var raw struct {
			ID      json.RawMessage `json:"id"`
			Claim   string          `json:"claim"`
			Label   string          `json:"label"`
			Notes   string          `json:"notes"`
			Date    string          `json:"date"`
			Speaker string          `json:"speaker"`
			Source  string          `json:"source"`
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("line %d: not a JSON object: %w", n, err)
		}
		c := Case{Claim: strings.TrimSpace(raw.Claim), Label: factcheck.Label(strings.ToLower(strings.TrimSpace(raw.Label))), Notes: raw.Notes,
			Speaker: strings.TrimSpace(raw.Speaker), Source: strings.TrimSpace(raw.Source)}
		if d := strings.TrimSpace(raw.Date); d != "" {
			t, err := time.Parse(time.DateOnly, d)
			if err != nil {
				return nil, fmt.Errorf("line %d: date %q is not YYYY-MM-DD", n, raw.Date)
			}
			c.Date = t
		}
		if c.Claim == "" {
			return nil, fmt.Errorf("line %d: no \"claim\"", n)
		}
		if !c.Label.Valid() {
			return nil, fmt.Errorf("line %d: label %q is not one of supported, contradicted, contested, unverifiable", n, raw.Label)
		}
		id, err := idString(raw.ID)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if id == "" {
			id = claimID(c.Claim)
		}
		c.ID = id
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("line %d: id %q already used on line %d", n, id, prev)
		}
		seen[id] = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return cases, nil
}

// idString accepts a string or a number as an id.
func idString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	var f json.Number
	if json.Unmarshal(raw, &f) == nil {
		return f.String(), nil
	}
	return "", fmt.Errorf("id %s is neither a string nor a number", raw)
}

// claimID is a stable id for a case that has none.
func claimID(claim string) string {
	h := sha256.Sum256([]byte(claim))
	return "c" + hex.EncodeToString(h[:6])
}

// AVeriTeCLabel maps an AVeriTeC label onto ours.
func AVeriTeCLabel(s string) (factcheck.Label, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "supported":
		return factcheck.Supported, true
	case "refuted":
		return factcheck.Contradicted, true
	case "conflicting evidence/cherrypicking", "conflicting evidence/cherry-picking", "conflicting evidence", "cherrypicking":
		return factcheck.Contested, true
	case "not enough evidence":
		return factcheck.Unverifiable, true
	}
	return "", false
}

// LoadAVeriTeC reads AVeriTeC's data format (dev.json): a JSON array of
// objects with "claim", "label" and other fields this package ignores.
// A case's id is its index in the array, as AVeriTeC's scorer counts them.
// AVeriTeC's licence forbids redistributing it: users download it
// themselves (see docs/evaluation.md, AVeriTeC).
func LoadAVeriTeC(r io.Reader) ([]Case, error) {
	dec := json.NewDecoder(r)
	var items []struct {
		Claim           string  `json:"claim"`
		Label           string  `json:"label"`
		ClaimDate       string  `json:"claim_date"`
		Speaker         *string `json:"speaker"`
		ReportingSource *string `json:"reporting_source"`
		Article         *string `json:"fact_checking_article"`
	}
	if err := dec.Decode(&items); err != nil {
		return nil, fmt.Errorf("not an AVeriTeC file (a JSON array of {\"claim\", \"label\", …}): %w", err)
	}
	cases := make([]Case, 0, len(items))
	for i, it := range items {
		claim := strings.TrimSpace(it.Claim)
		if claim == "" {
			return nil, fmt.Errorf("item %d: no \"claim\"", i)
		}
		l, ok := AVeriTeCLabel(it.Label)
		if !ok {
			return nil, fmt.Errorf("item %d: unknown AVeriTeC label %q (want Supported, Refuted, Conflicting Evidence/Cherrypicking or Not Enough Evidence; the unlabeled test set cannot be scored)", i, it.Label)
		}
		c := Case{ID: strconv.Itoa(i), Claim: claim, Label: l, Date: averitecDate(it.ClaimDate), Speaker: str(it.Speaker), Source: str(it.ReportingSource), Article: str(it.Article)}
		if it.ClaimDate != "" {
			c.Notes = "claim date " + it.ClaimDate
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// averitecDate reads AVeriTeC's claim_date, day-month-year ("25-8-2020");
// the zero time when it is absent or unreadable.
func averitecDate(s string) time.Time {
	t, err := time.Parse("2-1-2006", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}
	}
	return t
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// DetectFormat is the format FormatAuto reads data as: AVeriTeC when it
// starts with "[" (after white space and a byte order mark), JSON Lines
// otherwise.
func DetectFormat(data []byte) Format {
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf"), []byte("[")) {
		return FormatAVeriTeC
	}
	return FormatJSONL
}

// Load reads a dataset in the given format; FormatAuto picks AVeriTeC when
// the data starts with "[", JSON Lines otherwise.
func Load(r io.Reader, f Format) ([]Case, error) {
	br := bufio.NewReader(r)
	if f == FormatAuto {
		f = FormatJSONL
		for {
			b, err := br.Peek(1)
			if err != nil {
				break
			}
			if b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t' || b[0] == 0xEF || b[0] == 0xBB || b[0] == 0xBF {
				br.ReadByte() // white space or a UTF-8 byte order mark
				continue
			}
			if b[0] == '[' {
				f = FormatAVeriTeC
			}
			break
		}
	}
	switch f {
	case FormatJSONL:
		return LoadJSONL(br)
	case FormatAVeriTeC:
		return LoadAVeriTeC(br)
	}
	return nil, fmt.Errorf("unknown dataset format %q (want jsonl or averitec)", f)
}

//go:embed claims.jsonl
var shipped []byte

// ShippedName names the labeled set shipped with factbot in reports.
const ShippedName = "factbot claims.jsonl (built in)"

// Shipped returns the labeled set written for this project (eval/claims.jsonl).
func Shipped() []Case {
	cases, err := LoadJSONL(bytes.NewReader(shipped))
	if err != nil {
		panic("eval: shipped claims.jsonl: " + err.Error()) // a test guards this
	}
	return cases
}

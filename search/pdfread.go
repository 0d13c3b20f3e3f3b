package search

import "errors"

// ReadPDF reads the text of a PDF held in memory (an attachment), page by
// page, under the same bounds as a PDF the reader fetched.
func ReadPDF(body []byte) (*Page, error) {
	if !isPDF(body) {
		return nil, errors.New("the file is not a PDF")
	}
	return extractPDF(body)
}

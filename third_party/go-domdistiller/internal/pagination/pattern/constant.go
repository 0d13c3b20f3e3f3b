// ORIGINAL: java/PageParameterDetector.java

// Copyright (c) 2020 Markus Mobius
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

// Copyright 2015 The Chromium Authors. All rights reserved.
// Use of this source code is governed by a BSD-style license that can be
// found in the LICENSE file.

package pattern

import (
	"sync"

	regexp "github.com/markusmobius/go-domdistiller/internal/lazyre" // patched for factbot: compiled on first use
)

const (
	PageParamPlaceholder = "[*!]"
)

var (
	rxNumber             = regexp.MustCompile(`(?i)(\d+)`)
	rxEndOrHasSHTML      = regexp.MustCompile(`(?i)(.s?html?)?$`)
	rxLastPathComponent  = regexp.MustCompile(`(?i)([^/]*)/$`)
	rxTrailingSlashHTML  = regexp.MustCompile(`(?i)(?:/|(.html?))$`)
	rxPageParamSeparator = regexp.MustCompile(`[-_;,]`)
)

// Patched for factbot: built on first use.
var badPageParamNames = sync.OnceValue(func() map[string]struct{} {
	return map[string]struct{}{
		"baixar-gratis":  {},
		"category":       {},
		"content":        {},
		"day":            {},
		"date":           {},
		"definition":     {},
		"etiket":         {},
		"film-seyret":    {},
		"key":            {},
		"keys":           {},
		"keyword":        {},
		"label":          {},
		"news":           {},
		"q":              {},
		"query":          {},
		"rating":         {},
		"s":              {},
		"search":         {},
		"seasons":        {},
		"search_keyword": {},
		"search_query":   {},
		"sortby":         {},
		"subscriptions":  {},
		"tag":            {},
		"tags":           {},
		"video":          {},
		"videos":         {},
		"w":              {},
		"wiki":           {},
	}
})

// Package page reads a fetched Wikipedia page into a Document: its
// article key (title.go), title and structure, its article text and
// relevance to the topic, and the links of the job's scope (links.go,
// scan.go; prose.go reads the prose the way both generations of
// Wikipedia's markup lay it out), each weighed by the job's strategy
// (strategy.go) and, for the learned strategy and relevance feedback,
// hashed into features (features.go).
//
// A Document depends on the page's bytes and the Extractor's settings
// alone, never on the crawl: so a stored one stands in for a fetch of an
// unchanged page, and a crawl is the same at any concurrency.
package page

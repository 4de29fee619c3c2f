package crawl

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Requests are counted as the host sees them: when a reused connection
// breaks before any answer, Go's transport sends the request again, and
// both count, the first with no answer.
func TestRoundTripCountedCountsTransportRetries(t *testing.T) {
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) == 2 { // the second request, on the kept-alive connection: cut it
			c, _, _ := w.(http.Hijacker).Hijack()
			c.Close()
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	counts := map[int]int{}
	client := &http.Client{Transport: roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		return RoundTripCounted(http.DefaultTransport, r, func(status int) { counts[status]++ })
	})}
	for range 2 {
		resp, err := client.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) // read to the end: the connection is kept for the next
		resp.Body.Close()
	}
	if got := counts[0] + counts[200]; got != int(seen.Load()) || counts[0] != 1 || counts[200] != 2 {
		t.Errorf("counted %v, the server saw %d requests: want 200 twice and one without an answer", counts, seen.Load())
	}
	counts = map[int]int{}
	client.Get("http://127.0.0.1:1/")
	if len(counts) != 0 {
		t.Errorf("a refused connection counted %v: nothing was written", counts)
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

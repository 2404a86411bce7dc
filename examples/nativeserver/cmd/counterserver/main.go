// Command counterserver serves the example native resources server
// (package nativeserver) on one address.
//
//	counterserver -addr 127.0.0.1:8000 -close-retry-window 10m
//
// It refuses to start more than one worker: the server's state is
// process-local (see nativeserver.Server.MultipleWorkersUnsupportedReason).
package main

import (
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/gymlint/gymlint/examples/nativeserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "address to listen on")
	window := flag.Duration("close-retry-window", nativeserver.DefaultCloseRetryWindow, "how long a closed session stays fenced")
	workers := flag.Int("num-workers", 1, "worker processes; this server supports only 1")
	flag.Parse()

	srv := nativeserver.New(nativeserver.Config{CloseRetryWindow: *window})
	if *workers > 1 {
		log.Fatalf("num-workers %d: %s", *workers, srv.MultipleWorkersUnsupportedReason())
	}
	hs := &http.Server{
		Addr:              *addr,
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
	}
	log.Printf("counter resources server on http://%s", *addr)
	log.Fatal(hs.ListenAndServe())
}

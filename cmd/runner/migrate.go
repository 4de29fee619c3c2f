package main

import (
	"context"
	"fmt"
	"io"

	"github.com/topicrank/topicrank/pipeline"
)

func cmdMigrate(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("migrate", stderr)
	out := fs.String("out", "outputs", "output root to bring into the current layout")
	if err := parse(fs, args); err != nil {
		return err
	}
	n, err := pipeline.Migrate(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d runs moved into the current layout\n", *out, n)
	return nil
}

# Build: docker build -t topicrank .
# Run one job (an external scheduler's CronJob):  docker run --user "$(id -u)" -v "$PWD/outputs:/data/outputs" topicrank run -job tennis
# Or stay up on the built-in cron loop:            docker run --user "$(id -u)" -v "$PWD/outputs:/data/outputs" topicrank
# The image runs as a non-root user; --user lets it write to a host
# directory you own. Mount your own jobs.yaml over /data/jobs.yaml to change
# topics without rebuilding. Stop it with SIGTERM (docker stop): a run in
# progress is published as partial and resumed by the next one.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/runner ./cmd/runner

FROM gcr.io/distroless/static-debian12:nonroot
WORKDIR /data
COPY --from=build /out/runner /usr/local/bin/runner
COPY jobs.yaml /data/jobs.yaml
ENTRYPOINT ["/usr/local/bin/runner"]
CMD ["schedule", "-config", "/data/jobs.yaml", "-out", "/data/outputs"]

# syntax=docker/dockerfile:1
# The published image (pulls golang and distroless):
#   docker build --build-arg VERSION="$(git describe --tags --always)" -t topicrank .
# The same image without a registry: deploy/container/build-offline.sh
# builds the runner on this host as the build stage would, and a base with
# what distroless gives the runner (the nonroot user, CA certificates, zone
# data, /tmp), then builds this file with RUNNER=prebuilt BASE=offline-base.
#
# Run one job (an external scheduler's CronJob):
#   docker run --read-only --tmpfs /tmp -v "$PWD/outputs:/data/outputs" topicrank run -job seattle
# Or stay up on the built-in cron loop:
#   docker run -v "$PWD/outputs:/data/outputs" -p 9464:9464 topicrank
# The image runs as the non-root user 65532, who owns /data (outputs and
# crawl state); a host directory mounted there must be writable by that
# uid (or add --user "$(id -u)" for one you own). Mount a folder holding
# your own jobs.yaml at /config and pass -config /config/jobs.yaml to
# change topics without rebuilding: the running scheduler reloads it.
# Stop it with SIGTERM (docker stop -t 150): a run in progress is
# published as partial and resumed by the next one.
ARG RUNNER=build
ARG BASE=gcr.io/distroless/static-debian12:nonroot

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ARG VERSION=
# The module and build caches persist between builds: a change to one
# package recompiles that package, not the world.
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/topicrank/topicrank/internal/version.Override=${VERSION}" -o /out/runner ./cmd/runner && \
    mkdir -p /out/data/outputs

# The runner built on the host by build-offline.sh, with the build
# stage's command.
FROM scratch AS prebuilt
COPY .prebuilt/out/ /out/

# What distroless/static:nonroot gives the runner, from the host: the
# nonroot user (65532), CA certificates, zone data and /tmp.
FROM scratch AS offline-base
COPY .prebuilt/rootfs/ /
COPY --chown=65532:65532 .prebuilt/home/ /home/

FROM ${RUNNER} AS runner

FROM ${BASE}
COPY --from=runner --chown=65532:65532 /out/data /data
COPY --from=runner /out/runner /usr/local/bin/runner
COPY --chown=65532:65532 jobs.yaml /data/jobs.yaml
WORKDIR /data
USER 65532:65532
EXPOSE 9464
ENTRYPOINT ["/usr/local/bin/runner"]
CMD ["schedule", "-config", "/data/jobs.yaml", "-out", "/data/outputs", "-metrics-addr", ":9464"]

#!/bin/sh
# Builds the image from the repository's Dockerfile with no registry: the
# runner is built on this host with the Dockerfile's own build command, and
# the base is what distroless/static:nonroot gives the runner (the nonroot
# user 65532 from deploy/container/passwd and group, this host's CA
# certificates and zone data, /tmp), so the image has the published one's
# user, layout, entrypoint, certificates and zone data.
#
#   deploy/container/build-offline.sh [TAG]      (default topicrank:offline)
#
# ENGINE picks the engine (default podman; docker works too). VERSION names
# the build, as the Dockerfile's build argument does.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
tag=${1:-topicrank:offline}
engine=${ENGINE:-podman}
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT

cp "$repo/Dockerfile" "$repo/jobs.yaml" "$repo/go.mod" "$repo/go.sum" "$ctx/"
out="$ctx/.prebuilt/out"
mkdir -p "$out"
# The Dockerfile's build command, /out/ as $out/ (deploy_test checks they match):
(cd "$repo" && VERSION=${VERSION:-} && \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/topicrank/topicrank/internal/version.Override=${VERSION}" -o "$out/runner" ./cmd/runner && \
    mkdir -p "$out/data/outputs")

root="$ctx/.prebuilt/rootfs"
mkdir -p "$root/etc/ssl/certs" "$root/usr/share" "$root/tmp" "$ctx/.prebuilt/home/nonroot"
cp "$repo/deploy/container/passwd" "$repo/deploy/container/group" "$root/etc/"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
cp -R /usr/share/zoneinfo "$root/usr/share/"
chmod 1777 "$root/tmp"
chmod 700 "$ctx/.prebuilt/home/nonroot"

$engine build --build-arg RUNNER=prebuilt --build-arg BASE=offline-base -t "$tag" "$ctx"

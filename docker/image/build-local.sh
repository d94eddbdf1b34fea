#!/usr/bin/env bash
# Builds the images of Fusillade's container path on this machine, from Debian packages and Maven
# artifacts only: no image is pulled from a registry (src/site/servers.md#images-built-here).
#
#   docker/image/build-local.sh [servers] [injector] [base|postgres|kafka|opensearch]...
#
#   fusillade/base:bookworm      Debian bookworm (debootstrap, minbase) with Java 17 (JRE) and
#                                PostgreSQL 15: what the others are built on
#   fusillade/postgres:15        PostgreSQL, configured like the official postgres image
#   fusillade/kafka:4.3.1        a Kafka node (KRaft) from Kafka's Maven artifacts, like apache/kafka
#   fusillade/opensearch:2.19.1  an OpenSearch node from the embedded one's Maven artifacts, like
#                                opensearchproject/opensearch
#   fusillade/injector:local     the fusillade command (docker/image/Dockerfile) from a built
#                                checkout's simulations/target/fusillade.jar and target/lib
#
# "servers" (the default) is base, postgres, kafka and opensearch. Every image is labelled with the
# digest of what it is made of (io.fusillade.image.key): one that is up to date is not built again.
# What takes long to make is kept in FUSILLADE_IMAGE_CACHE (default ~/.cache/fusillade/images) by
# the same digests: the base's root file system, which debootstrap makes, and the jars of the kafka
# and opensearch images, which Maven copies; an engine with empty storage (CI) then builds the
# images from them in seconds.
#
# Needs: a Docker engine (DOCKER_HOST or /var/run/docker.sock); for the base, when it is not cached,
# root and debootstrap, and the Debian mirror of /etc/apt/sources.list* (or DEBIAN_MIRROR); for
# kafka and opensearch, Maven (MVN, default mvn, with MVN_ARGS, default "-B -q") and a JDK's javac.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${FUSILLADE_IMAGE_CACHE:-$HOME/.cache/fusillade/images}
mvn=${MVN:-mvn}
read -r -a mvn_args <<<"${MVN_ARGS:--B -q}"
# The classic builder: it builds FROM an image of the local engine without asking a registry, and
# needs no buildx plugin (which Docker 23+ clients want for BuildKit).
export DOCKER_BUILDKIT=0

readonly BASE=fusillade/base:bookworm
readonly POSTGRES=fusillade/postgres:15
readonly KAFKA=fusillade/kafka:4.3.1
readonly OPENSEARCH=fusillade/opensearch:2.19.1
readonly INJECTOR=fusillade/injector:local
readonly SUITE=bookworm
readonly PACKAGES=openjdk-17-jre-headless,postgresql-15,gosu,curl
readonly LABEL=io.fusillade.image.key

say() { echo "build-local: $*"; }
die() {
  echo "build-local: $*" >&2
  exit 1
}

# The first 16 hex digits of the SHA-256 of standard input.
digest() { sha256sum | cut -c1-16; }

# The digest of the files named (relative to the current directory), their names included.
files_digest() { find "$@" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | digest; }

# The key an image was built with, or nothing when the engine does not have it.
image_key() {
  docker image inspect --format "{{ index .Config.Labels \"$LABEL\" }}" "$1" 2>/dev/null || true
}

# Whether image $1 is there, built from key $2 (then it says so).
up_to_date() {
  if [ "$(image_key "$1")" = "$2" ]; then
    say "$1 is up to date ($2)"
    return 0
  fi
  return 1
}

# The Debian mirror apt uses here: DEBIAN_MIRROR, else the first source of the suite in
# /etc/apt/sources.list or sources.list.d (one-line or deb822 format), else deb.debian.org.
mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then
    echo "$DEBIAN_MIRROR"
    return
  fi
  local found
  found=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -E 's/\[[^]]*\]//' |
    awk -v suite="$SUITE" '$1 == "deb" && $3 == suite { print $2; exit }')
  if [ -z "$found" ]; then
    found=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
      awk -v suite="$SUITE" '
        /^URIs:/ { uri = $2 }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) { print uri; exit } }
        /^$/ { uri = "" }')
  fi
  echo "${found:-http://deb.debian.org/debian}"
}

# The base: a minimal Debian with the JRE and PostgreSQL, imported from a root file system that
# debootstrap makes once and the cache keeps.
build_base() {
  local key tarball work rootfs
  key=$({
    echo "$SUITE $PACKAGES"
    declare -f build_base
  } | digest)
  up_to_date "$BASE" "$key" && return
  tarball=$cache/base-$key.tar
  if [ ! -f "$tarball" ]; then
    [ "$(id -u)" = 0 ] || die "the base image's root file system is made by debootstrap, as root: run as root once (it is cached in $cache)"
    command -v debootstrap >/dev/null || die "debootstrap is missing (apt-get install debootstrap)"
    mkdir -p "$cache"
    work=$(mktemp -d "${TMPDIR:-/tmp}/fusillade-rootfs.XXXXXX")
    rootfs=$work/rootfs
    say "debootstrap $SUITE with $PACKAGES from $(mirror)"
    if ! debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$rootfs" "$(mirror)" \
      >"$work/debootstrap.log" 2>&1; then
      tail -20 "$work/debootstrap.log" >&2
      rm -rf "$work"
      die "debootstrap failed"
    fi
    # What an image does not need: downloaded packages, package lists, documentation, translations,
    # the cluster Debian's package creates (the entrypoint makes its own in PGDATA), and the
    # build machine's name and resolver (the engine gives each container its own).
    # PostgreSQL's JIT compiler (LLVM, a third of the size): the embedded server has none either.
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
      "$rootfs"/usr/share/doc "$rootfs"/usr/share/man "$rootfs"/usr/share/locale \
      "$rootfs"/var/lib/postgresql/15 "$rootfs"/etc/postgresql/15/main \
      "$rootfs"/etc/hostname "$rootfs"/etc/resolv.conf \
      "$rootfs"/usr/lib/postgresql/15/lib/llvmjit* "$rootfs"/usr/lib/postgresql/15/lib/bitcode \
      "$rootfs"/usr/lib/x86_64-linux-gnu/libLLVM-* "$rootfs"/usr/lib/x86_64-linux-gnu/libz3.so.*
    mkdir -p "$rootfs"/run/postgresql "$rootfs"/docker-entrypoint-initdb.d
    chroot "$rootfs" chown postgres:postgres /run/postgresql /var/lib/postgresql
    tar --numeric-owner -C "$rootfs" -cf "$tarball.partial" .
    mv "$tarball.partial" "$tarball"
    rm -rf "$work"
    # Older bases are of no more use.
    find "$cache" -maxdepth 1 -name 'base-*.tar' ! -name "base-$key.tar" -delete
  fi
  say "importing $BASE from $tarball"
  docker import --change "LABEL $LABEL=$key" --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["bash"]' "$tarball" "$BASE" >/dev/null
}

# The key of an image of directory $1 (the files that make it) on the base, and of $2... (more
# files it depends on).
key_of() {
  {
    image_key "$BASE"
    (cd "$1" && files_digest .)
    shift
    [ "$#" -eq 0 ] || sha256sum "$@"
  } | digest
}

# docker build of context $2 as image $1 with key $3, on the base.
build_on_base() {
  local image=$1 context=$2 key=$3 log
  say "building $image"
  log=$(mktemp)
  # The classic builder says on every build that it is deprecated: shown only when the build fails.
  if ! docker build -q --build-arg BASE="$BASE" --label "$LABEL=$key" -t "$image" "$context" \
    >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "could not build $image"
  fi
  rm -f "$log"
}

# The image of docker/image/$1 ($2: its name) with the jars of its pom.xml: a build context in the
# cache made once per key (Maven copies the jars from the local repository, downloading them there
# when missing), the key being that of the directory and of the parent pom, which gives the
# versions.
build_with_jars() {
  local module=$1 image=$2 key context
  key=$(key_of "$here/$module" "$root/pom.xml")
  up_to_date "$image" "$key" && return
  context=$cache/$module-$key
  if [ ! -d "$context" ]; then
    rm -rf "$context.partial"
    mkdir -p "$context.partial"
    say "jars of $image: $mvn ${mvn_args[*]} -f docker/image/$module/pom.xml dependency:copy-dependencies"
    (cd "$root" && "$mvn" "${mvn_args[@]}" -Dstyle.color=never -f "docker/image/$module/pom.xml" \
      dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory="$context.partial/dependency") ||
      die "Maven could not copy the jars of $image"
    if [ -f "$here/$module/OpenSearchNode.java" ]; then
      command -v javac >/dev/null || die "javac is missing: $image compiles OpenSearchNode.java (a JDK 17)"
      javac --release 17 -nowarn -d "$context.partial/classes" \
        -cp "$context.partial/dependency/*" "$here/$module/OpenSearchNode.java"
    fi
    find "$cache" -maxdepth 1 -name "$module-*" ! -name "$module-$key*" -exec rm -rf {} +
    mv "$context.partial" "$context"
  fi
  # The directory's own files beside the jars: the context is then complete.
  cp -r "$here/$module/." "$context/"
  build_on_base "$image" "$context" "$key"
}

build_injector() {
  local target=$root/simulations/target work key
  [ -f "$target/fusillade.jar" ] && [ -d "$target/lib" ] ||
    die "no $target/fusillade.jar and lib/: build the checkout first (mvn -B -q install -DskipTests)"
  # A build context of the Dockerfile and what it copies only (the checkout is large).
  work=$(mktemp -d "${TMPDIR:-/tmp}/fusillade-injector.XXXXXX")
  mkdir -p "$work/simulations/target"
  cp -l "$target/fusillade.jar" "$work/simulations/target/" 2>/dev/null ||
    cp "$target/fusillade.jar" "$work/simulations/target/"
  cp -rl "$target/lib" "$work/simulations/target/" 2>/dev/null ||
    cp -r "$target/lib" "$work/simulations/target/"
  cp "$here/Dockerfile" "$work/Dockerfile"
  key=$(key_of "$work")
  up_to_date "$INJECTOR" "$key" || build_on_base "$INJECTOR" "$work" "$key"
  rm -rf "$work"
}

docker version --format '{{.Server.Version}}' >/dev/null 2>&1 ||
  die "no Docker engine answers (DOCKER_HOST, /var/run/docker.sock)"

[ "$#" -gt 0 ] || set -- servers
images=()
for asked in "$@"; do
  case "$asked" in
    servers) images+=(base postgres kafka opensearch) ;;
    base | postgres | kafka | opensearch | injector) images+=("$asked") ;;
    *) die "unknown image '$asked': servers, injector, base, postgres, kafka or opensearch" ;;
  esac
done

start=$SECONDS
mkdir -p "$cache"
build_base
for image in "${images[@]}"; do
  case "$image" in
    postgres)
      key=$(key_of "$here/postgres")
      up_to_date "$POSTGRES" "$key" || build_on_base "$POSTGRES" "$here/postgres" "$key"
      ;;
    kafka) build_with_jars kafka "$KAFKA" ;;
    opensearch) build_with_jars opensearch "$OPENSEARCH" ;;
    injector) build_injector ;;
  esac
done
say "${images[*]}: $((SECONDS - start)) s"

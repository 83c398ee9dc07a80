#!/bin/sh
# Entry point of the Troupe image (docker/README.md): one process a container, as bin/troupe cluster
# start runs them on one host (LocalCluster).
#   driver        the host's standalone Aeron media driver, in $TROUPE_AERON_DIR/driver. Every node and
#                 client container shares this container's /dev/shm (ipc: service:driver), so that
#                 aeron:ipc log buffers are shared memory between their JVMs.
#   node ARGS...  a Troupe node, bin/troupe node ARGS, on that driver, reachable at $TROUPE_HOST (default:
#                 the container's host name, which docker-compose resolves for the other containers).
#   anything else the bin/troupe command line (--help, generate, ...).
# TROUPE_HEAP sizes a node's or command's heap (-Xmx, default 1g); TROUPE_JAVA_OPTS adds JVM options,
# -Dtroupe.<key>=<value> settings among them (config/reference.conf).
set -eu

home=/opt/troupe
classpath="$home/troupe.jar:$home/lib/*"
aeron=${TROUPE_AERON_DIR:-/dev/shm/troupe}
# Agrona (under Aeron) needs jdk.internal.misc: shared/stack-notes.md, section 2.
exports="--add-exports java.base/jdk.internal.misc=ALL-UNNAMED"

case "${1:-}" in
driver)
    mkdir -p "$aeron"
    # The options of io.troupe.transport.aeron.StandaloneDriver.systemProperties for the default
    # troupe.transport settings (DockerFilesTest keeps them equal). The nodes' channels carry their own
    # term length and MTU, so nodes with other troupe.transport settings need no change here.
    # Aeron's main deletes the directory on SIGTERM (docker stop).
    exec java -Xmx128m $exports \
        -Daeron.dir="$aeron/driver" \
        -Daeron.dir.delete.on.start=true \
        -Daeron.dir.delete.on.shutdown=true \
        -Daeron.threading.mode=SHARED \
        -Daeron.shared.idle.strategy=org.agrona.concurrent.BackoffIdleStrategy \
        -Daeron.ipc.term.buffer.length=8388608 \
        -Daeron.ipc.mtu.length=65504 \
        -Daeron.counters.buffer.length=1048576 \
        -Daeron.publication.linger.timeout=100000000 \
        -Daeron.timer.interval=100000000 \
        -cp "$classpath" io.aeron.driver.MediaDriver
    ;;
node)
    shift
    exec java -Xmx"${TROUPE_HEAP:-1g}" $exports \
        -Dtroupe.cluster.host="${TROUPE_HOST:-$(hostname)}" \
        -Dtroupe.cluster.media-driver-dir="$aeron/driver" \
        -Dtroupe.transport.dir="$aeron" \
        ${TROUPE_JAVA_OPTS:-} -cp "$classpath" io.troupe.cli.TroupeCli node "$@"
    ;;
*)
    exec java -Xmx"${TROUPE_HEAP:-1g}" $exports ${TROUPE_JAVA_OPTS:-} -cp "$classpath" io.troupe.cli.TroupeCli "$@"
    ;;
esac

package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import org.awaitility.Awaitility;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.util.SafeEncoder;

/**
 * A one-node Redis Cluster (every slot on one server of its own) reached through a {@link FaultProxy} that can
 * swallow a reply, so the Cluster client re-sends the command: the fixture of the re-send tests.
 */
final class ClusterBehindFaultProxy implements AutoCloseable {

    private final RedisServer node;
    private final FaultProxy proxy;
    private final RedisProbe probe;

    ClusterBehindFaultProxy() throws Exception {
        int proxyPort = FreePorts.next();
        node = RedisServer.start("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-announce-port", Integer.toString(proxyPort));
        proxy = new FaultProxy(proxyPort, node.port());
        probe = new RedisProbe(node.port());
        probe.raw().sendCommand(Protocol.Command.CLUSTER, "ADDSLOTSRANGE", "0", "16383");
        Awaitility.await("cluster_state:ok").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> SafeEncoder.encode((byte[]) probe.raw().sendCommand(Protocol.Command.CLUSTER, "INFO"))
                        .contains("cluster_state:ok"));
    }

    /** The proxy every client of {@link #open()} goes through. */
    FaultProxy proxy() {
        return proxy;
    }

    /** A direct client of the node, past the proxy. */
    RedisProbe probe() {
        return probe;
    }

    /** A Cluster store through the proxy, with a 1 s timeout so a swallowed reply is re-sent soon. */
    LockStore open() {
        return LockStore.open("redis-cluster://127.0.0.1:" + proxy.port() + "?timeout=1s");
    }

    @Override
    public void close() throws Exception {
        probe.close();
        proxy.close();
        node.close();
    }
}

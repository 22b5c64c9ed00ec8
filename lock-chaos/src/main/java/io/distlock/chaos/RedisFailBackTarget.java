package io.distlock.chaos;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.ServerControl;
import io.distlock.tck.fixture.ServerProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * Two redis-servers of the run's own without Sentinel, a master A and its asynchronous replica B, with the restart
 * guard on; clients reach whichever is master through a front port (a TCP proxy re-pointed at each promotion, as a
 * virtual IP would be). The fail-back: A is demoted towards a master it never reaches (it keeps its data), B is
 * promoted and serves for a while, B dies and A is promoted again with the older history it kept; B then starts
 * again empty as A's replica. Which history A's data belongs to is what the guard must tell.
 */
final class RedisFailBackTarget extends RedisNodesTarget {

    private static final Duration READY = Duration.ofSeconds(60);

    private final NioReactor reactor;
    private final int frontPort = FreePorts.next();
    private TcpCrusher front;
    private int failBacks;

    RedisFailBackTarget() {
        super("redis (master + replica, fail-back, restartGuard)", "redis",
                new RedisNodes("chaos-failback", 2, List.of()));
        try {
            reactor = new NioReactor();
            replicate(oldMaster(), promoted());
            pointFrontAt(oldMaster());
        } catch (IOException | RuntimeException e) {
            close();
            throw new IllegalStateException("could not start the fail-back pair", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting the fail-back pair", e);
        }
    }

    private ServerProcess oldMaster() {
        return nodes.get(0);
    }

    private ServerProcess promoted() {
        return nodes.get(1);
    }

    @Override
    public boolean failsBack() {
        return true;
    }

    /** A is demoted towards a port nobody listens on (it keeps its data, never resyncs), B promoted, clients to B. */
    @Override
    public void failOverToReplica() throws IOException, InterruptedException {
        RedisCli.run(oldMaster().port(), "REPLICAOF", "127.0.0.1", Integer.toString(FreePorts.next()));
        RedisCli.run(promoted().port(), "REPLICAOF", "NO", "ONE");
        pointFrontAt(promoted());
    }

    /**
     * A is promoted again with the data it kept and clients are sent to it, then B dies (SIGKILL); B starts again empty
     * as A's replica. A is promoted before B is killed so the clients move at once (B, cut off from every client, is
     * as good as dead): a holder granted on B just before is still inside its hold when the others reach A.
     */
    @Override
    public void failBackToOldMaster() throws IOException, InterruptedException {
        RedisCli.run(oldMaster().port(), "REPLICAOF", "NO", "ONE");
        pointFrontAt(oldMaster());
        promoted().kill();
        promoted().restart();
        replicate(oldMaster(), promoted());
        failBacks++;
    }

    /** Makes {@code replica} replicate {@code master} and waits until its link is up. */
    private static void replicate(ServerProcess master, ServerProcess replica)
            throws IOException, InterruptedException {
        RedisCli.run(replica.port(), "REPLICAOF", "127.0.0.1", Integer.toString(master.port()));
        Awaitility.await("replica " + replica.port() + " in sync with " + master.port()).atMost(READY)
                .pollInterval(Duration.ofMillis(100)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> RedisCli.run(replica.port(), "INFO", "replication").contains("master_link_status:up"));
    }

    /** Closes every client connection and serves the front port from {@code node} from now on. */
    private void pointFrontAt(ServerProcess node) {
        if (front != null) {
            front.close();
        }
        front = TcpCrusherBuilder.builder().withReactor(reactor).withBindAddress("127.0.0.1", frontPort)
                .withConnectAddress("127.0.0.1", node.port()).buildAndOpen();
    }

    @Override
    public String uri(int ignoredPort) {
        return "redis://127.0.0.1:" + frontPort + "?timeout=1s&restartGuard=true&maxLeaseTime="
                + RedisTarget.LEASE.toMillis() + "ms";
    }

    /** The front port: the one clients connect to. */
    @Override
    public int port() {
        return frontPort;
    }

    /** The fail-back is this target's own server fault. */
    @Override
    public Optional<ServerControl> server() {
        return Optional.empty();
    }

    @Override
    public String note() {
        return failBacks == 0 ? "" : failBacks + " fail-backs to the old master (promoted again without resync)";
    }

    @Override
    public void close() {
        if (front != null) {
            front.close();
        }
        if (reactor != null) {
            reactor.close();
        }
        super.close();
    }
}

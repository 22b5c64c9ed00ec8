package io.distlock.chaos;

import io.distlock.tck.fixture.ServerControl;
import java.time.Duration;
import java.util.Optional;

/**
 * A store under fault: its name, the URI clients use to reach it (directly or through a proxy port), how long a
 * silent holder keeps the lock, and the server the run owns (a kit fixture), which the server crash and pause hit.
 * Closing it stops everything it started.
 */
interface StoreTarget extends AutoCloseable {

    /** Short name for the report: redis, zookeeper, mariadb. */
    String store();

    /** The URI of a client that connects to {@code host:port} (the server's own port, or a proxy's). */
    String uri(int port);

    /** The port the server listens on. */
    int port();

    /** How long a silent holder keeps the lock: the lease time workers use, or the session timeout. */
    Duration holdBound();

    /** The lease time workers ask for. */
    default Duration lease() {
        return holdBound();
    }

    /**
     * The server that a server crash and a server pause hit; empty for targets whose faults are their own (a
     * failover, a partition).
     */
    Optional<ServerControl> server();

    /** Kills the server (SIGKILL) and starts it again from its own files after {@code down}. */
    default void crashAndRestart(Duration down) throws InterruptedException {
        ServerControl server = server().orElseThrow(() -> new IllegalStateException(store() + " has no server"));
        server.kill();
        Thread.sleep(down.toMillis()); // the outage itself
        server.restart();
    }

    /** Whether the server can be restored from an older copy of its data (the restore scenario). */
    default boolean restorable() {
        return false;
    }

    /** Copies the server's data as it is now, for {@link #restoreOlderCopy()}. */
    default void backUp() {
        throw new UnsupportedOperationException(store() + " cannot be restored from an older copy");
    }

    /** Crashes the server and starts it again from the copy {@link #backUp()} made. */
    default void restoreOlderCopy() {
        throw new UnsupportedOperationException(store() + " cannot be restored from an older copy");
    }

    /** Whether the target is a master and replica whose old master can be promoted again (the fail-back scenario). */
    default boolean failsBack() {
        return false;
    }

    /** Demotes the master without letting it resync (it keeps its data) and promotes its replica. */
    default void failOverToReplica() throws java.io.IOException, InterruptedException {
        throw new UnsupportedOperationException(store() + " cannot fail back");
    }

    /** Kills the promoted replica and promotes the old master again, with the older history it kept. */
    default void failBackToOldMaster() throws java.io.IOException, InterruptedException {
        throw new UnsupportedOperationException(store() + " cannot fail back");
    }

    /** What the faults did to this target, for the report's note (which node was hit); empty if nothing to say. */
    default String note() {
        return "";
    }

    @Override
    void close();
}

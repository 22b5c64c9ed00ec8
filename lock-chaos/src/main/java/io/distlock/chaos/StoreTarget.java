package io.distlock.chaos;

import java.time.Duration;

/**
 * A store under fault: a server (or ensemble) the run owns, the URI clients use to reach it (directly or through a
 * proxy port), and the server faults it supports. Closing it stops everything it started.
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

    /** Whether {@link #crashAndRestart} works (a server of the run's own, not a shared one). */
    default boolean canCrash() {
        return true;
    }

    /** Kills the server (SIGKILL or an in-process crash) and starts it again after {@code down}. */
    void crashAndRestart(Duration down) throws Exception;

    /** Whether {@link #pause()} and {@link #resume()} work (a server process of its own). */
    boolean canPause();

    /** Freezes the server with SIGSTOP. */
    void pause();

    /** Resumes a frozen server with SIGCONT. */
    void resume();

    /** What the faults did to this target, for the report's note (which node was hit); empty if nothing to say. */
    default String note() {
        return "";
    }

    @Override
    void close();
}

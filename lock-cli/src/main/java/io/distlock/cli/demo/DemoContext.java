package io.distlock.cli.demo;

import io.distlock.LeaseModel;
import io.distlock.spi.StoreUri;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What every demo scenario needs: the store the services share, where to keep the shared files, where to print,
 * and what kind of leases the store has (time-bound, or bound to a ZooKeeper session).
 *
 * @param storeUri the URI each service opens (sent over stdin, never shown with its password)
 * @param dir a private folder for the shared files and the services' logs
 * @param out where the tables go
 * @param runId makes this run's lock names unique, so a shared store needs no cleanup
 * @param leaseModel how the store's leases end
 * @param sessionTimeout for session-bound stores, how long a silent client keeps its locks; else null
 * @param processes how many services contend in the points and flash-sale scenarios, or 0 for each one's default
 * @param services the running services, shared by the scenarios (closed by whoever made the context)
 */
public record DemoContext(String storeUri, Path dir, PrintWriter out, String runId, LeaseModel leaseModel,
        Duration sessionTimeout, int processes, ServiceGroup services) {

    /** How long each service works between its check and its write: widens the race window. */
    public static final long WORK_PAUSE_MS = 300;

    /** The store URI with any password masked. */
    public String shownUri() {
        return StoreUri.redact(storeUri);
    }

    /** A lock name unique to this run. */
    public String lockName(String scenario) {
        return namePrefix() + scenario;
    }

    /** What every lock name of this run starts with. */
    public String namePrefix() {
        return "distlock-demo:" + runId + ":";
    }

    /** The number of services for a scenario whose own default is {@code fallback}. */
    public int processesOr(int fallback) {
        return processes > 0 ? processes : fallback;
    }
}

package io.distlock.shedlock;

import io.distlock.tck.fixture.StoreServers;
import java.util.UUID;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * Store URIs for the peer-code tests (ShedLock's here, Spring's through this module's test-jar): the shared Redis and
 * PostgreSQL servers under names no other test uses, and an in-process ZooKeeper (Curator's TestingServer) started
 * on first use and kept for the JVM.
 */
public final class TestStores {

    private static TestingServer zookeeper;

    static {
        // the in-process server lives as long as the test JVM: no need to fsync its transaction log
        System.setProperty("zookeeper.forceSync", "no");
    }

    private TestStores() {
    }

    /** A short unique tag for names. */
    public static String unique() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /**
     * A URI for {@code kind} (redis, zookeeper, postgres) whose key prefix, ZooKeeper chroot or table starts with
     * {@code prefix} (the calling module's name) and is unique to this call.
     */
    public static String uri(String kind, String prefix) {
        String tag = unique();
        return switch (kind) {
            case "redis" -> StoreServers.redis() + "?keyPrefix=" + prefix + "-" + tag + ":";
            case "zookeeper" -> "zookeeper://" + zookeeper().getConnectString() + "/" + prefix + "-" + tag
                    + "?sessionTimeout=6000ms&connectionTimeout=6000ms";
            case "postgres" -> StoreServers.postgres() + "&distlock.table=" + prefix + "_" + tag;
            default -> throw new IllegalArgumentException("unknown store kind " + kind);
        };
    }

    private static synchronized TestingServer zookeeper() {
        if (zookeeper == null) {
            try {
                zookeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 500, 0), true);
            } catch (Exception e) {
                throw new IllegalStateException("could not start an in-process ZooKeeper", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    zookeeper.close();
                } catch (java.io.IOException e) {
                    // the JVM is exiting; the server's temporary directory goes with it
                }
            }));
        }
        return zookeeper;
    }
}

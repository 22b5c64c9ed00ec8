package io.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import redis.clients.jedis.RedisClient;

/**
 * A Sentinel setup owned by a test: one master, one replica and three Sentinels (quorum 2) monitoring
 * {@value #MASTER}, all on free ports, ready when the replica is in sync and every Sentinel knows the replica.
 */
final class RedisSentinelFixture implements AutoCloseable {

    static final String MASTER = "distlockmaster";

    private final RedisServer master;
    private final RedisServer replica;
    private final List<RedisServer> sentinels = new ArrayList<>();

    private RedisSentinelFixture(RedisServer master, RedisServer replica) {
        this.master = master;
        this.replica = replica;
    }

    /** Starts the setup. */
    static RedisSentinelFixture start() {
        RedisServer master = RedisServer.start();
        RedisServer replica = RedisServer.start("--replicaof", "127.0.0.1", Integer.toString(master.port()));
        RedisSentinelFixture fixture = new RedisSentinelFixture(master, replica);
        try {
            for (int i = 0; i < 3; i++) {
                fixture.sentinels.add(RedisServer.startSentinel(MASTER, master.port()));
            }
            try (RedisClient r = RedisClient.create("127.0.0.1", replica.port())) {
                Awaitility.await("replica in sync").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> r.info("replication").contains("master_link_status:up"));
            }
            for (RedisServer s : fixture.sentinels) {
                try (RedisClient c = RedisClient.create("127.0.0.1", s.port())) {
                    Awaitility.await("sentinel sees the replica").atMost(Duration.ofSeconds(60))
                            .pollInterval(Duration.ofMillis(200))
                            .until(() -> c.info("sentinel").contains("slaves=1"));
                }
            }
            return fixture;
        } catch (RuntimeException e) {
            fixture.close();
            throw e;
        }
    }

    /** {@code redis-sentinel://} URI listing the Sentinels, plus {@code query}. */
    String uri(String query) {
        return "redis-sentinel://" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "/" + MASTER + (query.isEmpty() ? "" : "?" + query);
    }

    RedisServer master() {
        return master;
    }

    RedisServer replica() {
        return replica;
    }

    @Override
    public void close() {
        sentinels.forEach(RedisServer::close);
        replica.close();
        master.close();
    }
}

package io.distlock.redis;

import io.distlock.tck.NameLeftovers;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The kit's count of a Redis store's keys of names used once (§26): a {@code SCAN} of the names' keys under the
 * store's prefix on every node (one server, each of Redlock's, or each Cluster master), and an operator's {@code SET}
 * of a lock's counter to the server's {@code TIME} plus an amount.
 */
final class RedisNameLeftovers implements NameLeftovers {

    private final List<HostAndPort> nodes;
    private final RedisKeys keys;
    private final Duration grace;

    /** On the server of {@code storeUri} ({@code redis://host:port}), under the store's key prefix. */
    RedisNameLeftovers(String storeUri, String prefix) {
        this(List.of(new HostAndPort(URI.create(storeUri).getHost(), URI.create(storeUri).getPort())), prefix);
    }

    /** On each of {@code nodes}, under the store's key prefix. */
    RedisNameLeftovers(List<HostAndPort> nodes, String prefix) {
        this(nodes, prefix, CounterRetention.GRACE);
    }

    /**
     * On each of {@code nodes}, under the store's key prefix, for a store whose keys of a name outlive the lease by
     * {@code grace} (a Cluster's release tombstones live 4 × its timeout, longer than the counter's grace).
     */
    RedisNameLeftovers(List<HostAndPort> nodes, String prefix, Duration grace) {
        this.nodes = List.copyOf(nodes);
        this.keys = new RedisKeys(prefix);
        this.grace = grace;
    }

    @Override
    public Duration grace() {
        return grace;
    }

    @Override
    public long count(String namePrefix) {
        long found = 0;
        ScanParams match = new ScanParams().match(keys.pattern(namePrefix)).count(1000);
        for (HostAndPort node : nodes) {
            try (RedisClient raw = RedisClient.create(node.getHost(), node.getPort())) {
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = raw.scan(cursor, match);
                    found += page.getResult().size();
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            }
        }
        return found;
    }

    @Override
    public long pushLockCounterAhead(String name, Duration ahead) {
        long highest = 0;
        String key = keys.fence(name);
        for (HostAndPort node : nodes) {
            try (RedisClient raw = RedisClient.create(node.getHost(), node.getPort())) {
                if (!raw.exists(key)) {
                    continue;
                }
                @SuppressWarnings("unchecked")
                List<Object> time = (List<Object>) raw.sendCommand(redis.clients.jedis.Protocol.Command.TIME);
                long micros = Long.parseLong(text(time.get(0))) * 1_000_000 + Long.parseLong(text(time.get(1)));
                long value = micros + ahead.toNanos() / 1000;
                raw.set(key, Long.toString(value));
                highest = Math.max(highest, value);
            } catch (JedisMovedDataException e) {
                // a Cluster node that does not serve the key's slot
            }
        }
        if (highest == 0) {
            throw new IllegalStateException("no counter " + key + " to push ahead on " + nodes);
        }
        return highest;
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : reply.toString();
    }
}

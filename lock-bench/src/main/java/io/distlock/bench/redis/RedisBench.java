package io.distlock.bench.redis;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.StoreBench;
import io.distlock.bench.core.SemaphoreContender;
import io.distlock.bench.distlock.DistlockContender;
import io.distlock.bench.distlock.DistlockSemaphoreContender;
import java.util.List;
import io.distlock.bench.core.WireProtocol;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.RedisClient;

/**
 * Redis (a shared server, never started or stopped here): distlock, Redisson RLock and RFencedLock, raw Jedis, the
 * raw pub/sub wake-up floor (hand-off only); distlock's semaphore and Redisson's RPermitExpirableSemaphore.
 */
public final class RedisBench implements StoreBench {

    private final HostPort server;
    private final String distlockUri;

    /** Redis at {@code server}; {@code distlockUri} is the distlock URI template with {host} and {port}. */
    public RedisBench(HostPort server, String distlockUri) {
        this.server = server;
        this.distlockUri = distlockUri;
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public String describeServer() {
        try (RedisClient jedis = RedisClient.create(server.host(), server.port())) {
            String version = jedis.info("server").lines()
                    .filter(line -> line.startsWith("redis_version:"))
                    .map(line -> line.substring("redis_version:".length()).strip())
                    .findFirst().orElse("?");
            return "Redis " + version + " at " + server;
        }
    }

    @Override
    public OptionalDouble serverCpuSeconds() {
        try (RedisClient jedis = RedisClient.create(server.host(), server.port())) {
            double total = 0;
            for (String line : jedis.info("cpu").split("\\R")) {
                if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                    total += Double.parseDouble(line.substring(line.indexOf(':') + 1).strip());
                }
            }
            return OptionalDouble.of(total);
        }
    }

    @Override
    public WireProtocol protocol() {
        return WireProtocol.REDIS;
    }

    /**
     * Keys whose name contains {@code marker}, by SCAN (every layout of every library keeps the lock name in the key).
     */
    @Override
    public OptionalLong leftover(String marker) {
        try (RedisClient jedis = RedisClient.create(server.host(), server.port())) {
            long count = 0;
            String cursor = ScanParams.SCAN_POINTER_START;
            ScanParams params = new ScanParams().match("*" + marker + "*").count(10_000);
            do {
                ScanResult<String> page = jedis.scan(cursor, params);
                count += page.getResult().size();
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            return OptionalLong.of(count);
        }
    }

    @Override
    public HostPort server() {
        return server;
    }

    @Override
    public List<Contender> contenders(HostPort via) {
        return List.of(
                new DistlockContender(via.fill(distlockUri)),
                new RedissonContender(via, false),
                new RedissonContender(via, true),
                new RawRedisContender(via),
                new RawWakeUpRedisContender(via),
                new DistlockSemaphoreContender(via.fill(distlockUri), SemaphoreContender.DEFAULT_PERMITS),
                new RedissonSemaphoreContender(via, SemaphoreContender.DEFAULT_PERMITS));
    }

    @Override
    public void close() {
        // the shared Redis server is not ours to stop
    }
}

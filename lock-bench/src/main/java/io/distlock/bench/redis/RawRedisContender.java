package io.distlock.bench.redis;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import io.distlock.spi.OwnerTokens;
import java.util.List;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * The raw limit for Redis: Jedis's pooled {@link RedisClient} sending the two commands a safe lock needs,
 * {@code SET key token NX PX 30000} to acquire and an {@code EVALSHA} compare-and-delete to release. No waiting,
 * no renewal, no reentrancy: one attempt that must succeed (the scenarios it runs in are uncontended).
 */
public final class RawRedisContender extends Contender {

    static final String COMPARE_AND_DELETE =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

    private final HostPort server;

    /** A raw client for Redis at {@code server}. */
    public RawRedisContender(HostPort server) {
        super("raw SET NX PX + EVALSHA", Role.RAW);
        this.server = server;
    }

    @Override
    protected LockClient openClient() {
        RedisClient jedis = RedisClient.create(server.host(), server.port());
        String sha = jedis.scriptLoad(COMPARE_AND_DELETE);
        return new Client(jedis, sha);
    }

    /** One pooled Jedis client. */
    private static final class Client implements LockClient {
        private static final SetParams ACQUIRE = new SetParams().nx().px(30_000);
        private final RedisClient jedis;
        private final String sha;

        Client(RedisClient jedis, String sha) {
            this.jedis = jedis;
            this.sha = sha;
        }

        @Override
        public Held acquire(String name) {
            String token = OwnerTokens.newToken();
            if (!"OK".equals(jedis.set(name, token, ACQUIRE))) {
                throw new IllegalStateException("raw acquire of '" + name
                        + "' found it held; the raw limit never waits");
            }
            return () -> {
                Object deleted = jedis.evalsha(sha, List.of(name), List.of(token));
                if (!Long.valueOf(1).equals(deleted)) {
                    throw new IllegalStateException("raw release of '" + name + "' found it no longer ours");
                }
            };
        }

        @Override
        public void close() {
            jedis.close();
        }
    }
}

package io.distlock.bench.redis;

import io.distlock.bench.core.Contender;
import io.distlock.bench.core.HostPort;
import io.distlock.bench.core.Held;
import io.distlock.bench.core.LockClient;
import io.distlock.bench.core.Role;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.SetParams;

/**
 * The raw wake-up floor for Redis: the least a waiting lock needs to learn of a release, sent by hand. Acquire is
 * {@code SET key token NX PX 30000}; on refusal the thread parks until its client's one subscriber thread receives
 * the name's release message (or a short safety-net timeout passes), then tries again. Release is one
 * {@code EVALSHA} that deletes the key if it still holds the token and publishes on the name's channel, every time
 * (no waiter marker). It measures what the host's pub/sub delivery and thread wake-ups cost a hand-off, so it runs
 * only the hand-off scenario.
 */
public final class RawWakeUpRedisContender extends Contender {

    static final String RELEASE_AND_PUBLISH = "if redis.call('get', KEYS[1]) == ARGV[1] then "
            + "redis.call('del', KEYS[1]); redis.call('publish', ARGV[2], 'released'); return 1 else return 0 end";

    private static final Duration SAFETY_NET = Duration.ofMillis(100);

    private final HostPort server;
    private final Duration safetyNet;
    private final String channelPrefix = "bench:wake-up:" + UUID.randomUUID() + ":";

    /** A floor for Redis at {@code server}. */
    public RawWakeUpRedisContender(HostPort server) {
        this(server, SAFETY_NET);
    }

    /** A floor whose waiters try again after {@code safetyNet} if no release message came. */
    RawWakeUpRedisContender(HostPort server, Duration safetyNet) {
        super("raw SET NX PX + PUBLISH wake-up", Role.RAW_WAKE_UP);
        this.server = server;
        this.safetyNet = safetyNet;
    }

    @Override
    protected LockClient openClient() throws InterruptedException {
        RedisClient jedis = RedisClient.create(server.host(), server.port());
        Client client = new Client(jedis, jedis.scriptLoad(RELEASE_AND_PUBLISH));
        client.subscriber.start();
        if (!client.listener.subscribed.await(10, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("the release subscription to Redis at " + server + " was not confirmed");
        }
        return client;
    }

    /** One pooled Jedis client for commands, plus one pooled connection held by its subscriber thread. */
    private final class Client implements LockClient {
        private static final SetParams ACQUIRE = new SetParams().nx().px(30_000);
        private final RedisClient jedis;
        private final String sha;
        private final Listener listener = new Listener();
        private final Thread subscriber;

        Client(RedisClient jedis, String sha) {
            this.jedis = jedis;
            this.sha = sha;
            this.subscriber = new Thread(() -> jedis.psubscribe(listener, channelPrefix + "*"),
                    "bench-wake-up-subscriber");
            this.subscriber.setDaemon(true);
        }

        @Override
        public Held acquire(String name) throws InterruptedException {
            String channel = channelPrefix + name;
            Semaphore released = listener.releases.computeIfAbsent(channel, c -> new Semaphore(0));
            String token = UUID.randomUUID().toString();
            while (true) {
                released.drainPermits();
                if ("OK".equals(jedis.set(name, token, ACQUIRE))) {
                    return () -> {
                        Object deleted = jedis.evalsha(sha, List.of(name), List.of(token, channel));
                        if (!Long.valueOf(1).equals(deleted)) {
                            throw new IllegalStateException("release of '" + name + "' found it no longer ours");
                        }
                    };
                }
                released.tryAcquire(safetyNet.toNanos(), TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void close() throws InterruptedException {
            try {
                if (listener.isSubscribed()) {
                    listener.punsubscribe();
                }
                subscriber.join(TimeUnit.SECONDS.toMillis(10));
            } finally {
                jedis.close();
            }
        }
    }

    /** Wakes a waiter of a name when the name's release message arrives; other messages are dropped. */
    private static final class Listener extends JedisPubSub {
        final Map<String, Semaphore> releases = new ConcurrentHashMap<>();
        final CountDownLatch subscribed = new CountDownLatch(1);

        @Override
        public void onPSubscribe(String pattern, int subscribedChannels) {
            subscribed.countDown();
        }

        @Override
        public void onPMessage(String pattern, String channel, String message) {
            Semaphore released = releases.get(channel);
            if (released != null) {
                released.release();
            }
        }
    }
}

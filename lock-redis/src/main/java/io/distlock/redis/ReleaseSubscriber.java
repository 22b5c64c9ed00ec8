package io.distlock.redis;

import io.distlock.spi.ReleaseSignals;
import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The one pub/sub connection of a store: a daemon thread subscribed to the release channels of the store's key
 * prefix (one pattern subscription, whatever the number of locks or waiters) that wakes local waiters of a name
 * when its release is published. Each time the subscription is (re)established it wakes every waiter, since
 * messages sent while it was down are lost; after a failure it resubscribes with a capped backoff.
 */
final class ReleaseSubscriber implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ReleaseSubscriber.class.getName());
    private static final long MAX_BACKOFF_MS = 1000;

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final ReleaseSignals signals;
    private final String store;
    private final Thread thread;
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Listener current;
    private volatile boolean subscribed;

    ReleaseSubscriber(UnifiedJedis client, RedisKeys keys, ReleaseSignals signals, String store) {
        this.client = client;
        this.keys = keys;
        this.signals = signals;
        this.store = store;
        this.thread = new Thread(this::run, "distlock-redis-subscriber-" + store);
        this.thread.setDaemon(true);
    }

    /** Starts the subscriber thread. */
    ReleaseSubscriber start() {
        thread.start();
        return this;
    }

    /** Whether the subscription is up, so release messages arrive. */
    boolean isSubscribed() {
        return subscribed;
    }

    private void run() {
        long backoffMs = 10;
        while (closing.getCount() > 0) {
            Listener listener = new Listener();
            current = listener;
            try {
                client.psubscribe(listener, keys.channelPattern());
            } catch (JedisException | IllegalStateException e) {
                LOG.log(Level.DEBUG, "release subscription of redis store {0} failed: {1}", store, e.toString());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "release subscription of redis store " + store + " failed", e);
            } finally {
                subscribed = false;
                signals.signalAll(); // waiters fall back to polling by TTL; wake them to re-plan
            }
            if (listener.wasSubscribed) {
                backoffMs = 10;
            }
            try {
                if (closing.await(backoffMs, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
        }
    }

    @Override
    public void close() {
        closing.countDown();
        Listener listener = current;
        if (listener != null && listener.isSubscribed()) {
            try {
                listener.punsubscribe();
            } catch (JedisException e) {
                LOG.log(Level.DEBUG, "could not unsubscribe from redis store {0}: {1}", store, e.toString());
            }
        }
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Receives release messages of one subscription. */
    private final class Listener extends JedisPubSub {
        private volatile boolean wasSubscribed;

        @Override
        public void onPSubscribe(String pattern, int subscribedChannels) {
            wasSubscribed = true;
            subscribed = true;
            signals.signalAll(); // anything published while we were not listening is lost: re-check every lock
            if (closing.getCount() == 0) {
                punsubscribe();
            }
        }

        @Override
        public void onPMessage(String pattern, String channel, String message) {
            String name = keys.nameOfChannel(channel);
            if (name != null) {
                signals.signal(name);
            }
        }
    }
}

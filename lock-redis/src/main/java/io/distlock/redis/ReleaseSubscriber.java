package io.distlock.redis;

import io.distlock.spi.Backoff;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.ReleaseSignals;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The one pub/sub connection of a store: a daemon thread subscribed to the release channels of the store's key
 * prefix (one pattern subscription, whatever the number of locks or waiters) that wakes local waiters of a name
 * when its release is published. Each time the subscription is (re)established it wakes every waiter, since
 * messages sent while it was down are lost; after a failure it resubscribes with a capped backoff.
 *
 * <p>A subscription connection has no read timeout, so one that died without closing (a frozen peer, a silent
 * network path) would otherwise look alive for hours while waiters sleep on it until the holder's TTL. It is
 * therefore pinged every {@code pingEvery} (less often while the store's waiters stand in a long queue,
 * {@link #pingingLessOftenBy}); a ping not answered within {@code pongWithin} declares it lost: waiters
 * are woken and poll, the connection is cut, and a new subscription is made. The ping is a {@code SUBSCRIBE} or
 * {@code UNSUBSCRIBE}, in turn, of a probe channel of this store that nobody publishes on: its reply travels the
 * path of release messages. (Jedis's own pub/sub {@code PING} is not usable: under RESP3 its reply can overtake the
 * registration of its handler and end the subscription with "Unexpected message", and under RESP2 each one leaves
 * a handler queued forever.)
 */
final class ReleaseSubscriber implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ReleaseSubscriber.class.getName());
    private static final long FIRST_BACKOFF_MS = 10;
    private static final long MAX_BACKOFF_MS = 1000;

    private final Supplier<Connection> connections;
    private final RedisKeys keys;
    private final ReleaseSignals signals;
    private final String store;
    private final Thread thread;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final long pongWithinNanos;
    private final Duration pingEvery;
    private final ScheduledExecutorService scheduler;
    private final String probeChannel;
    private volatile Listener current;
    private volatile boolean subscribed;
    private volatile String ignoredMessage;
    private volatile String wakeChannel;
    private volatile Consumer<String> unheard = name -> { };
    private volatile IntSupplier pingSpread = () -> 1;
    private ScheduledFuture<?> pinging;
    /**
     * Checks since the last ping, and what the next one's spread is multiplied by (0 to 2, drawn at each ping, so
     * that the stores of one queue do not ping together): read and written by the checks alone, one at a time.
     */
    private int checksSincePing;
    private double pingStretch = ThreadLocalRandom.current().nextDouble(2);

    /**
     * A subscriber over connections from {@code connections} (each used for one subscription, then closed), pinged
     * from {@code scheduler}.
     */
    ReleaseSubscriber(Supplier<Connection> connections, RedisKeys keys, ReleaseSignals signals, String store,
            Duration pingEvery, Duration pongWithin, ScheduledExecutorService scheduler) {
        this.connections = connections;
        this.keys = keys;
        this.signals = signals;
        this.store = store;
        this.pingEvery = pingEvery;
        this.pongWithinNanos = pongWithin.toNanos();
        this.scheduler = scheduler;
        this.probeChannel = keys.prefix() + "probe:" + OwnerTokens.newToken();
        this.thread = new Thread(this::run, "distlock-redis-subscriber-" + store);
        this.thread.setDaemon(true);
    }

    /**
     * This subscriber, waking nobody for release messages that are exactly {@code message}: what the store's own
     * releases for other clients publish, which must not end its own next thread's courtesy. Call before
     * {@link #start}.
     */
    ReleaseSubscriber ignoring(String message) {
        this.ignoredMessage = message;
        return this;
    }

    /**
     * This subscriber, also subscribed to the store's own wake channel {@code channel}, on which a release that woke
     * this store (the head of the name's waiter queue) publishes the name; the subscription counts as up once that
     * channel is subscribed too. Call before {@link #start}.
     */
    ReleaseSubscriber wakingOn(String channel) {
        this.wakeChannel = channel;
        return this;
    }

    /**
     * This subscriber, handing to {@code unheard} (on the subscriber thread: it must not block) the name of a wake-up
     * on the store's wake channel that no waiter of this store was registered for, so it can be passed on. Call
     * before {@link #start}.
     */
    ReleaseSubscriber passingOn(Consumer<String> unheard) {
        this.unheard = unheard;
        return this;
    }

    /**
     * This subscriber, pinging about every {@code spread}-th time only (re-read at every check; after a random count
     * of checks from 1 to twice the spread): a store whose waiters stand in a long queue needs its subscription less
     * often, since a release wakes the queue's head alone. Call before {@link #start}.
     */
    ReleaseSubscriber pingingLessOftenBy(IntSupplier spread) {
        this.pingSpread = spread;
        return this;
    }

    /** Starts the subscriber thread and its pings. */
    ReleaseSubscriber start() {
        thread.start();
        long everyMs = Math.max(1, pingEvery.toMillis());
        pinging = scheduler.scheduleWithFixedDelay(this::checkAliveSafely, everyMs, everyMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Whether the subscription is up, so release messages arrive. */
    boolean isSubscribed() {
        return subscribed;
    }

    private void run() {
        int failures = 0;
        while (closing.getCount() > 0) {
            Listener listener = null;
            try (Connection connection = connections.get()) {
                listener = new Listener(connection);
                current = listener;
                try {
                    listener.proceedWithPatterns(connection, keys.channelPattern());
                } finally {
                    listener.end();
                    connection.setBroken(); // never back to the data pool: a ping reply may still be on its way
                }
            } catch (JedisException | IllegalStateException e) {
                LOG.log(Level.DEBUG, "release subscription of redis store {0} failed: {1}", store, e.toString());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "release subscription of redis store " + store + " failed", e);
            } finally {
                subscribed = false;
                signals.signalAll(); // waiters fall back to polling by TTL; wake them to re-plan
            }
            if (listener != null && listener.wasSubscribed) {
                failures = 0;
            }
            try {
                if (closing.await(Backoff.exponential(FIRST_BACKOFF_MS, MAX_BACKOFF_MS, failures++),
                        TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** A periodic task that throws is never run again: keep the pings going whatever happens. */
    private void checkAliveSafely() {
        try {
            checkAlive();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "pinging the release subscription of redis store " + store + " failed", e);
        }
    }

    /**
     * Runs every {@code pingEvery}: pings a subscription that has no ping outstanding (at its spread,
     * {@link #pingingLessOftenBy}), and declares it lost when its ping has gone unanswered for {@code pongWithin}.
     */
    private void checkAlive() {
        Listener listener = current;
        if (listener == null || !listener.wasSubscribed || closing.getCount() == 0) {
            return;
        }
        long now = System.nanoTime();
        long sentAt = listener.pingSentAt;
        if (sentAt != 0 && !listener.answered) {
            if (now - sentAt - pongWithinNanos >= 0) {
                listener.declareLost("no answer to a ping within " + Duration.ofNanos(pongWithinNanos));
            }
            return;
        }
        int spread = pingSpread.getAsInt();
        if (spread > 1 && ++checksSincePing < spread * pingStretch) {
            return;
        }
        checksSincePing = 0;
        pingStretch = ThreadLocalRandom.current().nextDouble(2);
        listener.sendPing(now);
    }

    @Override
    public void close() {
        closing.countDown();
        if (pinging != null) {
            pinging.cancel(false);
        }
        Listener listener = current;
        if (listener != null) {
            listener.stop();
        }
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Receives release messages of one subscription, and its answers to pings. */
    private final class Listener extends JedisPubSub {
        private final Connection connection;
        private volatile boolean wasSubscribed;
        private volatile long pingSentAt;
        private volatile boolean answered;
        /** Whether the probe channel is subscribed now: the next ping takes it out again. */
        private volatile boolean probing;
        /** Whether the store's wake channel is subscribed: ending the subscription takes it out too. */
        private volatile boolean waking;
        /** Guards {@link #ended} against pings: a ping on an ended subscription could reconnect its connection. */
        private final Object lock = new Object();
        private boolean ended;

        Listener(Connection connection) {
            this.connection = connection;
        }

        /** Called by the subscriber thread when the subscription's read loop is over: no ping touches it after. */
        void end() {
            synchronized (lock) {
                ended = true;
            }
        }

        /** Pings the subscription (probe channel in or out), or declares it lost if its connection is gone. */
        void sendPing(long now) {
            synchronized (lock) {
                if (ended) {
                    return;
                }
                if (connection.isBroken() || !connection.isConnected()) {
                    declareLost("its connection is closed");
                    return;
                }
                answered = false;
                pingSentAt = now;
                try {
                    if (probing) {
                        unsubscribe(probeChannel);
                    } else {
                        subscribe(probeChannel);
                    }
                } catch (JedisException | IllegalStateException e) {
                    declareLost("ping failed: " + e);
                }
            }
        }

        /** Ends a live subscription (the store is closing). */
        void stop() {
            synchronized (lock) {
                if (ended || !isSubscribed()) {
                    return;
                }
                try {
                    punsubscribe();
                    if (waking) {
                        unsubscribe(); // the wake channel (and a probe): a subscription ends with its last channel
                    }
                } catch (JedisException e) {
                    LOG.log(Level.DEBUG, "could not unsubscribe from redis store {0}: {1}", store, e.toString());
                }
            }
        }

        /** Wakes the waiters to poll and cuts the connection, which ends this subscription's read loop. */
        void declareLost(String why) {
            synchronized (lock) {
                if (ended) {
                    return;
                }
                LOG.log(Level.DEBUG, "release subscription of redis store {0} is lost ({1}); resubscribing", store,
                        why);
                subscribed = false;
                signals.signalAll();
                connection.setBroken();
                try {
                    connection.forceDisconnect();
                } catch (IOException e) {
                    LOG.log(Level.DEBUG, "closing the lost subscription of redis store {0}: {1}", store,
                            e.toString());
                }
            }
        }

        @Override
        public void onSubscribe(String channel, int subscribedChannels) {
            if (probeChannel.equals(channel)) {
                probing = true;
                answered = true;
            } else if (channel.equals(wakeChannel)) {
                waking = true;
                subscribed = true;
                signals.signalAll(); // anything published while we were not listening is lost: re-check every lock
                if (closing.getCount() == 0) {
                    unsubscribe();
                }
            }
        }

        @Override
        public void onUnsubscribe(String channel, int subscribedChannels) {
            if (probeChannel.equals(channel)) {
                probing = false;
                answered = true;
            }
        }

        @Override
        public void onPSubscribe(String pattern, int subscribedChannels) {
            wasSubscribed = true;
            if (wakeChannel == null) {
                subscribed = true;
                signals.signalAll(); // anything published while we were not listening is lost: re-check every lock
            } else {
                synchronized (lock) { // the pings write on this connection too
                    if (!ended) {
                        subscribe(wakeChannel); // up once it answers (onSubscribe)
                    }
                }
            }
            if (closing.getCount() == 0) {
                punsubscribe();
            }
        }

        @Override
        public void onMessage(String channel, String message) {
            if (channel.equals(wakeChannel)) {
                boolean heard = signals.hasWaiters(message);
                signals.signal(message);
                if (!heard) {
                    unheard.accept(message);
                }
            }
        }

        @Override
        public void onPMessage(String pattern, String channel, String message) {
            String name = keys.nameOfChannel(channel);
            if (name != null && !message.equals(ignoredMessage)) {
                signals.signal(name);
            }
        }
    }
}

package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.spi.Backoff;
import io.distlock.spi.Grant;
import io.distlock.spi.HandOvers;
import io.distlock.spi.OthersWaiting;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PollingLockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The store operations on one Redis keyspace (a single server, a Sentinel-managed master, or a Cluster): acquire is
 * one {@code EVALSHA} of {@link RedisScripts#ACQUIRE}; release is a compare-and-delete that publishes the release;
 * renewal sends every due lease in a few batched scripts. Waiters sleep until a release message from the store's
 * {@link ReleaseSubscriber} or the holder's remaining TTL. An acquire whose reply was lost is taken back in the
 * background by the {@link OrphanReaper}. On a Cluster, whose client re-sends a script after a lost reply, release
 * leaves a short-lived tombstone so that the re-sent release still answers "released".
 */
final class RedisBackend extends PollingLockBackend implements HandOvers, PermitBackend {

    /** The longest lock name this store accepts. */
    static final int MAX_NAME_LENGTH = 1024;
    /** The Redis store's terms: leases end by time (a key's TTL). */
    static final Terms TERMS = Terms.timed(MAX_NAME_LENGTH);
    /** The release subscription is pinged at least this often (more often with a short timeout). */
    private static final Duration MAX_PING_INTERVAL = Duration.ofSeconds(1);
    /**
     * A refused acquire's waiting marker outlives the holder's TTL by this much: the refused waiter sleeps at most
     * that TTL (plus a millisecond) before it tries again and leaves a new marker, so its marker is there for every
     * release it sleeps through.
     */
    static final Duration WAITER_MARGIN = Duration.ofSeconds(1);
    /**
     * A queued waiter that no release woke tries again after this long, jittered up to half of it more, times the
     * {@link QueueCrowd#spread} of the queue it was refused in (never later than the holder's TTL, so before its place
     * in the queue, which lives that TTL plus the {@link #WAITER_MARGIN}, expires).
     */
    static final Duration RECHECK = Duration.ofSeconds(1);

    private static final System.Logger LOG = System.getLogger(RedisBackend.class.getName());

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final LockCalls calls;
    private final String store;
    private final RedisOptions options;
    private final BatchRenewer renewer;
    private final ReleaseSubscriber subscriber;
    private final OrphanReaper reaper;
    private final ScheduledThreadPoolExecutor upkeep;
    private final boolean slotted;
    private final String tombstoneMs;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final RedisPermits permits;
    private final OwnerTokens.Sequence tokens = new OwnerTokens.Sequence();
    /** The waiter queues this client stands in, so that close() takes its places out. */
    private final QueuedPlaces places = new QueuedPlaces();
    /** How long the queues were that this client was refused in, which spreads out its re-checks and pings. */
    private final QueueCrowd crowd = new QueueCrowd();
    /** What this store's releases for other clients publish; its own subscriber wakes nobody for it. */
    private final String ownReleaseMessage = "released-for-others-by:" + OwnerTokens.newToken();

    /**
     * A backend over {@code client}.
     *
     * @param slotted whether keys of different locks may live on different nodes (Cluster): renew batches per slot
     */
    RedisBackend(UnifiedJedis client, RedisOptions options, String store, boolean slotted) {
        this.client = client;
        this.options = options;
        this.store = store;
        this.keys = new RedisKeys(options.keyPrefix());
        this.calls = new LockCalls(keys, options.restartGuard(), options.maxLeaseTime(), WAITER_MARGIN);
        this.renewer = new BatchRenewer(client, keys, calls, store, slotted, options.timeout());
        this.slotted = slotted;
        // a re-sent release comes within the client's retry budget (twice the timeout); keep the tombstone longer
        this.tombstoneMs = Long.toString(options.timeout().multipliedBy(4).toMillis());
        this.upkeep = new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "distlock-redis-upkeep-" + store);
            t.setDaemon(true);
            return t;
        });
        upkeep.setRemoveOnCancelPolicy(true);
        this.reaper = new OrphanReaper(client, calls, store, options.timeout(), upkeep);
        Duration pingEvery = options.timeout().dividedBy(2).compareTo(MAX_PING_INTERVAL) < 0
                ? options.timeout().dividedBy(2) : MAX_PING_INTERVAL;
        this.subscriber = new ReleaseSubscriber(RedisClients.subscriptionConnections(client), keys, signals(), store,
                pingEvery, options.timeout(), upkeep).ignoring(ownReleaseMessage).wakingOn(calls.wakeChannel())
                .passingOn(this::passOnLater).pingingLessOftenBy(crowd::ofStore).start();
        this.permits = new RedisPermits(client, keys, options, store, signals(), slotted).withReaper(reaper);
    }

    @Override
    public Terms terms() {
        return TERMS;
    }

    @Override
    protected Attempt attempt(String name, Duration leaseTime) {
        return attempt(name, leaseTime, false);
    }

    @Override
    protected Attempt waitingAttempt(String name, Duration leaseTime, int failed) {
        return attempt(name, leaseTime, true);
    }

    /** One attempt of a single try, or of an acquire that waits ({@code waiting}). */
    private Attempt attempt(String name, Duration leaseTime, boolean waiting) {
        ensureOpen();
        checkLease(leaseTime);
        String token = tokens.next();
        SentBytes held = OwnerValue.encoded(token, Thread.currentThread());
        Object reply;
        long sentAt = System.nanoTime(); // the grant's issue time, so the core need not copy it to add one
        try {
            reply = RedisScripts.ACQUIRE.run(client, calls.acquire(name, held, leaseTime));
        } catch (JedisException e) {
            if (waiting && RedisErrors.isPoolWaitInterrupted(e)) {
                // interrupted waiting for a pooled connection, nothing sent: an interrupt, not an outage (DEFECTS
                // S90); "not granted", with the flag set again, and the waiting loop raises InterruptedException
                if (slotted) { // unless it was a Cluster re-send: the lost try before it may have run (S99)
                    reaper.reap(name, held.text(), leaseTime);
                }
                Thread.currentThread().interrupt();
                return Attempt.held(0);
            }
            reply = acquireAfterFailure(name, held, leaseTime, e);
        }
        long answer = LockCalls.acquireAnswer(reply);
        long fence = LockCalls.grantedFence(answer);
        if (fence > 0) {
            return Attempt.granted(new Grant(name, token, fence, held, sentAt));
        }
        long waitMs = LockCalls.retryMillis(answer);
        // the refusal queued this client for the holder's TTL (the lease if unknown) plus the margin; one margin
        // more covers the clocks' drift between here and the server
        long placeNanos = TimeUnit.MILLISECONDS.toNanos(waitMs >= 0 ? waitMs : leaseTime.toMillis())
                + 2 * WAITER_MARGIN.toNanos();
        places.queued(name, placeNanos);
        crowd.refused(LockCalls.queuedClients(reply), placeNanos);
        return Attempt.held(waitMs >= 0 ? TimeUnit.MILLISECONDS.toNanos(waitMs) : -1);
    }

    /**
     * The reply of a single try whose acquire failed with {@code failure}: a single try ignores the interrupt flag, so
     * one interrupted in the pool's wait is tried again (S91); a reply lost otherwise has the lock taken back in the
     * background, as the script may have run.
     */
    private Object acquireAfterFailure(String name, SentBytes held, Duration leaseTime, JedisException failure) {
        try {
            return RedisErrors.againAfterInterruptedPoolWait(failure, options.timeout(),
                    () -> RedisScripts.ACQUIRE.run(client, calls.acquire(name, held, leaseTime)));
        } catch (JedisException e) {
            if (RedisErrors.mayHaveRun(e, slotted)) {
                reaper.reap(name, held.text(), leaseTime); // no reply: the script may have run and taken the lock
            }
            throw RedisErrors.translate(store, "acquire lock " + Arguments.quoted(name), e);
        }
    }

    /** The attempts ask nothing of the release tickets: an acquire that gets the lock at once takes none. */
    @Override
    protected boolean firstAttemptBeforeTicket() {
        return true;
    }

    private void checkLease(Duration leaseTime) {
        if (options.restartGuard() && leaseTime.compareTo(options.maxLeaseTime()) > 0) {
            throw new IllegalArgumentException("lease time " + leaseTime + " is longer than maxLeaseTime "
                    + options.maxLeaseTime() + " of redis store " + store
                    + ": with restartGuard=true no lease may outlast the guard's window");
        }
    }

    /**
     * While the release subscription is up, a waiter sleeps until the holder's TTL ends or its re-check is due,
     * whichever comes first (a release message that names this client wakes it sooner; a release wakes only the next
     * queued client, so the re-check bounds what a lost message or a woken client that died costs the others); when
     * the subscription is down, or the TTL is unknown, it polls with the default backoff. The re-check is spread by
     * the crowd of the queue the attempt just refused was in (it runs on this thread right after that attempt): the
     * clients of a long queue are woken in turn by releases, and those that re-check meanwhile only find it held.
     */
    @Override
    protected long pollDelayNanos(int failures, long holderTtlNanos) {
        if (subscriber.isSubscribed() && holderTtlNanos >= 0) {
            return Math.min(untilHolderExpiry(holderTtlNanos), recheckNanos(crowd.ofThisThread()));
        }
        return super.pollDelayNanos(failures, holderTtlNanos);
    }

    /**
     * A release woke this store for {@code name} while none of its threads waited for it (a waiter that gave up, a
     * refused attempt that did not wait): wakes the next queued client, in the background, so it need not wait for
     * its re-check. Lost (store closing, server unreachable), it costs that client its re-check only.
     */
    private void passOnLater(String name) {
        try {
            upkeep.execute(() -> {
                try {
                    RedisScripts.PASS_ON.run(client, calls.passOn(name));
                } catch (JedisException e) {
                    LOG.log(System.Logger.Level.DEBUG, "passing a wake-up of lock {0} on in redis store {1}"
                            + " failed: {2}", io.distlock.Arguments.quoted(name), store, e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            // the store is closing: the next client's re-check finds the lock
        }
    }

    private static long recheckNanos(int spread) {
        return Backoff.jitteredAbove(RECHECK.toNanos() * spread);
    }

    @Override
    public boolean release(Grant grant) {
        String name = grant.name();
        SentBytes held = (SentBytes) grant.handle();
        Object reply;
        try {
            reply = sendRelease(grant, held);
        } catch (JedisException e) {
            reply = RedisErrors.retryUninterruptibly(store, "release lock " + Arguments.quoted(name), e,
                    options.timeout(), () -> sendRelease(grant, held));
        }
        signals().signal(name);
        return ((Long) reply) == 1L;
    }

    /** One {@code EVALSHA} of {@link RedisScripts#RELEASE}, with the tombstone a re-sent release needs on a cluster. */
    private Object sendRelease(Grant grant, SentBytes held) {
        String name = grant.name();
        return slotted
                ? RedisScripts.RELEASE.run(client,
                        calls.releaseWithTombstone(name, OwnerValue.of(grant), grant.ownerToken(), tombstoneMs))
                : RedisScripts.RELEASE.run(client, calls.release(name, held));
    }

    /**
     * One {@code EVALSHA} of {@link RedisScripts#RELEASE_FOR_OTHERS}: the next other client is woken and this store
     * queues itself for its next thread, so the other client's release wakes it; the message over an earlier version's
     * marker names this store, so its own subscriber does not cut that thread's courtesy short.
     */
    @Override
    public boolean releaseForOthers(Grant grant) {
        String name = grant.name();
        Object reply = RedisErrors.callUninterruptibly(store, "release lock " + Arguments.quoted(name),
                options.timeout(), () -> RedisScripts.RELEASE_FOR_OTHERS.run(client, calls.releaseForOthers(name,
                        OwnerValue.of(grant), ownReleaseMessage, WAITER_MARGIN, grant.ownerToken(),
                        slotted ? tombstoneMs : null)));
        places.queued(name, 2 * WAITER_MARGIN.toNanos()); // it queued this client for its next thread
        return ((Long) reply) == 1L;
    }

    /**
     * One {@code EVALSHA} of {@link RedisScripts#HAND_OVER}, whose grant says whether a refused waiter left the
     * waiting marker, i.e. whether another client waits. A hand-over whose reply was lost may have run: the
     * {@link OrphanReaper} takes the new value back, as for an acquire.
     */
    @Override
    public Grant handOver(Grant from, Duration leaseTime, Thread receiver) {
        ensureOpen();
        checkLease(leaseTime);
        String name = from.name();
        String token = tokens.next();
        SentBytes held = OwnerValue.encoded(token, receiver);
        Object reply;
        try {
            try {
                reply = RedisScripts.HAND_OVER.run(client, calls.handOver(name, (SentBytes) from.handle(), held,
                        leaseTime));
            } catch (JedisException e) { // a release: one interrupted in the pool's wait is tried again (S91)
                reply = RedisErrors.againAfterInterruptedPoolWait(e, options.timeout(),
                        () -> RedisScripts.HAND_OVER.run(client, calls.handOver(name, (SentBytes) from.handle(), held,
                                leaseTime)));
            }
        } catch (JedisException e) {
            if (RedisErrors.mayHaveRun(e, slotted)) {
                reaper.reap(name, held.text(), leaseTime);
            }
            throw RedisErrors.translate(store, "hand over lock " + Arguments.quoted(name), e);
        }
        List<?> result = (List<?>) reply;
        long fence = (Long) result.get(0);
        OthersWaiting others = (Long) result.get(1) == 1L ? OthersWaiting.YES : OthersWaiting.NO;
        return fence > 0 ? new Grant(name, token, fence, held, -1, others) : null;
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        ensureOpen();
        for (Renewal r : renewals) {
            checkLease(r.leaseTime());
        }
        return renewer.renew(renewals);
    }

    // ---- semaphores: RedisPermits, in keys of their own ----------------------------------------------------------

    @Override
    public int maxPermits() {
        return RedisPermits.MAX_PERMITS;
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
            throws InterruptedException {
        ensureOpen();
        checkLease(leaseTime);
        return permits.acquire(name, limit, leaseTime, wait);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return permits.release(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        ensureOpen();
        renewals.forEach(r -> checkLease(r.leaseTime()));
        return permits.renew(renewals);
    }

    @Override
    public int heldPermits(String name) {
        ensureOpen();
        return permits.held(name);
    }

    @Override
    public PermitBackend permits() {
        return this;
    }

    @Override
    public LockAdmin admin() {
        return new RedisAdmin(client, keys, store);
    }

    /** Exposed for tests: how many round trips renewals have taken so far. */
    long renewalRoundTrips() {
        return renewer.roundTrips();
    }

    /** The id this store queues under in waiter queues (for tests). */
    String waiterId() {
        return calls.waiterId();
    }

    /** Whether the release subscription is up (for tests). */
    boolean isSubscribed() {
        return subscriber.isSubscribed();
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("redis store " + store + " is closed");
        }
    }

    /**
     * Takes this client's places out of the waiter queues it stands in (one pipelined {@code ZREM} each), so the next
     * release wakes a client that is still there. Bounded by the client timeout; if it fails, the places expire on
     * their own (the holder's TTL plus the margin) and cost the others at most their re-check meanwhile.
     */
    private void leaveWaiterQueues() {
        List<String> names = places.live();
        if (names.isEmpty()) {
            return;
        }
        String id = calls.waiterId();
        try (AbstractPipeline pipeline = client.pipelined()) {
            for (String name : names) {
                pipeline.zrem(keys.waiting(name), id);
            }
            pipeline.sync();
        } catch (JedisException e) {
            LOG.log(System.Logger.Level.DEBUG, "redis store {0} closed without leaving {1} waiter queue(s); the places"
                    + " expire on their own: {2}", store, names.size(), e.toString());
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            subscriber.close();
            upkeep.shutdownNow();
            signals().signalAll();
            leaveWaiterQueues();
            client.close();
        }
    }
}

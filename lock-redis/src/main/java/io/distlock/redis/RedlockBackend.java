package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Backoff;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PollingLockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Redlock over N independent Redis masters ({@code redlock://h1:p1,...}). An attempt runs the single-node acquire
 * script on every node in parallel, each bounded by a short per-node timeout, and wins when a majority granted it
 * within the lease's validity ({@link RedlockQuorum}); otherwise it releases whatever it got on every node and the
 * waiter retries after a random delay. The fencing token is the largest of the granting nodes' counters, written
 * back to each of them before the grant is returned, so the next majority (which shares a node with this one)
 * counts past it. Renew and release go to every node; a lease stays held while a majority still has it.
 * Semaphores are {@link RedlockPermits}: one such lock per permit slot.
 */
final class RedlockBackend extends PollingLockBackend implements PermitBackend {

    private final List<UnifiedJedis> nodes;
    private final List<String> nodeNames;
    private final RedlockQuorum quorum;
    private final RedisKeys keys;
    private final LockCalls calls;
    private final RedisOptions options;
    private final String store;
    private final LongSupplier clock;
    private final List<BatchRenewer> renewers = new ArrayList<>();
    private final ExecutorService pool;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final RedlockPermits permits;

    RedlockBackend(List<UnifiedJedis> nodes, List<String> nodeNames, RedisOptions options, String store,
            LongSupplier clock) {
        this.nodes = List.copyOf(nodes);
        this.nodeNames = List.copyOf(nodeNames);
        this.quorum = new RedlockQuorum(nodes.size());
        this.keys = new RedisKeys(options.keyPrefix());
        this.calls = new LockCalls(keys, options.restartGuard(), options.maxLeaseTime(), null); // waiters poll
        this.options = options;
        this.store = store;
        this.clock = clock;
        for (int i = 0; i < nodes.size(); i++) {
            renewers.add(new BatchRenewer(nodes.get(i), keys, calls, store + " node " + nodeNames.get(i), false,
                    options.timeout()));
        }
        this.permits = new RedlockPermits(this, quorum, keys, options, clock, signals());
        AtomicInteger threads = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> {
                    Thread t = new Thread(r, "distlock-redlock-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Opens a Redlock store: one client per listed master; a majority of them must answer now. */
    static LockBackend open(RedisUri uri) {
        if (uri.hosts().size() < 3) {
            throw new IllegalArgumentException("redlock store uri '" + uri.redacted() + "' lists "
                    + uri.hosts().size() + " node(s); Redlock needs at least 3 independent masters (5 recommended)");
        }
        Duration nodeTimeout = uri.options().nodeTimeout();
        List<UnifiedJedis> clients = new ArrayList<>();
        List<String> names = new ArrayList<>();
        uri.hosts().forEach(host -> {
            clients.add(RedisClient.builder().hostAndPort(host)
                    .clientConfig(RedisClients.clientConfig(uri, uri.database(), nodeTimeout))
                    .poolConfig(RedisClients.poolConfig(uri.options()))
                    .build());
            names.add(host.toString());
        });
        RedlockBackend backend = new RedlockBackend(clients, names, uri.options(), uri.redacted(), System::nanoTime);
        try {
            backend.requireQuorumReachable();
            Map<String, redis.clients.jedis.util.Pool<redis.clients.jedis.Connection>> pools = new LinkedHashMap<>();
            for (int i = 0; i < clients.size(); i++) {
                pools.put(names.get(i), ((RedisClient) clients.get(i)).getPool());
            }
            EvictionPolicyCheck.require(pools, uri.options().allowEviction(), uri.redacted());
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
        return backend;
    }

    private void requireQuorumReachable() {
        List<Outcome<String>> pings = onAllNodes(UnifiedJedis::ping);
        int failed = (int) pings.stream().filter(Outcome::failed).count();
        if (!quorum.reachable(failed)) {
            throw unavailable("open", pings);
        }
    }

    @Override
    public Terms terms() {
        return RedisBackend.TERMS;
    }

    @Override
    protected Attempt attempt(String name, Duration leaseTime) {
        ensureOpen();
        if (options.restartGuard() && leaseTime.compareTo(options.maxLeaseTime()) > 0) {
            throw new IllegalArgumentException("lease time " + leaseTime + " is longer than maxLeaseTime "
                    + options.maxLeaseTime() + " of redlock store " + store);
        }
        String token = OwnerTokens.newToken();
        String value = OwnerValue.of(token);
        LockCalls.Call acquire = calls.acquire(name, value, leaseTime);
        long start = clock.getAsLong();
        List<Outcome<Object>> replies = onAllNodes(node -> RedisScripts.ACQUIRE.run(node, acquire));
        long elapsed = clock.getAsLong() - start;

        List<Integer> granted = new ArrayList<>();
        Map<Integer, Long> nodeFences = new HashMap<>();
        long fence = 0;
        long holderTtl = -1;
        int failed = 0;
        for (int i = 0; i < replies.size(); i++) {
            Outcome<Object> reply = replies.get(i);
            if (reply.failed()) {
                failed++;
                continue;
            }
            long answer = (Long) reply.value();
            long nodeFence = LockCalls.grantedFence(answer);
            if (nodeFence > 0) {
                granted.add(i);
                nodeFences.put(i, nodeFence);
                fence = Math.max(fence, nodeFence);
            } else {
                long waitMs = LockCalls.retryMillis(answer);
                if (waitMs >= 0) {
                    holderTtl = holderTtl < 0 ? waitMs : Math.min(holderTtl, waitMs);
                }
            }
        }
        if (quorum.won(granted.size(), leaseTime, elapsed) && raiseFences(name, fence, granted, nodeFences, leaseTime)
                && quorum.won(granted.size(), leaseTime, clock.getAsLong() - start)) {
            return Attempt.granted(new Grant(name, token, fence, value));
        }
        releaseEverywhere(name, value);
        if (!quorum.reachable(failed)) {
            throw unavailable("acquire lock " + Arguments.quoted(name), replies);
        }
        return Attempt.held(holderTtl >= 0 ? TimeUnit.MILLISECONDS.toNanos(holderTtl) : -1);
    }

    /**
     * Raises the fencing counter of every granting node that is below {@code fence} (none, once the nodes' counters
     * move in step); drops the nodes where that failed. Returns whether a majority is left.
     */
    private boolean raiseFences(String name, long fence, List<Integer> granted, Map<Integer, Long> nodeFences,
            Duration leaseTime) {
        return raiseCounter(keys.fence(name), fence, granted, nodeFences, leaseTime);
    }

    /** As {@link #raiseFences(String, long, List, Map, Duration)}, on the counter at {@code fenceKeyName}. */
    boolean raiseCounter(String fenceKeyName, long fence, List<Integer> granted, Map<Integer, Long> nodeFences,
            Duration leaseTime) {
        List<Integer> behind = granted.stream().filter(i -> nodeFences.get(i) < fence).toList();
        if (!behind.isEmpty()) {
            LockCalls.Call raise = calls.raiseCounter(fenceKeyName, fence, leaseTime);
            List<Outcome<Object>> raised = onNodes(behind, node -> RedisScripts.RAISE_FENCE.run(node, raise));
            for (int k = 0; k < behind.size(); k++) {
                if (raised.get(k).failed()) {
                    granted.remove(behind.get(k));
                }
            }
        }
        return granted.size() >= quorum.quorum();
    }

    /** Releases a failed attempt's keys on every node, waiting (at most the node timeout) before the next try. */
    private void releaseEverywhere(String name, String value) {
        LockCalls.Call release = calls.release(name, value);
        onAllNodes(node -> RedisScripts.RELEASE.run(node, release)); // a node we cannot reach expires the key
    }

    /** Redlock waits a random delay between attempts (so contenders do not retry in lockstep). */
    @Override
    protected long pollDelayNanos(int failures, long holderTtlNanos) {
        return notPastHolderExpiry(Backoff.jittered(options.retryDelay().toNanos()), holderTtlNanos);
    }

    @Override
    public boolean release(Grant grant) {
        String name = grant.name();
        LockCalls.Call release = calls.release(name, (String) grant.handle());
        List<Outcome<Object>> replies = onAllNodes(node -> RedisScripts.RELEASE.run(node, release));
        signals().signal(name);
        int released = 0;
        int failed = 0;
        for (Outcome<Object> reply : replies) {
            if (reply.failed()) {
                failed++;
            } else if ((Long) reply.value() == 1L) {
                released++;
            }
        }
        if (released >= quorum.quorum()) {
            return true;
        }
        if (released + failed >= quorum.quorum()) {
            throw unavailable("release lock " + Arguments.quoted(name), replies);
        }
        return false;
    }

    @Override
    public Set<Grant> renew(List<Renewal> renewals) {
        ensureOpen();
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            all.add(i);
        }
        List<Outcome<Set<Grant>>> perNode = parallel(all, i -> renewers.get(i).renew(renewals));
        int failed = (int) perNode.stream().filter(Outcome::failed).count();
        if (!quorum.reachable(failed)) {
            throw unavailable("renew " + renewals.size() + " lease(s)", perNode);
        }
        Map<Grant, Integer> renewedOn = new HashMap<>();
        for (Outcome<Set<Grant>> outcome : perNode) {
            if (outcome.failed()) {
                continue;
            }
            for (Renewal r : renewals) {
                if (!outcome.value().contains(r.grant())) {
                    renewedOn.merge(r.grant(), 1, Integer::sum);
                }
            }
        }
        Set<Grant> lost = new HashSet<>();
        for (Renewal r : renewals) {
            if (renewedOn.getOrDefault(r.grant(), 0) < quorum.quorum()) {
                lost.add(r.grant());
            }
        }
        return lost;
    }

    // ---- semaphores: RedlockPermits, one Redlock lock per slot ------------------------------------------------------

    @Override
    public int maxPermits() {
        return RedlockPermits.MAX_PERMITS;
    }

    @Override
    public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
            throws InterruptedException {
        ensureOpen();
        if (options.restartGuard() && leaseTime.compareTo(options.maxLeaseTime()) > 0) {
            throw new IllegalArgumentException("lease time " + leaseTime + " is longer than maxLeaseTime "
                    + options.maxLeaseTime() + " of redlock store " + store);
        }
        return permits.acquire(name, limit, leaseTime, wait);
    }

    @Override
    public boolean releasePermit(Grant grant) {
        return permits.release(grant);
    }

    @Override
    public Set<Grant> renewPermits(List<Renewal> renewals) {
        ensureOpen();
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
        List<RedisAdmin> admins = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            admins.add(new RedisAdmin(nodes.get(i), keys, store + " node " + nodeNames.get(i)));
        }
        return new RedlockAdmin(admins, quorum);
    }

    /** The outcome of one call on one node: a value or the failure. */
    record Outcome<T>(T value, RuntimeException error, String node) {
        boolean failed() {
            return error != null;
        }
    }

    <T> List<Outcome<T>> onAllNodes(Function<UnifiedJedis, T> call) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            all.add(i);
        }
        return onNodes(all, call);
    }

    private <T> List<Outcome<T>> onNodes(List<Integer> indexes, Function<UnifiedJedis, T> call) {
        return parallel(indexes, i -> call.apply(nodes.get(i)));
    }

    /**
     * Runs {@code call} for each node index in parallel, each bounded by the per-node timeout (three times). An
     * interrupt does not abandon the calls in flight: they are waited for up to the same bound, so an attempt is
     * answered, and released, on every node it reached, and the flag is set again for the caller's wait loop, which
     * then throws {@link InterruptedException}.
     */
    private <T> List<Outcome<T>> parallel(List<Integer> indexes, Function<Integer, T> call) {
        List<Future<T>> futures = new ArrayList<>(indexes.size());
        for (int index : indexes) {
            futures.add(pool.submit(() -> call.apply(index)));
        }
        long deadline = System.nanoTime() + options.nodeTimeout().toNanos() * 3 + TimeUnit.MILLISECONDS.toNanos(50);
        List<Outcome<T>> outcomes = new ArrayList<>(indexes.size());
        for (int k = 0; k < futures.size(); k++) {
            String node = nodeNames.get(indexes.get(k));
            Future<T> future = futures.get(k);
            try {
                outcomes.add(new Outcome<>(getUninterruptibly(future, deadline), null, node));
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IllegalArgumentException iae) {
                    throw iae;
                }
                outcomes.add(new Outcome<>(null, cause instanceof RuntimeException re ? re
                        : new LockException(String.valueOf(cause), cause), node));
            } catch (TimeoutException e) {
                future.cancel(true);
                outcomes.add(new Outcome<>(null, new StoreUnavailableException("no answer within "
                        + options.nodeTimeout().multipliedBy(3)), node));
            }
        }
        return outcomes;
    }

    /** The call's result, waited for until {@code deadline} whatever interrupts come; the flag is kept for later. */
    private static <T> T getUninterruptibly(Future<T> future, long deadline)
            throws ExecutionException, TimeoutException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The store and node that gave {@code outcome}, for a message. */
    String where(Outcome<?> outcome) {
        return "redlock store " + store + " node " + outcome.node();
    }

    StoreUnavailableException unavailable(String what, List<? extends Outcome<?>> outcomes) {
        StringBuilder b = new StringBuilder("redlock store ").append(store).append(" cannot ").append(what)
                .append(": fewer than ").append(quorum.quorum()).append(" of ").append(nodes.size())
                .append(" nodes answered");
        outcomes.stream().filter(Outcome::failed)
                .forEach(o -> b.append("; ").append(o.node()).append(": ").append(o.error().getMessage()));
        StoreUnavailableException e = new StoreUnavailableException(b.toString());
        outcomes.stream().filter(Outcome::failed).forEach(o -> e.addSuppressed(o.error()));
        return e;
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("redlock store " + store + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            signals().signalAll();
            pool.shutdownNow();
            nodes.forEach(UnifiedJedis::close);
        }
    }
}

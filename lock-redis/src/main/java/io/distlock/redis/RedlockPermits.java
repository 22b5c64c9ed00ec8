package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.spi.Backoff;
import io.distlock.spi.Grant;
import io.distlock.spi.OwnerTokens;
import io.distlock.spi.PermitBackend;
import io.distlock.spi.PermitWaits;
import io.distlock.spi.ReleaseSignals;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Semaphores on Redlock: a semaphore of limit {@code N} is {@code N} slot locks, and a permit is one slot won as a
 * Redlock lock is won ({@link RedlockPermitScripts}): the same member on a majority of masters within the lease's
 * validity, its fencing token made of the largest of the granting masters' counters and the slot (below).
 *
 * <p>Why slots and not one holder set per master: a permit counted as "admitted by a majority, each master keeping at
 * most {@code N} members" is not safe. With 3 masters and {@code N = 2}, holders admitted by {A,B}, {B,C} and {A,C}
 * each have a majority while every master keeps only 2 members: 3 holders of 2 permits. A slot is a Redlock lock,
 * and two majorities of one slot share a master that admits one value only, so at most one holder per slot and at
 * most {@code N} holders per name.
 *
 * <p>Tokens: {@code counter + (slot - 1)}, where the counter (one per name, as the lock's) moves in steps of
 * {@link #TOKEN_STEP} = {@link #MAX_PERMITS} and is the largest of the granting masters', written back to those
 * behind. Successive permits increase for the lock's reason (any two majorities share a master raised to the earlier
 * counter, which then counts a step past it), and two permits granted at the same moment on majorities that read the
 * shared master before either wrote back may share a counter but never a slot, so never a token. The slot digits
 * make a tie impossible by construction at no extra round trip; a second phase re-checking the shared master was not
 * chosen: a client cannot tell which master a concurrent grant shares, and undoing a tie would cost another round.
 * Bound: the counter is about the server time in µs (about 1.8e15 in 2026) plus one step per grant faster than one
 * per 100 µs, so tokens stay below 2^53 (exact in Lua's doubles and in JSON) until about the year 2255.
 *
 * <p>An attempt first reads the slots on every master (one round), then tries the slots free on a majority, one
 * round each, in an order that starts at a random slot; an attempt it does not win is released on every master.
 * The limit is kept per master in a key that lives as long as its longest slot: a master that records another
 * limit refuses the attempt, and a release that leaves no slot deletes it. A master whose limit key holds no limit
 * (an operator's value) fails attempts and counts with a {@link io.distlock.LockException} naming the key: the limit
 * of the slots held is unknown, and taking the caller's could let in more holders than theirs.
 */
final class RedlockPermits {

    /** The highest limit a Redlock semaphore takes: every attempt reads all its slots on every master. */
    static final int MAX_PERMITS = 100;
    /** The step of a Redlock semaphore's counter: room for a slot offset {@code 0..MAX_PERMITS - 1} below it. */
    static final int TOKEN_STEP = MAX_PERMITS;
    private static final String SIGNAL = "\u0000sem:";

    /** What a Redlock permit grant keeps: its slot, the limit it was taken under, its owner value. */
    record Slot(int index, int permits, String value) {
        @Override
        public String toString() {
            return "Slot[" + index + " of " + permits + "]"; // never the owner value
        }
    }

    private final RedlockBackend nodes;
    private final RedlockQuorum quorum;
    private final RedisKeys keys;
    private final RedisOptions options;
    private final LongSupplier clock;
    private final ReleaseSignals signals;

    RedlockPermits(RedlockBackend nodes, RedlockQuorum quorum, RedisKeys keys, RedisOptions options,
            LongSupplier clock, ReleaseSignals signals) {
        this.nodes = nodes;
        this.quorum = quorum;
        this.keys = keys;
        this.options = options;
        this.clock = clock;
        this.signals = signals;
    }

    String slot(String name, int index) {
        return keys.key(RedisKeys.Kind.SEM_SLOT, name) + index;
    }

    String limit(String name) {
        return keys.key(RedisKeys.Kind.SEM_LIMIT, name);
    }

    String fence(String name) {
        return keys.key(RedisKeys.Kind.SEM_FENCE, name);
    }

    private List<String> slots(String name, int permits) {
        List<String> list = new ArrayList<>(permits);
        for (int i = 1; i <= permits; i++) {
            list.add(slot(name, i));
        }
        return list;
    }

    Grant acquire(String name, int permits, Duration leaseTime, Wait wait) throws InterruptedException {
        return PermitWaits.acquire(signals, SIGNAL + name, wait, Backoff::pollNanos,
                () -> attempt(name, permits, leaseTime));
    }

    private Grant attempt(String name, int permits, Duration leaseTime) {
        String what = "acquire a permit of semaphore " + Arguments.quoted(name);
        List<String> scanKeys = new ArrayList<>();
        scanKeys.add(limit(name));
        scanKeys.addAll(slots(name, permits));
        List<RedlockBackend.Outcome<Object>> scans = nodes.onAllNodes(
                node -> RedlockPermitScripts.SLOTS.run(node, scanKeys, List.of()));
        int failed = 0;
        int[] freeOn = new int[permits + 1];
        for (RedlockBackend.Outcome<Object> scan : scans) {
            if (scan.failed()) {
                failed++;
                continue;
            }
            List<?> states = (List<?>) scan.value();
            long recorded = (Long) states.get(0);
            if (recorded == -1) {
                throw RedisErrors.limitKeyHoldsNoLimit(nodes.where(scan), name, limit(name));
            }
            if (recorded > 0 && recorded != permits) {
                throw new IllegalStateException(PermitBackend.limitMismatch(name, (int) recorded, permits));
            }
            for (int i = 1; i <= permits; i++) {
                if ((Long) states.get(i) == -2L) {
                    freeOn[i]++;
                }
            }
        }
        if (!quorum.reachable(failed)) {
            throw nodes.unavailable(what, scans);
        }
        int start = ThreadLocalRandom.current().nextInt(permits);
        for (int k = 0; k < permits; k++) {
            int index = (start + k) % permits + 1;
            if (freeOn[index] >= quorum.quorum()) {
                Grant grant = trySlot(name, permits, index, leaseTime);
                if (grant != null) {
                    return grant;
                }
            }
        }
        return null;
    }

    /** One Redlock round on one slot: the grant if a majority gave it in time, else null (released everywhere). */
    private Grant trySlot(String name, int permits, int index, Duration leaseTime) {
        String token = OwnerTokens.newToken();
        String value = OwnerValue.of(token);
        List<String> keyList = options.restartGuard()
                ? List.of(slot(name, index), limit(name), fence(name), keys.guard())
                : List.of(slot(name, index), limit(name), fence(name));
        List<String> args = List.of(value, Long.toString(leaseTime.toMillis()), Integer.toString(permits),
                options.restartGuard() ? Long.toString(options.maxLeaseTime().toMillis()) : "0",
                Integer.toString(TOKEN_STEP));
        long sentAt = System.nanoTime();
        long start = clock.getAsLong();
        List<RedlockBackend.Outcome<Object>> replies = nodes.onAllNodes(
                node -> RedlockPermitScripts.ACQUIRE.run(node, keyList, args));
        long elapsed = clock.getAsLong() - start;
        List<Integer> granted = new ArrayList<>();
        Map<Integer, Long> nodeFences = new HashMap<>();
        long counter = 0;
        int recorded = 0;
        RedlockBackend.Outcome<Object> noLimit = null;
        int failed = 0;
        for (int i = 0; i < replies.size(); i++) {
            RedlockBackend.Outcome<Object> reply = replies.get(i);
            if (reply.failed()) {
                failed++;
                continue;
            }
            List<?> result = (List<?>) reply.value();
            long code = (Long) result.get(0);
            long number = (Long) result.get(1);
            if (code == 1L) {
                granted.add(i);
                nodeFences.put(i, number);
                counter = Math.max(counter, number);
            } else if (code == -1L && number == -1L) {
                noLimit = reply;
            } else if (code == -1L) {
                recorded = (int) number;
            }
        }
        Slot slot = new Slot(index, permits, value);
        if (recorded == 0 && noLimit == null && quorum.won(granted.size(), leaseTime, elapsed)
                && nodes.raiseCounter(fence(name), counter, granted, nodeFences, leaseTime)
                && quorum.won(granted.size(), leaseTime, clock.getAsLong() - start)) {
            return new Grant(name, token, counter + (index - 1), slot, sentAt);
        }
        releaseEverywhere(name, slot);
        if (noLimit != null) {
            throw RedisErrors.limitKeyHoldsNoLimit(nodes.where(noLimit), name, limit(name));
        }
        if (recorded > 0) {
            throw new IllegalStateException(PermitBackend.limitMismatch(name, recorded, permits));
        }
        if (!quorum.reachable(failed)) {
            throw nodes.unavailable("acquire a permit of semaphore " + Arguments.quoted(name), replies);
        }
        return null;
    }

    private List<RedlockBackend.Outcome<Object>> releaseEverywhere(String name, Slot slot) {
        List<String> keyList = new ArrayList<>();
        keyList.add(slot(name, slot.index()));
        keyList.add(limit(name));
        keyList.addAll(slots(name, slot.permits()));
        List<String> args = List.of(slot.value(), keys.channel(SIGNAL + name), SIGNAL + name,
                Integer.toString(slot.permits()));
        return nodes.onAllNodes(node -> RedlockPermitScripts.RELEASE.run(node, keyList, args));
    }

    boolean release(Grant grant) {
        String name = grant.name();
        List<RedlockBackend.Outcome<Object>> replies = releaseEverywhere(name, (Slot) grant.handle());
        signals.signal(SIGNAL + name);
        int released = 0;
        int failed = 0;
        for (RedlockBackend.Outcome<Object> reply : replies) {
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
            throw nodes.unavailable("release a permit of semaphore " + Arguments.quoted(name), replies);
        }
        return false;
    }

    /** Renews each permit on every master; a permit renewed on fewer than a majority is lost. */
    Set<Grant> renew(List<Renewal> renewals) {
        Set<Grant> lost = new HashSet<>();
        if (renewals.isEmpty()) {
            return lost;
        }
        List<RedlockBackend.Outcome<List<Boolean>>> perNode = nodes.onAllNodes(node -> {
            List<Boolean> renewed = new ArrayList<>(renewals.size());
            for (Renewal r : renewals) {
                Slot slot = (Slot) r.grant().handle();
                String name = r.grant().name();
                Object reply = RedlockPermitScripts.RENEW.run(node,
                        List.of(slot(name, slot.index()), limit(name), fence(name)),
                        List.of(slot.value(), Long.toString(r.leaseTime().toMillis()),
                                Integer.toString(slot.permits())));
                renewed.add((Long) reply == 1L);
            }
            return renewed;
        });
        int failed = (int) perNode.stream().filter(RedlockBackend.Outcome::failed).count();
        if (!quorum.reachable(failed)) {
            throw nodes.unavailable("renew " + renewals.size() + " permit(s)", perNode);
        }
        for (int k = 0; k < renewals.size(); k++) {
            int renewedOn = 0;
            for (RedlockBackend.Outcome<List<Boolean>> outcome : perNode) {
                if (!outcome.failed() && outcome.value().get(k)) {
                    renewedOn++;
                }
            }
            if (renewedOn < quorum.quorum()) {
                lost.add(renewals.get(k).grant());
            }
        }
        return lost;
    }

    /** The slots held on a majority of masters, under the limit the masters record. */
    int held(String name) {
        List<RedlockBackend.Outcome<Object>> limits = nodes.onAllNodes(
                node -> RedlockPermitScripts.SLOTS.run(node, List.of(limit(name)), List.of()));
        int failed = (int) limits.stream().filter(RedlockBackend.Outcome::failed).count();
        if (!quorum.reachable(failed)) {
            throw nodes.unavailable("count the permits of semaphore " + Arguments.quoted(name), limits);
        }
        int permits = 0;
        for (RedlockBackend.Outcome<Object> outcome : limits) {
            if (!outcome.failed()) {
                long recorded = (Long) ((List<?>) outcome.value()).get(0);
                if (recorded == -1) {
                    throw RedisErrors.limitKeyHoldsNoLimit(nodes.where(outcome), name, limit(name));
                }
                permits = Math.max(permits, (int) recorded);
            }
        }
        if (permits == 0) {
            return 0;
        }
        List<String> scanKeys = new ArrayList<>();
        scanKeys.add(limit(name));
        scanKeys.addAll(slots(name, permits));
        List<RedlockBackend.Outcome<Object>> scans = nodes.onAllNodes(
                node -> RedlockPermitScripts.SLOTS.run(node, scanKeys, List.of()));
        int[] heldOn = new int[permits + 1];
        for (RedlockBackend.Outcome<Object> scan : scans) {
            if (!scan.failed()) {
                List<?> states = (List<?>) scan.value();
                for (int i = 1; i <= permits; i++) {
                    if ((Long) states.get(i) != -2L) {
                        heldOn[i]++;
                    }
                }
            }
        }
        int held = 0;
        for (int i = 1; i <= permits; i++) {
            if (heldOn[i] >= quorum.quorum()) {
                held++;
            }
        }
        return held;
    }
}

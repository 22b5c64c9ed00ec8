package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import redis.clients.jedis.ScanIteration;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The operator view of a Redis store: lists held locks by {@code SCAN}ning the lock keys of the store's prefix
 * (on every master of a Cluster), showing each lock's fencing token, remaining TTL and holder description (never
 * its owner token), lists held semaphore permits the same way, and force-releases a lock by deleting its key and
 * publishing the release.
 */
final class RedisAdmin implements LockAdmin {

    private static final int SCAN_COUNT = 500;

    private final UnifiedJedis client;
    private final RedisKeys keys;
    private final String store;

    RedisAdmin(UnifiedJedis client, RedisKeys keys, String store) {
        this.client = client;
        this.keys = keys;
        this.store = store;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        String namePrefix = prefix == null ? "" : prefix;
        return RedisErrors.call(store, "list locks", () -> {
            List<String> names = new ArrayList<>();
            ScanIteration scan = client.scanIteration(SCAN_COUNT, keys.pattern(namePrefix));
            while (!scan.isIterationCompleted()) {
                for (String key : scan.nextBatchList()) {
                    String name = keys.nameOf(RedisKeys.Kind.LOCK, key);
                    if (name != null && name.startsWith(namePrefix)) {
                        names.add(name);
                    }
                }
            }
            names.sort(Comparator.naturalOrder());
            List<LockInfo> infos = new ArrayList<>();
            for (String name : names) {
                if (infos.size() >= limit) {
                    break;
                }
                LockInfo info = describe(name);
                if (info != null) {
                    infos.add(info);
                }
            }
            return infos;
        });
    }

    /** Held permits: {@code SCAN}s the semaphores' holder sets, then reads each one's live holders in one script. */
    @Override
    public boolean listsPermits() {
        return true;
    }

    @Override
    public List<LockInfo> listPermits(String prefix, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        String namePrefix = prefix == null ? "" : prefix;
        RedisPermits permits = new RedisPermits(client, keys, null, store, null, false);
        return RedisErrors.call(store, "list permits", () -> {
            List<String> names = new ArrayList<>();
            // every holder set: a name with a '}' has a hashed tag that a pattern of its prefix would not match
            ScanIteration scan = client.scanIteration(SCAN_COUNT, keys.pattern(""));
            while (!scan.isIterationCompleted()) {
                for (String key : scan.nextBatchList()) {
                    String name = keys.nameOf(RedisKeys.Kind.SEM_HOLDERS, key);
                    if (name != null && name.startsWith(namePrefix)) {
                        names.add(name);
                    }
                }
            }
            names.sort(Comparator.naturalOrder());
            List<LockInfo> infos = new ArrayList<>();
            for (String name : names) {
                List<?> live = (List<?>) RedisPermitScripts.LIST.run(client,
                        List.of(permits.holders(name), permits.fences(name)), List.of());
                long now = (Long) live.get(0);
                List<LockInfo> ofName = new ArrayList<>();
                for (int i = 1; i + 2 < live.size(); i += 3) {
                    ofName.add(new LockInfo(name, (Long) live.get(i + 2),
                            Duration.ofMillis((Long) live.get(i + 1) - now), OwnerValue.owner((String) live.get(i))));
                }
                ofName.sort(Comparator.comparingLong(LockInfo::fencingToken));
                for (LockInfo info : ofName) {
                    if (infos.size() >= limit) {
                        return infos;
                    }
                    infos.add(info);
                }
            }
            return infos;
        });
    }

    private LockInfo describe(String name) {
        String value;
        try {
            value = client.get(keys.lock(name));
        } catch (JedisDataException notAString) {
            return null; // a key of another type (an operator's) holds no holder: it must not break the listing
        }
        long ttl = client.pttl(keys.lock(name));
        if (value == null || ttl == -2) {
            return null; // released since the scan
        }
        return new LockInfo(name, fencingToken(counter(name)), ttl >= 0 ? Duration.ofMillis(ttl) : null,
                OwnerValue.owner(value));
    }

    /**
     * The lock's value (null if free or not a string) and its fence counter as a token (0 when none) on this node, for
     * Redlock's conditional force-release to tell which grant holds which token. The value holds the holder's secret
     * owner token: it is compared, never shown.
     */
    HolderOnNode holderOnNode(String name) {
        return RedisErrors.call(store, "reading lock " + Arguments.quoted(name), () -> {
            String value;
            try {
                value = client.get(keys.lock(name));
            } catch (JedisDataException notAString) {
                value = null;
            }
            return new HolderOnNode(value, fencingToken(counter(name)));
        });
    }

    /** A lock's value and fence counter on one node ({@link #holderOnNode}); toString never shows the value. */
    record HolderOnNode(String value, long counter) {
        @Override
        public String toString() {
            return "HolderOnNode[counter=" + counter + "]";
        }
    }

    /** The fence counter's text, or null when there is none or an operator left a key of another type there. */
    private String counter(String name) {
        try {
            return client.get(keys.fence(name));
        } catch (JedisDataException notAString) {
            return null;
        }
    }

    /**
     * The holder's token as its fence counter states it, or 0 when the counter holds no fencing token (missing, or
     * an operator's value no grant writes: not a whole number, below 1, from 2^53 on), as the scripts read it
     * ({@link RedisScripts#readCounter}): a spoiled counter must not break the operator's view.
     */
    private static long fencingToken(String counter) {
        try {
            long token = counter == null ? 0 : Long.parseLong(counter);
            return token >= 1 && token < (1L << 53) ? token : 0;
        } catch (NumberFormatException notAToken) {
            return 0;
        }
    }

    @Override
    public boolean forceRelease(String name) {
        Object reply = RedisErrors.call(store, "force-release lock " + Arguments.quoted(name), () ->
                RedisScripts.FORCE_RELEASE.run(client, List.of(keys.lock(name)), List.of(keys.channel(name), name)));
        return ((Long) reply) == 1L;
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return forceReleaseIf(name, fencingToken, null) != null;
    }

    /**
     * Deletes the lock if its fence counter holds {@code fencingToken}, or, when {@code value} is given, if the lock
     * holds exactly that value ({@link RedisScripts#FORCE_RELEASE_IF}); returns the value deleted (it contains the
     * holder's secret owner token: never shown), or null if nothing was.
     */
    String forceReleaseIf(String name, long fencingToken, String value) {
        List<String> args = value == null
                ? List.of(keys.channel(name), name, Long.toString(fencingToken))
                : List.of(keys.channel(name), name, Long.toString(fencingToken), value);
        Object reply = RedisErrors.call(store, "force-release lock " + Arguments.quoted(name), () ->
                RedisScripts.FORCE_RELEASE_IF.run(client, List.of(keys.lock(name), keys.fence(name)), args));
        return reply instanceof String deleted ? deleted : null;
    }
}

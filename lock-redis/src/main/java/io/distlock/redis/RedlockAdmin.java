package io.distlock.redis;

import io.distlock.LockAdmin;
import io.distlock.LockInfo;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator view of a Redlock store: a lock counts as held when a majority of the nodes that answered hold it;
 * its fencing token is the largest node counter and its time left the shortest node TTL. Force-release deletes the
 * lock on every node; the conditional force-release deletes it only where it holds the value of the grant that a
 * majority of the nodes hold under the given token.
 */
final class RedlockAdmin implements LockAdmin {

    private final List<RedisAdmin> nodes;
    private final RedlockQuorum quorum;

    RedlockAdmin(List<RedisAdmin> nodes, RedlockQuorum quorum) {
        this.nodes = nodes;
        this.quorum = quorum;
    }

    @Override
    public List<LockInfo> list(String prefix, int limit) {
        Map<String, List<LockInfo>> byName = new TreeMap<>();
        int failed = 0;
        StoreUnavailableException last = null;
        for (LockAdmin node : nodes) {
            try {
                for (LockInfo info : node.list(prefix, Integer.MAX_VALUE)) {
                    byName.computeIfAbsent(info.name(), k -> new ArrayList<>()).add(info);
                }
            } catch (StoreUnavailableException e) {
                failed++;
                last = e;
            }
        }
        if (!quorum.reachable(failed)) {
            throw last;
        }
        List<LockInfo> result = new ArrayList<>();
        for (Map.Entry<String, List<LockInfo>> e : byName.entrySet()) {
            if (result.size() >= limit) {
                break;
            }
            List<LockInfo> infos = e.getValue();
            if (infos.size() < quorum.quorum()) {
                continue;
            }
            long fence = infos.stream().mapToLong(LockInfo::fencingToken).max().orElse(0);
            Duration left = infos.stream().map(LockInfo::timeLeft).filter(d -> d != null)
                    .min(Duration::compareTo).orElse(null);
            Map<String, Integer> owners = new HashMap<>();
            infos.forEach(i -> owners.merge(i.owner(), 1, Integer::sum));
            String owner = owners.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            result.add(new LockInfo(e.getKey(), fence, left, owner));
        }
        return result;
    }

    @Override
    public boolean forceRelease(String name) {
        boolean any = false;
        int failed = 0;
        StoreUnavailableException last = null;
        for (LockAdmin node : nodes) {
            try {
                any |= node.forceRelease(name);
            } catch (StoreUnavailableException e) {
                failed++;
                last = e;
            }
        }
        if (!quorum.reachable(failed)) {
            throw last;
        }
        return any;
    }

    /**
     * Deletes the lock only if the grant holding it on a majority of the nodes holds {@code fencingToken}: each node's
     * value and counter are read, the grant is the value a majority of the nodes that answered hold, and its token
     * the largest counter among the nodes holding it (the nodes its write-back reached carry the token; one it missed
     * carries a smaller counter, which may equal an earlier holder's token and must not stand for this grant). That
     * value, which no other grant has, is then deleted on every node where the lock still holds it.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        int failed = 0;
        StoreUnavailableException last = null;
        Map<String, Integer> nodesByValue = new HashMap<>();
        Map<String, Long> tokenByValue = new HashMap<>();
        for (RedisAdmin node : nodes) {
            try {
                RedisAdmin.HolderOnNode holder = node.holderOnNode(name);
                if (holder.value() != null) {
                    nodesByValue.merge(holder.value(), 1, Integer::sum);
                    tokenByValue.merge(holder.value(), holder.counter(), Math::max);
                }
            } catch (StoreUnavailableException e) {
                failed++;
                last = e;
            }
        }
        if (!quorum.reachable(failed)) {
            throw last;
        }
        String holder = null;
        for (Map.Entry<String, Integer> e : nodesByValue.entrySet()) {
            if (e.getValue() >= quorum.quorum() && tokenByValue.get(e.getKey()) == fencingToken) {
                holder = e.getKey();
            }
        }
        if (holder == null) {
            return false;
        }
        boolean deleted = false;
        for (RedisAdmin node : nodes) {
            try {
                deleted |= node.forceReleaseIf(name, fencingToken, holder) != null;
            } catch (StoreUnavailableException e) {
                // that node's copy expires with its lease; the others are deleted
            }
        }
        return deleted;
    }
}

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
 * lock on every node; the conditional force-release deletes it on the nodes whose fence counter holds the given
 * token, then on the other nodes only where the lock holds the very value deleted there (the same holder).
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
     * Deletes the lock on every node whose fence counter holds {@code fencingToken} (the listed token is the largest
     * node counter, which the holder's nodes carry after its write-back), then, with the holder's value deleted there,
     * on the nodes whose counter a write-back missed but whose lock holds that same value. Each node's step is atomic;
     * a node that holds another holder's value is left alone.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        String deleted = null;
        int failed = 0;
        StoreUnavailableException last = null;
        List<RedisAdmin> rest = new ArrayList<>();
        for (RedisAdmin node : nodes) {
            try {
                String value = node.forceReleaseIf(name, fencingToken, null);
                if (value != null) {
                    deleted = value;
                } else {
                    rest.add(node);
                }
            } catch (StoreUnavailableException e) {
                failed++;
                last = e;
            }
        }
        if (!quorum.reachable(failed)) {
            throw last;
        }
        if (deleted != null) {
            for (RedisAdmin node : rest) {
                try {
                    node.forceReleaseIf(name, fencingToken, deleted);
                } catch (StoreUnavailableException e) {
                    // that node's copy expires with its lease; the majority is already gone
                }
            }
        }
        return deleted != null;
    }
}

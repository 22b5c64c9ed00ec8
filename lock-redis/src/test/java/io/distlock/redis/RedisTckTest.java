package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.FenceStateTampering;
import io.distlock.tck.NameLeftovers;
import io.distlock.tck.PrefixedStores;
import io.distlock.tck.SpoiledNameState;
import io.distlock.tck.StoreUriTck;
import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.StoreServers;
import java.util.List;

/**
 * The compatibility kit against the Redis server the kit's fixture finds ({@code DISTLOCK_REDIS_URI}, Testcontainers,
 * this machine's 127.0.0.1:6379, or a redis-server it starts: see {@link StoreServers}). The
 * availability rule on a closed port runs here; the outage rule runs in {@link RedisOutageTckTest}.
 */
class RedisTckTest extends StoreUriTck {

    static final String URI = StoreServers.redis();

    RedisTckTest() {
        super(URI);
    }

    @Override
    protected String unreachableStoreUri() {
        return "redis://127.0.0.1:" + FreePorts.next() + "?timeout=1s";
    }

    /** The store's counters under the default key prefix, set and deleted as an operator would. */
    @Override
    protected FenceStateTampering fenceTampering() {
        return new RedisFenceTampering(URI, RedisOptions.defaults().keyPrefix());
    }

    /** Lock keys and semaphore holder sets under the default key prefix, turned into hashes as an operator would. */
    @Override
    protected SpoiledNameState spoiledNameState() {
        return new RedisSpoiledNames(URI, RedisOptions.defaults().keyPrefix());
    }

    /** Keys of names used once under the default key prefix, counted with SCAN. */
    @Override
    protected NameLeftovers nameLeftovers() {
        return new RedisNameLeftovers(URI, RedisOptions.defaults().keyPrefix());
    }

    /**
     * Stores under key prefixes of this run's own; the suffixes are every kind this store has put after its prefix
     * (the layout before its keys were built as prefix, hash tag, kind), where one prefix's keys were another's.
     */
    @Override
    protected PrefixedStores prefixedStores() {
        return new PrefixedStores() {
            private final String base = "tck21-" + java.util.UUID.randomUUID().toString().substring(0, 8) + ":";

            @Override
            public String base() {
                return base;
            }

            @Override
            public List<String> appendedSuffixes() {
                return List.of("fence:", "waiting:", "released:", "guard", "sem:", "semlimit:", "semfence:",
                        "semfences:", "semwaiting:", "semreleased:", "semslot:");
            }

            @Override
            public LockStore open(String namespace) {
                return LockStore.open(URI + "?keyPrefix="
                        + java.net.URLEncoder.encode(namespace, java.nio.charset.StandardCharsets.UTF_8));
            }
        };
    }

    /** The password alone and with a user name in the user info (this server has none, so it refuses both). */
    @Override
    public List<String> urisWithSecret(String secret) {
        String quoted = java.util.regex.Matcher.quoteReplacement(secret);
        return List.of(URI.replaceFirst("//", "//:" + quoted + "@"), URI.replaceFirst("//", "//app:" + quoted + "@"));
    }
}

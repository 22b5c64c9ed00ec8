package io.distlock.core;

import io.distlock.StoreOptions;
import io.distlock.spi.LockBackend;
import io.distlock.spi.LockStoreProvider;
import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Opens stores by URI: finds the {@link LockStoreProvider} for the URI's scheme through {@link ServiceLoader}, as
 * {@link java.sql.DriverManager} finds a JDBC driver, and puts the {@link LockBackend} it opens behind the shared
 * {@link BackendLockStore}. The one place where a provider's backend becomes a {@link io.distlock.LockStore}; used by
 * {@link io.distlock.LockStore#open(String)}.
 */
public final class StoreDiscovery {

    /** Which module provides the stores distlock itself ships, for the "add this module" hint. */
    private static final Map<String, String> KNOWN_MODULES = Map.ofEntries(
            Map.entry("redis", "io.distlock:lock-redis"),
            Map.entry("rediss", "io.distlock:lock-redis"),
            Map.entry("redis-sentinel", "io.distlock:lock-redis"),
            Map.entry("redis-cluster", "io.distlock:lock-redis"),
            Map.entry("redlock", "io.distlock:lock-redis"),
            Map.entry("zookeeper", "io.distlock:lock-zookeeper"),
            Map.entry("zk", "io.distlock:lock-zookeeper"),
            Map.entry("jdbc", "io.distlock:lock-jdbc"),
            Map.entry("mem", "io.distlock:lock-api"));

    private StoreDiscovery() {
    }

    /** Opens the store for {@code uri} with {@code options}; see {@link io.distlock.LockStore#open(String)}. */
    public static BackendLockStore open(String uri, StoreOptions options) {
        StoreUri parsed = StoreUri.parse(uri);
        List<LockStoreProvider> providers = providers();
        for (LockStoreProvider provider : providers) {
            if (provider.schemes().contains(parsed.scheme())) {
                return new BackendLockStore(provider.open(parsed), parsed.redacted(), options);
            }
        }
        throw new IllegalArgumentException(unknownSchemeMessage(parsed, providers));
    }

    /** Every provider visible to the context class loader and to distlock's own. */
    public static List<LockStoreProvider> providers() {
        List<LockStoreProvider> found = new ArrayList<>();
        TreeSet<String> seen = new TreeSet<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        for (ClassLoader loader : new ClassLoader[] {context, StoreDiscovery.class.getClassLoader()}) {
            if (loader == null) {
                continue;
            }
            for (LockStoreProvider p : ServiceLoader.load(LockStoreProvider.class, loader)) {
                if (seen.add(p.getClass().getName())) {
                    found.add(p);
                }
            }
        }
        return found;
    }

    /** The schemes claimed by the providers on the class path, sorted. */
    public static TreeSet<String> availableSchemes() {
        return schemes(providers());
    }

    private static TreeSet<String> schemes(List<LockStoreProvider> providers) {
        return providers.stream().flatMap(p -> p.schemes().stream()).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String unknownSchemeMessage(StoreUri uri, List<LockStoreProvider> providers) {
        String module = KNOWN_MODULES.get(uri.scheme());
        return "no distlock store for scheme '" + uri.scheme() + "' (uri " + uri.redacted()
                + "); schemes on the class path: " + schemes(providers) + (module != null
                ? "; add the dependency " + module + " to use it"
                : "; distlock ships redis, rediss, redis-sentinel, redis-cluster, redlock (lock-redis), "
                + "zookeeper, zk (lock-zookeeper), jdbc (lock-jdbc) and mem (lock-api)");
    }
}

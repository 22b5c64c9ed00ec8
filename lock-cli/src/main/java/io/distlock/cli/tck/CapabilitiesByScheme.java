package io.distlock.cli.tck;

import io.distlock.spi.StoreUri;
import io.distlock.tck.StoreCapabilities;
import java.time.Duration;
import java.util.Set;

/**
 * Chooses the kit's {@link StoreCapabilities} from a store URI: ZooKeeper leases are bound to the client session
 * (its timeout read from the URI's {@code sessionTimeout}), the in-memory store has no clients in other JVMs, and
 * every other store is time-bound.
 */
public final class CapabilitiesByScheme {

    /** ZooKeeper's session timeout when the URI names none, as the lock-zookeeper store defaults it. */
    static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);

    private static final Set<String> SESSION_SCHEMES = Set.of("zookeeper", "zk");

    private CapabilitiesByScheme() {
    }

    static StoreCapabilities forUri(String uri, Duration sessionTimeoutOverride) {
        StoreUri parsed = StoreUri.parse(uri);
        if (SESSION_SCHEMES.contains(parsed.scheme())) {
            Duration timeout = sessionTimeoutOverride != null ? sessionTimeoutOverride : sessionTimeout(parsed);
            return StoreCapabilities.sessionBound(timeout);
        }
        if (parsed.scheme().equals("mem")) {
            return StoreCapabilities.timeBound().withSeparateJvmClients(false);
        }
        return StoreCapabilities.timeBound();
    }

    /** The URI's {@code sessionTimeout} option (as lock-zookeeper reads it), or the store's default of 30 s. */
    public static Duration sessionTimeout(StoreUri uri) {
        String value = uri.params().get("sessionTimeout");
        return value == null ? DEFAULT_SESSION_TIMEOUT : StoreUri.parseDuration(value);
    }
}

package io.distlock.tck;

import io.distlock.Features;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The plumbing under every kit run: the store's factory and declared capabilities, unique lock names per test, and
 * every client closed after the test. {@link LockStoreTck} adds every rule group; a backend that wants only some
 * groups for a topology (say, the availability rules against a server it can stop) extends this class and
 * implements those groups' interfaces.
 */
public abstract class TckHarness implements TckSupport {

    /** Opens a new independent client of the store under test; the kit closes it after the test. */
    protected abstract LockStore newClient();

    /**
     * What the kit is told of the store under test beyond its {@link LockStore#features()}: whether other JVMs reach
     * it, the expiry margin. {@link StoreCapabilities#defaults()} unless overridden.
     */
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.defaults();
    }

    /** A URI another JVM can open to reach the same store, or null if there is none (the mem: store). */
    protected String storeUri() {
        return null;
    }

    /** Control over a server owned by the test, for the availability rules; null skips them. */
    protected StoreOutage outage() {
        return null;
    }

    /**
     * A hand on the fencing state the store keeps for a name, for the rules of §19 (an operator or a cleanup job
     * deletes or overwrites it); null (the default) skips them.
     */
    protected FenceStateTampering fenceTampering() {
        return null;
    }

    /**
     * A hand on the record the store keeps of a name's holder, for the rules of §20 (an operator spoils one name's
     * record while several are held); null (the default) skips them.
     */
    protected SpoiledNameState spoiledNameState() {
        return null;
    }

    /**
     * Clients of the store under namespaces the kit chooses, for the rules of §21 (two stores with any two key
     * prefixes, base paths or table names on one server); null (the default) skips them.
     */
    protected PrefixedStores prefixedStores() {
        return null;
    }

    /**
     * A count of the state the store keeps for names nobody uses any more, for the rules of §26 (a name used once
     * leaves nothing after lease + grace); null (the default) skips them.
     */
    protected NameLeftovers nameLeftovers() {
        return null;
    }

    /**
     * A URI of this store's kind on which no server answers (for example a closed port), or null to skip that rule.
     * Opening it, or acquiring through it, must raise {@link io.distlock.StoreUnavailableException}.
     */
    protected String unreachableStoreUri() {
        return null;
    }

    /**
     * The longest one store operation of a client of the store under test may take before it gives up (its socket
     * or request timeout); bounds the timed waits of §14.3. The default, 30 s, is loose: override it with the
     * client's configured timeout.
     */
    protected Duration operationTimeout() {
        return AvailabilityRules.UNAVAILABLE_BOUND;
    }

    /**
     * A count of what a client keeps for its waits (watchers, subscriptions), for §15.3; null (the default) checks
     * only what the admin view shows.
     */
    protected WaitResources waitResources() {
        return null;
    }

    // ---- plumbing shared by the rules ---------------------------------------------------------------------------

    private final List<LockStore> clients = new ArrayList<>();
    private String namePrefix;
    /** The store's features, read once per test from a client of their own. */
    private volatile Features features;
    private final TckContext context = new TckContext() {
        @Override
        public LockStore client() {
            LockStore client = newClient();
            synchronized (clients) {
                clients.add(client);
            }
            return client;
        }

        @Override
        public String name(String suffix) {
            return namePrefix + suffix;
        }

        @Override
        public StoreCapabilities capabilities() {
            return TckHarness.this.capabilities();
        }

        @Override
        public Features features() {
            Features read = features;
            if (read == null) { // a client of its own: the rule may have closed its clients when it asks
                read = client().features();
                features = read;
            }
            return read;
        }

        @Override
        public String storeUri() {
            return TckHarness.this.storeUri();
        }

        @Override
        public StoreOutage outage() {
            return TckHarness.this.outage();
        }

        @Override
        public FenceStateTampering fenceTampering() {
            return TckHarness.this.fenceTampering();
        }

        @Override
        public SpoiledNameState spoiledNameState() {
            return TckHarness.this.spoiledNameState();
        }

        @Override
        public PrefixedStores prefixedStores() {
            return TckHarness.this.prefixedStores();
        }

        @Override
        public NameLeftovers nameLeftovers() {
            return TckHarness.this.nameLeftovers();
        }

        @Override
        public String unreachableStoreUri() {
            return TckHarness.this.unreachableStoreUri();
        }

        @Override
        public Duration operationTimeout() {
            return TckHarness.this.operationTimeout();
        }

        @Override
        public WaitResources waitResources() {
            return TckHarness.this.waitResources();
        }
    };

    @Override
    public final TckContext tck() {
        return context;
    }

    @BeforeEach
    final void tckSetUp() {
        namePrefix = "tck:" + getClass().getSimpleName() + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    @AfterEach
    final void tckTearDown() {
        synchronized (clients) {
            for (LockStore client : clients) {
                try {
                    client.close();
                } catch (RuntimeException e) {
                    System.err.println("TCK: closing a client failed: " + e);
                }
            }
            clients.clear();
        }
    }
}

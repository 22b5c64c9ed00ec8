package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import io.distlock.tck.TckContext;
import io.distlock.tck.TckSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Runs chosen groups of the kit's rules (a subclass implements, say, {@code AvailabilityRules}) instead of the whole
 * {@link io.distlock.tck.LockStoreTck}: for topologies where the whole kit already runs elsewhere, or where only the
 * core rules are asked for. Same plumbing as the kit: unique names per test, every client closed afterwards.
 */
abstract class TckRuleGroups implements TckSupport {

    private final List<LockStore> clients = new ArrayList<>();
    private String namePrefix;

    /** A new independent client of the store under test. */
    protected abstract LockStore newClient();

    /** What the store can do. */
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.timeBound();
    }

    /** A URI for other JVMs, or null. */
    protected String storeUri() {
        return null;
    }

    /** Server control, or null. */
    protected StoreOutage outage() {
        return null;
    }

    /** A URI with no server behind it, or null. */
    protected String unreachableStoreUri() {
        return null;
    }

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
            return TckRuleGroups.this.capabilities();
        }

        @Override
        public String storeUri() {
            return TckRuleGroups.this.storeUri();
        }

        @Override
        public StoreOutage outage() {
            return TckRuleGroups.this.outage();
        }

        @Override
        public String unreachableStoreUri() {
            return TckRuleGroups.this.unreachableStoreUri();
        }
    };

    @Override
    public final TckContext tck() {
        return context;
    }

    @BeforeEach
    final void nameThisRun() {
        namePrefix = "tck:" + getClass().getSimpleName() + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }

    @AfterEach
    final void closeClients() {
        synchronized (clients) {
            clients.forEach(LockStore::close);
            clients.clear();
        }
    }
}

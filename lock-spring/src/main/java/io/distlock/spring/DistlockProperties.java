package io.distlock.spring;

import io.distlock.LockOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code distlock.*} properties: which store to open and the options its locks get unless code says others. */
@ConfigurationProperties("distlock")
public class DistlockProperties {

    /**
     * The store URI, for example redis://localhost:6379, zookeeper://zk1:2181/app or
     * jdbc:postgresql://db/app?user=svc. Setting it creates the LockStore bean.
     */
    private String uri;

    /** How long a lease lasts without renewal, measured by the store. */
    private Duration leaseTime = LockOptions.DEFAULT_LEASE_TIME;

    /** Whether leases are renewed in the background while held. */
    private boolean autoRenew = true;

    /**
     * Open the store on first use instead of at start-up: an application whose store is down when it starts still
     * starts (health DOWN, calls throw StoreUnavailableException until the store is reachable). Off by default:
     * a store that is down fails the start.
     */
    private boolean lazyStart;

    /** The Spring Integration lock registry's settings. */
    private final Integration integration = new Integration();

    /** Leader election from one property: distlock.leadership.name. */
    private final Leadership leadership = new Leadership();

    /**
     * Semaphore beans: each entry NAME=PERMITS gives a Semaphore bean named NAME allowing PERMITS holders at once
     * across every client of the store.
     */
    private final Map<String, Integer> semaphores = new LinkedHashMap<>();

    public String getUri() {
        return uri;
    }

    public void setUri(String uri) {
        this.uri = uri;
    }

    public Duration getLeaseTime() {
        return leaseTime;
    }

    public void setLeaseTime(Duration leaseTime) {
        this.leaseTime = leaseTime;
    }

    public boolean isAutoRenew() {
        return autoRenew;
    }

    public void setAutoRenew(boolean autoRenew) {
        this.autoRenew = autoRenew;
    }

    public boolean isLazyStart() {
        return lazyStart;
    }

    public void setLazyStart(boolean lazyStart) {
        this.lazyStart = lazyStart;
    }

    public Integration getIntegration() {
        return integration;
    }

    public Leadership getLeadership() {
        return leadership;
    }

    public Map<String, Integer> getSemaphores() {
        return semaphores;
    }

    /** {@code distlock.leadership.*}: the auto-configured leader election. */
    public static class Leadership {

        /**
         * The name to campaign for. Setting it starts a campaign when the application has started: LeadershipListener
         * beans are told and LeadershipEvents published on election and revocation.
         */
        private String name;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }
    }

    /** {@code distlock.integration.*}: the auto-configured Spring Integration {@code LockRegistry}. */
    public static class Integration {

        /**
         * Put before every registry key to make the store's lock name, so the registry's locks (the leader
         * initiator's role, aggregator groups) never share a name with store.lock(...) or ShedLock's locks.
         */
        private String keyPrefix = "";

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }
    }

    /** The options these properties describe; a bad lease time is refused with a message naming the property. */
    LockOptions toOptions() {
        if (leaseTime == null || leaseTime.isNegative() || leaseTime.toMillis() < 1) {
            throw new IllegalArgumentException("distlock.lease-time must be at least 1ms, got " + leaseTime);
        }
        return LockOptions.defaults().withLeaseTime(leaseTime).withAutoRenew(autoRenew);
    }
}

package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.distlock.LockAdmin;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Stores;
import io.distlock.spi.Terms;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Proves the kit can fail: it runs chosen rules against deliberately broken stores (a wrapper around the mem: store
 * or the stub store that gets one operation wrong) and checks that exactly those rules fail, and that a correct store
 * passes them.
 */
class KitCatchesBrokenStoresTest {

    /** A store whose release deletes the lock whoever holds it: no token check (the design brief's race). */
    static class ForgetfulReleaseTck extends BrokenTck {
        ForgetfulReleaseTck() {
            super(backend -> new ForwardingBackend(backend) {
                @Override
                public boolean release(Grant grant) {
                    return delegate.admin().forceRelease(grant.name());
                }
            });
        }
    }

    /** A store that never lets a lease expire (the classic database lock's deadlock). */
    static class NeverExpiresTck extends BrokenTck {
        NeverExpiresTck() {
            super(backend -> new ForwardingBackend(backend) {
                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    return delegate.acquire(name, Duration.ofHours(1), wait);
                }

                @Override
                public Set<Grant> renew(List<Renewal> renewals) {
                    return delegate.renew(renewals.stream().map(r -> new Renewal(r.grant(), Duration.ofHours(1)))
                            .toList());
                }
            });
        }
    }

    /**
     * A time-bound store that says its leases are bound to the session: the core then never renews them, and the kit
     * skips its time-bound rules, so the rules every store runs must catch the statement.
     */
    static class TimeBoundSaysSessionTck extends BrokenTck {
        TimeBoundSaysSessionTck() {
            super(backend -> new ForwardingBackend(backend) {
                @Override
                public Terms terms() {
                    return Terms.session(Duration.ofSeconds(3), delegate.terms().maxNameLength());
                }
            });
        }
    }

    /** A store whose fencing token never increases (Redlock's random value, or SETNX without a counter). */
    static class ConstantTokenTck extends BrokenTck {
        ConstantTokenTck() {
            super(backend -> new ForwardingBackend(backend) {
                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    Grant real = delegate.acquire(name, leaseTime, wait);
                    return real == null ? null
                            : new Grant(real.name(), real.ownerToken(), 1, real.handle(), real.issuedAtNanos());
                }
            });
        }
    }

    /** The correct mem: store, through the same wrapper path, as the control. */
    static class ControlTck extends BrokenTck {
        ControlTck() {
            super(backend -> new ForwardingBackend(backend) {
            });
        }
    }

    /** A semaphore store that lets twice the limit in (a count checked against the wrong number). */
    static class DoubledLimitTck extends BrokenTck {
        DoubledLimitTck() {
            super(backend -> new ForwardingPermitBackend(backend) {
                @Override
                public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
                        throws InterruptedException {
                    return permits.acquirePermit(name, limit * 2, leaseTime, wait);
                }
            });
        }
    }

    /** A semaphore store whose permits all carry one token (a counter per slot, not per name). */
    static class ConstantPermitTokenTck extends BrokenTck {
        ConstantPermitTokenTck() {
            super(backend -> new ForwardingPermitBackend(backend) {
                @Override
                public Grant acquirePermit(String name, int limit, Duration leaseTime, Wait wait)
                        throws InterruptedException {
                    Grant real = permits.acquirePermit(name, limit, leaseTime, wait);
                    return real == null ? null
                            : new Grant(real.name(), real.ownerToken(), 1, real.handle(), real.issuedAtNanos());
                }
            });
        }
    }

    /** The correct mem: semaphores, through the same wrapper path, as the control. */
    static class PermitControlTck extends BrokenTck {
        PermitControlTck() {
            super(backend -> new ForwardingPermitBackend(backend) {
            });
        }
    }

    /** A kit run over a mem: space whose backend is wrapped by a fault. */
    abstract static class BrokenTck extends LockStoreTck {
        private final String space = "mem:broken-" + UUID.randomUUID();
        private final UnaryOperator<LockBackend> fault;

        BrokenTck(UnaryOperator<LockBackend> fault) {
            this.fault = fault;
        }

        @Override
        protected LockStore newClient() {
            LockStore real = BackendStores.open(space);
            return Stores.over(fault.apply(BackendStores.backend(real, LockBackend.class)), "broken " + space);
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }
    }

    /** A backend whose wait resources the kit can count (the probe of §15.3). */
    interface CountsWaits {
        long waits();
    }

    /** A stub-store client wrapped by a fault, for the rules that need an outage switch or a wait probe. */
    abstract static class BrokenStubTck extends TckHarness implements AvailabilityRules, RacesAndBoundsRules {
        private final StubSpace space = new StubSpace();
        private final Function<StubBackend, LockBackend> fault;

        BrokenStubTck(Function<StubBackend, LockBackend> fault) {
            this.fault = fault;
        }

        @Override
        protected LockStore newClient() {
            return BackendStores.over(fault.apply(new StubBackend(space)), "broken stub");
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }

        @Override
        protected StoreOutage outage() {
            return space.outage();
        }

        @Override
        protected Duration operationTimeout() {
            return space.operationTimeout();
        }

        @Override
        protected WaitResources waitResources() {
            return client -> ((CountsWaits) BackendStores.backend(client, LockBackend.class)).waits();
        }
    }

    /** A stub client that counts its waits in progress: the correct control. */
    static class CountedStub extends ForwardingBackend implements CountsWaits {
        CountedStub(StubBackend stub) {
            super(stub);
        }

        @Override
        public long waits() {
            return ((StubBackend) delegate).waitsInProgress();
        }
    }

    /** The correct stub store, through the same wrapper path, as the control. */
    static class StubControlTck extends BrokenStubTck {
        StubControlTck() {
            super(CountedStub::new);
        }
    }

    /** A store that retries through an outage whatever the caller's deadline (a client library's retry policy). */
    static class RetriesThroughOutageTck extends BrokenStubTck {
        RetriesThroughOutageTck() {
            super(stub -> new CountedStub(stub) {
                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    while (true) {
                        try {
                            return delegate.acquire(name, leaseTime, wait);
                        } catch (StoreUnavailableException e) {
                            // retry until the store is back
                        }
                    }
                }
            });
        }
    }

    /** A backend whose single attempt and release give up when the thread's interrupt flag is set. */
    static class BackendRefusesWhenInterruptedTck extends BrokenStubTck {
        BackendRefusesWhenInterruptedTck() {
            super(stub -> new CountedStub(stub) {
                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedException("interrupted before the attempt");
                    }
                    return delegate.acquire(name, leaseTime, wait);
                }

                @Override
                public boolean release(Grant grant) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new StoreUnavailableException("interrupted during release");
                    }
                    return delegate.release(grant);
                }
            });
        }
    }

    /**
     * A lock store of its own (not the shared core) whose tryAcquire() and tryLock() refuse on an interrupted thread.
     */
    static class StoreRefusesWhenInterruptedTck extends BrokenStubTck {
        StoreRefusesWhenInterruptedTck() {
            super(CountedStub::new);
        }

        @Override
        protected LockStore newClient() {
            return new InterruptShyStore(super.newClient());
        }

        @Override
        protected WaitResources waitResources() {
            return null;
        }
    }

    /** A store whose timed-out waits each leave a watcher behind. */
    static class LeaksWatchersTck extends BrokenStubTck {
        LeaksWatchersTck() {
            super(stub -> new CountedStub(stub) {
                private final AtomicLong leaked = new AtomicLong();

                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    Grant grant = delegate.acquire(name, leaseTime, wait);
                    if (grant == null && wait.isBounded()) {
                        leaked.incrementAndGet();
                    }
                    return grant;
                }

                @Override
                public long waits() {
                    return super.waits() + leaked.get();
                }
            });
        }
    }

    /**
     * A stub client whose close cuts off the calls in flight, as closing a connection pool does: an acquire granted in
     * the store whose answer is still on its way (it takes {@link #ANSWER_NANOS}) fails and its grant is lost, and
     * every call after the close fails.
     */
    static class PoolLikeStub extends CountedStub {
        /** How long a grant's answer takes to come back: a loopback round trip. */
        static final long ANSWER_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);
        private volatile boolean closed;

        PoolLikeStub(StubBackend stub) {
            super(stub);
        }

        @Override
        public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
            ensureOpen();
            Grant grant = delegate.acquire(name, leaseTime, wait);
            if (grant != null) {
                java.util.concurrent.locks.LockSupport.parkNanos(ANSWER_NANOS);
                if (closed) {
                    throw new IllegalStateException("stub pool was closed while acquiring '" + name + "'");
                }
            }
            return grant;
        }

        @Override
        public boolean release(Grant grant) {
            ensureOpen();
            return delegate.release(grant);
        }

        @Override
        public Set<Grant> renew(List<Renewal> renewals) {
            ensureOpen();
            return delegate.renew(renewals);
        }

        private void ensureOpen() {
            if (closed) {
                throw new IllegalStateException("stub pool is closed");
            }
        }

        @Override
        public void close() {
            closed = true;
            delegate.close();
        }
    }

    /** Stub clients with a pool-like close under §23; the subclass picks the store in front of them. */
    abstract static class ClosingStubTck extends TckHarness implements CloseRules {
        final StubSpace space = new StubSpace();

        LockStore core() {
            return BackendStores.over(new PoolLikeStub(new StubBackend(space)), "pool-like stub");
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }
    }

    /** The shared core over the pool-like stub: its close waits for the acquisitions in flight. The control. */
    static class ClosingStubControlTck extends ClosingStubTck {
        @Override
        protected LockStore newClient() {
            return core();
        }
    }

    /** A store whose close shuts the backend under the acquisitions in flight, abandoning their grants. */
    static class AbandoningCloseTck extends ClosingStubTck {
        @Override
        protected LockStore newClient() {
            return new AbandoningCloseStore(core());
        }
    }

    private static final String CLOSE_RULE = "rule_23_1_closeAmongAcquisitionsInFlightLeavesNothingHeld";

    @Test
    void aCoreWhoseCloseWaitsForAcquisitionsInFlightPassesTheCloseRule() {
        assertThat(failedRules(ClosingStubControlTck.class, CLOSE_RULE)).isEmpty();
    }

    @Test
    void aCloseThatAbandonsGrantsInFlightIsCaught() {
        assertThat(failedRules(AbandoningCloseTck.class, CLOSE_RULE)).containsExactly(CLOSE_RULE);
    }

    /** A stub store, its space and fault chosen by the subclass, under the tampering rules of §19. */
    abstract static class TamperedStubTck extends TckHarness implements FenceTamperingRules {
        private final StubSpace space;
        private final Function<StubBackend, LockBackend> fault;

        TamperedStubTck(StubSpace space, Function<StubBackend, LockBackend> fault) {
            this.space = space;
            this.fault = fault;
        }

        @Override
        protected LockStore newClient() {
            return Stores.over(fault.apply(new StubBackend(space)), "tampered stub");
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }

        @Override
        protected FenceStateTampering fenceTampering() {
            return space.fenceTampering();
        }
    }

    /** The stub store whose fences never fall below the clock: the correct control. */
    static class ClockFloorFenceTck extends TamperedStubTck {
        ClockFloorFenceTck() {
            super(StubSpace.withClockFloor(), CountedStub::new);
        }
    }

    /** A store whose fence is a bare counter (INCR, fence + 1): deleted or reset, it counts from 1 again. */
    static class CounterOnlyFenceTck extends TamperedStubTck {
        CounterOnlyFenceTck() {
            super(new StubSpace(), CountedStub::new);
        }
    }

    /** A store that reports a fence it cannot grow as an outage, so callers retry a lock that stays broken. */
    static class FenceOverflowAsOutageTck extends TamperedStubTck {
        FenceOverflowAsOutageTck() {
            super(StubSpace.withClockFloor(), stub -> new CountedStub(stub) {
                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    try {
                        return delegate.acquire(name, leaseTime, wait);
                    } catch (LockException e) {
                        throw new StoreUnavailableException("store unavailable: " + e.getMessage(), e);
                    }
                }
            });
        }
    }

    /** A store whose waits take a fence it cannot grow for "held" and wait it out, reporting "not acquired". */
    static class FenceFailureWaitedOutTck extends TamperedStubTck {
        FenceFailureWaitedOutTck() {
            super(StubSpace.withClockFloor(), stub -> new CountedStub(stub) {
                @Override
                public Grant acquire(String name, Duration leaseTime, Wait wait) throws InterruptedException {
                    try {
                        return delegate.acquire(name, leaseTime, wait);
                    } catch (LockException e) {
                        if (wait.isNone()) {
                            throw e;
                        }
                        return null;
                    }
                }
            });
        }
    }

    /** A stub store with a clock floor, reclaiming counters as the subclass says, under the rules of §26. */
    abstract static class UsedOnceStubTck extends TckHarness implements UsedOnceRules {
        private final StubSpace space;

        UsedOnceStubTck(StubSpace.Reclaim how) {
            this.space = StubSpace.withClockFloor().reclaiming(how);
        }

        @Override
        protected LockStore newClient() {
            return space.openStore();
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }

        @Override
        protected NameLeftovers nameLeftovers() {
            return space.nameLeftovers();
        }
    }

    /** A store that keeps every name's counter forever (Redis and SQL before issue #33). */
    static class NeverReclaimsTck extends UsedOnceStubTck {
        NeverReclaimsTck() {
            super(StubSpace.Reclaim.NEVER);
        }
    }

    /** A store that deletes a counter a grace after the lease even when it is ahead of the clock. */
    static class ReclaimsAheadCounterTck extends UsedOnceStubTck {
        ReclaimsAheadCounterTck() {
            super(StubSpace.Reclaim.AFTER_LEASE);
        }
    }

    /** A store that deletes a counter a grace after the lease and once the clock has passed it: the control. */
    static class ReclaimsSafelyTck extends UsedOnceStubTck {
        ReclaimsSafelyTck() {
            super(StubSpace.Reclaim.SAFE);
        }
    }

    private static final String USED_ONCE = "rule_26_1_namesUsedOnceLeaveNothing";
    private static final String AHEAD = "rule_26_2_aCounterAheadOfTheClockIsKeptUntilTheClockPassedIt";

    @Test
    void aStoreThatKeepsEveryNamesCounterIsCaught() {
        assertThat(failedRules(NeverReclaimsTck.class, USED_ONCE)).containsExactly(USED_ONCE);
    }

    @Test
    void aStoreThatDeletesACounterAheadOfTheClockIsCaught() {
        assertThat(failedRules(ReclaimsAheadCounterTck.class, AHEAD)).containsExactly(AHEAD);
    }

    @Test
    void aStoreThatReclaimsOnlyPastTheClockPassesTheUsedOnceRules() {
        assertThat(failedRules(ReclaimsSafelyTck.class, USED_ONCE, AHEAD)).isEmpty();
    }

    /** A stub store, its fault chosen by the subclass, under the spoiled-name rules of §20. */
    abstract static class SpoiledStubTck extends TckHarness implements SpoiledNameRules {
        private final StubSpace space = StubSpace.withClockFloor();
        private final Function<StubBackend, LockBackend> fault;

        SpoiledStubTck(Function<StubBackend, LockBackend> fault) {
            this.fault = fault;
        }

        @Override
        protected LockStore newClient() {
            return Stores.over(fault.apply(new StubBackend(space)), "spoiled stub");
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }

        @Override
        protected SpoiledNameState spoiledNameState() {
            return space.spoiledNameState();
        }
    }

    /** The stub store, whose batch renewal reports a spoiled entry as that one lease lost: the correct control. */
    static class SpoiledEntryLostAloneTck extends SpoiledStubTck {
        SpoiledEntryLostAloneTck() {
            super(CountedStub::new);
        }
    }

    /**
     * A store whose batch renewal aborts on one bad entry (Redis's renew script that {@code GET}s a key of the wrong
     * type): the whole batch fails, and is retried until every lease in it has run out.
     */
    static class BatchAbortedByOneBadEntryTck extends SpoiledStubTck {
        BatchAbortedByOneBadEntryTck() {
            super(stub -> new CountedStub(stub) {
                @Override
                public Set<Grant> renew(List<Renewal> renewals) {
                    Set<Grant> lost = delegate.renew(renewals);
                    if (!lost.isEmpty()) {
                        throw new LockException("stub store rejected renew " + renewals.size()
                                + " lease(s): WRONGTYPE Operation against a key holding the wrong kind of value");
                    }
                    return lost;
                }
            });
        }
    }

    /** A mem: store whose features say it has no semaphores, though it has: §27.1 must catch the statement. */
    static class UnstatedSemaphoresTck extends TckHarness implements FeaturesRules {
        private final String space = "mem:unstated-" + UUID.randomUUID();

        @Override
        protected LockStore newClient() {
            LockStore real = LockStore.open(space);
            return new LockStore() {
                @Override
                public io.distlock.DistributedLock lock(String name, io.distlock.LockOptions options) {
                    return real.lock(name, options);
                }

                @Override
                public io.distlock.DistributedSemaphore semaphore(String name, int permits,
                        io.distlock.LockOptions options) {
                    return real.semaphore(name, permits, options);
                }

                @Override
                public io.distlock.Features features() {
                    io.distlock.Features f = real.features();
                    return new io.distlock.Features(f.leaseModel(), f.sessionTimeout(), f.maxNameLength(), 0,
                            f.admin(), false, f.handsOver());
                }

                @Override
                public io.distlock.LockAdmin admin() {
                    return real.admin();
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }
    }

    private static final String FEATURES_RULE = "rule_27_1_featuresStateWhatTheStoreDoes";

    @Test
    void theWrappedControlStoresPassTheFeaturesRule() {
        assertThat(failedRules(ControlTck.class, FEATURES_RULE)).as("locks only").isEmpty();
        assertThat(failedRules(PermitControlTck.class, FEATURES_RULE)).as("with semaphores").isEmpty();
    }

    @Test
    void aTimeBoundStoreThatSaysItsLeasesAreSessionBoundFailsTheFeaturesRule() {
        assertThat(failedRules(TimeBoundSaysSessionTck.class, FEATURES_RULE)).containsExactly(FEATURES_RULE);
    }

    @Test
    void aStoreWhoseFeaturesHideItsSemaphoresIsCaught() {
        assertThat(failedRules(UnstatedSemaphoresTck.class, FEATURES_RULE)).containsExactly(FEATURES_RULE);
    }

    private static final String[] WATCHED_SPOILED = {"rule_20_1_aSpoiledLockCostsNoOtherLockItsLease"};

    @Test
    void aStoreThatLosesOnlyTheSpoiledNamePassesTheSpoiledNameRule() {
        assertThat(failedRules(SpoiledEntryLostAloneTck.class, WATCHED_SPOILED)).isEmpty();
    }

    @Test
    void aBatchRenewalAbortedByOneSpoiledNameIsCaught() {
        assertThat(failedRules(BatchAbortedByOneBadEntryTck.class, WATCHED_SPOILED))
                .containsExactly("rule_20_1_aSpoiledLockCostsNoOtherLockItsLease");
    }

    private static final String[] WATCHED_TAMPERING = {
        "rule_19_1_forgottenLockFenceNeverRepeatsAToken",
        "rule_19_2_overwrittenLockFenceGivesALargerTokenOrFailsClearly",
    };

    @Test
    void aStoreWithAClockFloorPassesTheTamperingRules() {
        assertThat(failedRules(ClockFloorFenceTck.class, WATCHED_TAMPERING)).isEmpty();
    }

    @Test
    void aBareCounterThatRepeatsTokensAfterTamperingIsCaught() {
        assertThat(failedRules(CounterOnlyFenceTck.class, WATCHED_TAMPERING)).containsExactlyInAnyOrder(
                "rule_19_1_forgottenLockFenceNeverRepeatsAToken",
                "rule_19_2_overwrittenLockFenceGivesALargerTokenOrFailsClearly");
    }

    @Test
    void aFenceThatCannotGrowReportedAsAnOutageIsCaught() {
        assertThat(failedRules(FenceOverflowAsOutageTck.class, WATCHED_TAMPERING))
                .containsExactly("rule_19_2_overwrittenLockFenceGivesALargerTokenOrFailsClearly");
    }

    @Test
    void aFenceFailureWaitedOutAsHeldIsCaught() {
        assertThat(failedRules(FenceFailureWaitedOutTck.class, WATCHED_TAMPERING))
                .containsExactly("rule_19_2_overwrittenLockFenceGivesALargerTokenOrFailsClearly");
    }

    private static final String[] WATCHED_ON_STUB = {
        "rule_14_3_timedWaitIsBoundedWhenTheServerStopsMidWait",
        "rule_15_2_interruptedThreadTakesAFreeLockAndReleasesIt",
        "rule_15_3_timedOutWaitsLeaveNothingBehind",
    };

    @Test
    void aCorrectStubStorePassesTheWatchedRules() {
        assertThat(failedRules(StubControlTck.class, WATCHED_ON_STUB)).isEmpty();
    }

    @Test
    void waitsThatRetryThroughAnOutageAreCaught() {
        assertThat(failedRules(RetriesThroughOutageTck.class, WATCHED_ON_STUB))
                .containsExactly("rule_14_3_timedWaitIsBoundedWhenTheServerStopsMidWait");
    }

    @Test
    void attemptsThatGiveUpOnInterruptAreCaught() {
        assertThat(failedRules(StoreRefusesWhenInterruptedTck.class, WATCHED_ON_STUB))
                .containsExactly("rule_15_2_interruptedThreadTakesAFreeLockAndReleasesIt");
    }

    @Test
    void theSharedCoreShieldsABackendThatGivesUpOnInterrupt() {
        assertThat(failedRules(BackendRefusesWhenInterruptedTck.class, WATCHED_ON_STUB)).isEmpty();
    }

    @Test
    void timedOutWaitsThatLeaveWatchersAreCaught() {
        assertThat(failedRules(LeaksWatchersTck.class, WATCHED_ON_STUB))
                .containsExactly("rule_15_3_timedOutWaitsLeaveNothingBehind");
    }

    /**
     * A store with one refused setting, {@code grantHeld=true}, whose "driver" takes it as a query parameter of any
     * case (the last one counts) or in a host section {@code (host=h,grantHeld=true)}: §22's subject. The subclass
     * decides how the store looks for it.
     */
    abstract static class RefusingStubTck extends TckHarness implements RefusedSettingRules {
        static final String SETTING = "grantHeld";

        @Override
        protected LockStore newClient() {
            return LockStore.open("mem:refusing-" + UUID.randomUUID());
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults();
        }

        @Override
        public List<RefusedSetting> refusedSettings() {
            return List.of(new RefusedSetting(SETTING, "in the query", "stub://h/db?grantHeld=true"),
                    new RefusedSetting(SETTING, "second parameter, other case",
                            "stub://h/db?grantHeld=false&GRANTHELD=true"),
                    new RefusedSetting(SETTING, "in a host section", "stub://(host=h,grantHeld=true)/db"));
        }

        @Override
        public LockStore openWithRefusedSetting(String uri) {
            if (refuses(uri)) {
                throw new IllegalArgumentException(SETTING + "=true is refused");
            }
            return newClient();
        }

        abstract boolean refuses(String uri);

        /** What the stub's driver makes of the URI: the last query parameter of any case, or the host section's. */
        static boolean driverGrantsHeld(String uri) {
            Matcher section = Pattern.compile("(?i)[(,]grantHeld=(\\w+)").matcher(uri);
            boolean held = section.find() && section.group(1).equalsIgnoreCase("true");
            int q = uri.indexOf('?');
            for (String pair : q < 0 ? new String[0] : uri.substring(q + 1).split("&")) {
                if (pair.toLowerCase(java.util.Locale.ROOT).startsWith("grantheld=")) {
                    held = pair.substring(pair.indexOf('=') + 1).equalsIgnoreCase("true");
                }
            }
            return held;
        }
    }

    /** Refuses by the setting's effect: what the driver would make of the URI. */
    static class EffectRefusalTck extends RefusingStubTck {
        @Override
        boolean refuses(String uri) {
            return driverGrantsHeld(uri);
        }
    }

    /** Refuses by reading the URI text: the first query parameter of that name, of any case, only. */
    static class TextOnlyRefusalTck extends RefusingStubTck {
        @Override
        boolean refuses(String uri) {
            Matcher first = Pattern.compile("(?i)[?&]grantHeld=(\\w+)").matcher(uri);
            return first.find() && first.group(1).equalsIgnoreCase("true");
        }
    }

    @Test
    void aStoreThatChecksASettingByItsEffectPassesTheRefusedSettingRule() {
        assertThat(failedRules(EffectRefusalTck.class, "rule_22_1_everySpellingOfARefusedSettingIsRefused"))
                .isEmpty();
    }

    @Test
    void aStoreThatReadsOnlyTheUriTextForARefusedSettingIsCaught() {
        assertThat(failedRules(TextOnlyRefusalTck.class, "rule_22_1_everySpellingOfARefusedSettingIsRefused"))
                .containsExactly("rule_22_1_everySpellingOfARefusedSettingIsRefused");
    }

    /** A store whose conditional force-release ignores the token: it breaks whoever holds the lock now. */
    static class TokenBlindForceReleaseTck extends BrokenTck {
        TokenBlindForceReleaseTck() {
            super(backend -> new ForwardingBackend(backend) {
                @Override
                public LockAdmin admin() {
                    return new LocksOnlyAdmin(delegate.admin()) {
                        @Override
                        public boolean forceRelease(String name, long fencingToken) {
                            return real.forceRelease(name);
                        }
                    };
                }
            });
        }
    }

    private static final String[] WATCHED_FORCE_RELEASE = {
        "rule_25_1_forceReleaseOfTheListedHolderReleasesIt",
        "rule_25_2_forceReleaseOfAnEarlierHolderIsRefused",
        "rule_25_4_forceReleasesRacingHandOversBreakOnlyTheNamedHolders",
    };

    @Test
    void aCorrectStorePassesTheForceReleaseRules() {
        assertThat(failedRules(ControlTck.class, WATCHED_FORCE_RELEASE)).isEmpty();
    }

    @Test
    void aForceReleaseThatIgnoresTheTokenIsCaught() {
        assertThat(failedRules(TokenBlindForceReleaseTck.class, WATCHED_FORCE_RELEASE)).contains(
                "rule_25_2_forceReleaseOfAnEarlierHolderIsRefused");
    }

    /** §21 over {@link NamespacedPermitStore}; the subclass says whether a namespace ending in its suffix opens. */
    abstract static class NamespacedTck extends TckHarness implements PrefixRules {
        private final String space = "mem:namespaced-" + UUID.randomUUID();

        abstract boolean refuseDerived();

        @Override
        protected LockStore newClient() {
            return NamespacedPermitStore.open(space, "app", refuseDerived());
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }

        @Override
        protected PrefixedStores prefixedStores() {
            return new PrefixedStores() {
                @Override
                public String base() {
                    return "kit" + UUID.randomUUID().toString().substring(0, 8);
                }

                @Override
                public List<String> appendedSuffixes() {
                    return List.of(NamespacedPermitStore.SUFFIX);
                }

                @Override
                public LockStore open(String namespace) {
                    return NamespacedPermitStore.open(space, namespace, refuseDerived());
                }
            };
        }
    }

    /** Locks of namespace {@code B_permits} at the keys of namespace {@code B}'s semaphores (DEFECTS S3-4b). */
    static class DerivedNamespaceCollisionTck extends NamespacedTck {
        @Override
        boolean refuseDerived() {
            return false;
        }
    }

    /** The same store refusing a namespace that ends in what it appends for semaphores, as the SQL store does. */
    static class DerivedNamespaceRefusedTck extends NamespacedTck {
        @Override
        boolean refuseDerived() {
            return true;
        }
    }

    private static final String NAMESPACE_RULE = "rule_21_1_storesWithAnyTwoNamespacesNeverTouchEachOthersKeys";

    @Test
    void aStoreWhoseNamespacesCollideThroughADerivedNameIsCaught() {
        assertThat(failedRules(DerivedNamespaceCollisionTck.class, NAMESPACE_RULE)).containsExactly(NAMESPACE_RULE);
    }

    @Test
    void aStoreThatRefusesTheDerivedNamespacePassesTheNamespaceRule() {
        assertThat(failedRules(DerivedNamespaceRefusedTck.class, NAMESPACE_RULE)).isEmpty();
    }

    /** §24.1 on the stub whose acquires are statements waiting for record locks ({@link RecordLockingStub}). */
    abstract static class RecordLockingTck extends TckHarness implements AbandonedAttemptRules {
        private final StubSpace space = new StubSpace();
        private final RecordLockingStub records;

        RecordLockingTck(Duration serverBound) {
            this.records = new RecordLockingStub(space.operationTimeout(), serverBound);
        }

        @Override
        protected LockStore newClient() {
            return Stores.over(records.statements(new StubBackend(space)), "record-locking stub");
        }

        @Override
        protected StoreCapabilities capabilities() {
            return StoreCapabilities.defaults().withSeparateJvmClients(false);
        }

        @Override
        protected Duration operationTimeout() {
            return space.operationTimeout();
        }

        @Override
        public RecordLocking recordLocking() {
            return records.recordLocking();
        }
    }

    /** Its abandoned statement waits on the record as long as it takes, then takes the lock for nobody. */
    static class UnboundedStatementTck extends RecordLockingTck {
        UnboundedStatementTck() {
            super(null);
        }
    }

    /** Its statements give up on a locked record at half the client's timeout: nothing is taken later. */
    static class ServerBoundedStatementTck extends RecordLockingTck {
        ServerBoundedStatementTck() {
            super(Duration.ofMillis(100));
        }
    }

    private static final String ABANDONED_RULE = "rule_24_1_acquireAbandonedOnALockedRecordLeavesTheLockFree";

    @Test
    void anAcquireAbandonedOnALockedRecordThatTakesTheLockLaterIsCaught() {
        assertThat(failedRules(UnboundedStatementTck.class, ABANDONED_RULE)).containsExactly(ABANDONED_RULE);
    }

    @Test
    void anAcquireBoundedInTheStorePassesTheAbandonedAttemptRule() {
        assertThat(failedRules(ServerBoundedStatementTck.class, ABANDONED_RULE)).isEmpty();
    }

    private static Set<String> failedRules(Class<?> tck, String... rules) {
        EngineTestKit.Builder run = EngineTestKit.engine("junit-jupiter");
        for (String rule : rules) {
            run.selectors(selectMethod(tck, rule));
        }
        Events events = run.execute().testEvents();
        assertThat(events.started().count()).as("rules run").isEqualTo(rules.length);
        return events.failed().stream()
                .map(e -> e.getTestDescriptor().getLegacyReportingName().replace("()", ""))
                .collect(Collectors.toSet());
    }

    private static final String[] WATCHED = {
        "rule_1_1_mutualExclusionAcrossClientsAndThreads",
        "rule_4_1_expiredLeaseCannotReleaseNextHoldersLock",
        "rule_4_3_forciblyReleasedLeaseCannotReleaseNextHolder",
        "rule_5_1_nonRenewingHolderFreesLockAfterLeaseTime",
        "rule_6_1_tokensIncreaseAcrossClients",
    };

    @Test
    void aCorrectStorePassesTheWatchedRules() {
        assertThat(failedRules(ControlTck.class, WATCHED)).isEmpty();
    }

    @Test
    void releaseWithoutTokenCheckIsCaught() {
        assertThat(failedRules(ForgetfulReleaseTck.class, WATCHED)).contains(
                "rule_4_1_expiredLeaseCannotReleaseNextHoldersLock",
                "rule_4_3_forciblyReleasedLeaseCannotReleaseNextHolder");
    }

    private static final String[] WATCHED_LEASE_MODEL = {
        "rule_5_2_renewingHolderKeepsLockPastLeaseTime",
        "rule_16_8_lostTermRevokedThenCampaignsAgain",
    };

    @Test
    void aCorrectStorePassesTheLeaseModelRules() {
        assertThat(failedRules(ControlTck.class, WATCHED_LEASE_MODEL)).isEmpty();
    }

    @Test
    void aTimeBoundStoreThatSaysItsLeasesAreSessionBoundIsCaught() {
        assertThat(failedRules(TimeBoundSaysSessionTck.class, WATCHED_LEASE_MODEL))
                .containsExactlyInAnyOrder(WATCHED_LEASE_MODEL);
    }

    @Test
    void leasesThatNeverExpireAreCaught() {
        assertThat(failedRules(NeverExpiresTck.class, WATCHED)).contains(
                "rule_5_1_nonRenewingHolderFreesLockAfterLeaseTime",
                "rule_4_1_expiredLeaseCannotReleaseNextHoldersLock");
    }

    @Test
    void tokensThatDoNotIncreaseAreCaught() {
        assertThat(failedRules(ConstantTokenTck.class, WATCHED)).containsExactlyInAnyOrder(
                "rule_1_1_mutualExclusionAcrossClientsAndThreads",
                "rule_4_1_expiredLeaseCannotReleaseNextHoldersLock",
                "rule_4_3_forciblyReleasedLeaseCannotReleaseNextHolder",
                "rule_6_1_tokensIncreaseAcrossClients");
    }

    private static final String[] WATCHED_SEMAPHORE = {
        "rule_18_1_limitHoldsAcrossClientsAndThreads",
        "rule_18_2_permitsUpToTheLimitAtOnce",
        "rule_18_6_tokensIncrease",
        "rule_18_11_notReentrantAndReleasableFromAnyThread",
    };

    @Test
    void correctSemaphoresPassTheWatchedRules() {
        assertThat(failedRules(PermitControlTck.class, WATCHED_SEMAPHORE)).isEmpty();
    }

    @Test
    void semaphoresThatLetTooManyInAreCaught() {
        // within one client the local gate still keeps the limit (§18.11 passes): the kit catches it across clients
        assertThat(failedRules(DoubledLimitTck.class, WATCHED_SEMAPHORE)).containsExactlyInAnyOrder(
                "rule_18_1_limitHoldsAcrossClientsAndThreads", "rule_18_2_permitsUpToTheLimitAtOnce");
    }

    @Test
    void permitTokensThatDoNotIncreaseAreCaught() {
        assertThat(failedRules(ConstantPermitTokenTck.class, WATCHED_SEMAPHORE)).contains(
                "rule_18_1_limitHoldsAcrossClientsAndThreads", "rule_18_6_tokensIncrease",
                "rule_18_11_notReentrantAndReleasableFromAnyThread");
    }
}

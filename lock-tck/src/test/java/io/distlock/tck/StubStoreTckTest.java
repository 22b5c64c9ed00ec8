package io.distlock.tck;

import io.distlock.LockStore;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;

/**
 * The rule groups that need a controllable store, against the kit's stub backend: its outage switch runs the
 * availability rules (§14), its pause points the races of §15 that no real store can be forced into, and its fencing
 * counters (with a clock floor) the tampering rules of §19, its holder records the spoiled-name rules of §20; the close
 * rules (§10, §23) run on it as on every store.
 */
class StubStoreTckTest extends TckHarness implements AvailabilityRules, RacesAndBoundsRules, FenceTamperingRules,
        SpoiledNameRules, CloseRules {

    private final StubSpace space = StubSpace.withClockFloor();

    @Override
    protected LockStore newClient() {
        return space.openStore();
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
    protected FenceStateTampering fenceTampering() {
        return space.fenceTampering();
    }

    @Override
    protected SpoiledNameState spoiledNameState() {
        return space.spoiledNameState();
    }

    @Override
    protected WaitResources waitResources() {
        return client -> StubBackend.behind(client).orElseThrow().waitsInProgress();
    }
}

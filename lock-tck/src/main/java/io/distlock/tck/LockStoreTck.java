package io.distlock.tck;

/**
 * The compatibility kit: one test per numbered rule of {@code lock-tck/SPEC.md}, each named after its rule
 * ({@code rule_1_1_...}). A store proves it keeps the distlock contract by extending this class:
 *
 * <pre>{@code
 * class RedisTckTest extends LockStoreTck {
 *     protected LockStore newClient() { return LockStore.open(uri); }
 *  *     protected String storeUri() { return uri; }
 * }
 * }</pre>
 *
 * <p>Every call to {@link #newClient()} must open a new, independent client with its own connections: the kit uses
 * several to stand for several processes. The kit reads what the store offers from its
 * {@link io.distlock.LockStore#features()}; {@link #capabilities()} adds what a store cannot state of itself. Lock
 * names are unique per test run, so a shared server needs no cleanup.
 * To run only some rule groups, extend {@link TckHarness} and implement those groups' interfaces.
 */
public abstract class LockStoreTck extends TckHarness implements MutualExclusionRules, WaitingRules, OwnershipRules,
        ExpiryRules, FencingRules, ReentrancyRules, JdkLockRules, InterruptionRules, CloseRules, LostLeaseRules,
        NameRules, ScenarioRules, AvailabilityRules, RacesAndBoundsRules, LeadershipRules, SecretRules,
        SemaphoreRules, FenceTamperingRules, SpoiledNameRules, PrefixRules, RefusedSettingRules,
        AbandonedAttemptRules, ForceReleaseRules, UsedOnceRules, FeaturesRules {
}
